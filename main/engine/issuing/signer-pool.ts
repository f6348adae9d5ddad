import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

// The worker's code, inline and plain CommonJS so it runs the same under tsx, vitest and a
// packaged build: SHA-256 of each canonical payload (the leaf), and the Ed25519 signature of it.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
let cachedKey, cachedPkcs8;
parentPort.on('message', ({ id, pkcs8, texts }) => {
  try {
    if (pkcs8 !== cachedPkcs8) {
      cachedKey = crypto.createPrivateKey({ key: Buffer.from(pkcs8, 'base64'), format: 'der', type: 'pkcs8' });
      cachedPkcs8 = pkcs8;
    }
    const leaves = Buffer.alloc(32 * texts.length);
    const signatures = Buffer.alloc(64 * texts.length);
    texts.forEach((text, i) => {
      const leaf = crypto.createHash('sha256').update(text).digest();
      leaf.copy(leaves, 32 * i);
      crypto.sign(null, leaf, cachedKey).copy(signatures, 64 * i);
    });
    parentPort.postMessage({ id, leaves, signatures }, [leaves.buffer, signatures.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Pending {
  resolve(value: { leaves: Buffer; signatures: Buffer }): void;
  reject(error: Error): void;
}

/**
 * Hashes and signs certificate payloads on worker threads, one per core: Ed25519 signing is
 * the costliest step of issuing, and it parallelises perfectly. Workers are started on first
 * use and end with close() (or are unref'd, so they never keep the process alive).
 */
export class SignerPool {
  private workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private turn = 0;

  constructor(private readonly size = Math.max(1, availableParallelism())) {}

  private start(): void {
    for (let i = 0; i < this.size; i++) {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.unref();
      worker.on('message', (m: { id: number; leaves?: Uint8Array; signatures?: Uint8Array; error?: string }) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.error !== undefined) p?.reject(new Error(`Signing failed: ${m.error}`));
        else p?.resolve({ leaves: Buffer.from(m.leaves!), signatures: Buffer.from(m.signatures!) });
      });
      worker.on('error', (error) => {
        for (const p of this.pending.values()) p.reject(error);
        this.pending.clear();
      });
      this.workers.push(worker);
    }
  }

  /** Leaves (32 bytes each) and signatures (64 bytes each) of the texts, in order. */
  sign(pkcs8: string, texts: string[]): Promise<{ leaves: Buffer; signatures: Buffer }> {
    if (this.workers.length === 0) this.start();
    const worker = this.workers[this.turn++ % this.workers.length]!;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, pkcs8, texts });
    });
  }

  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
