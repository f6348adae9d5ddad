import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Bytes of one request in a packed batch: public key 32, message (a leaf) 32, signature 64. */
const RECORD = 128;
/** A batch goes out once this many are waiting, at once. */
const FULL_BATCH = 256;
/**
 * Else it goes out this long after its first request: proofs reach their signature step one by
 * one, and a message per turn of the event loop carried one or two (each postMessage cost
 * more than the checks it carried).
 */
const GATHER_MS = 2;

// Plain CommonJS, inline, so that it runs the same under tsx, vitest and the bundle (as the
// signer pool of issuing does). A batch is one transferred buffer of fixed-size records: no
// per-signature strings to clone (cloning thousands of hex strings cost more than checking them).
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
const PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const keys = new Map();
function keyOf(raw) {
  const hex = raw.toString('hex');
  let key = keys.get(hex);
  if (!key) {
    key = crypto.createPublicKey({ key: Buffer.concat([PREFIX, raw]), format: 'der', type: 'spki' });
    if (keys.size >= 256) keys.delete(keys.keys().next().value);
    keys.set(hex, key);
  }
  return key;
}
parentPort.on('message', ({ id, packed }) => {
  const bytes = Buffer.from(packed);
  const count = bytes.length / ${RECORD};
  const results = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const at = i * ${RECORD};
    try {
      results[i] = crypto.verify(null, bytes.subarray(at + 32, at + 64), keyOf(bytes.subarray(at, at + 32)), bytes.subarray(at + 64, at + 128)) ? 1 : 0;
    } catch {
      results[i] = 0;
    }
  }
  parentPort.postMessage({ id, results }, [results.buffer]);
});
`;

interface Request {
  key: string;
  message: Buffer;
  signature: Buffer;
  resolve(ok: boolean): void;
}

const KEY_HEX = /^[0-9a-fA-F]{64}$/;

/**
 * Checks Ed25519 signatures on worker threads (one per core) for verifying many proofs: the
 * signature is the costliest offline check, and the main thread meanwhile reads, parses and
 * hashes the next proofs. Requests are gathered for GATHER_MS (or until FULL_BATCH wait) and
 * sent as one packed buffer per worker.
 */
export class SignaturePool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, Request[]>();
  private queue: Request[] = [];
  private scheduled = false;
  private nextId = 0;
  private nextWorker = 0;

  constructor(size = Math.max(1, availableParallelism())) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.unref();
      worker.on('message', ({ id, results }: { id: number; results: Uint8Array }) => {
        const batch = this.waiting.get(id) ?? [];
        this.waiting.delete(id);
        batch.forEach((r, i) => r.resolve(results[i] === 1));
      });
      this.workers.push(worker);
    }
  }

  /** Whether `signature` is the key's over `message` (false for garbage, never a throw). */
  check = (key: string, message: Buffer, signature: Buffer): Promise<boolean> => {
    // Only the fixed sizes a proof can have are packed; anything else is false, as verify() says.
    if (!KEY_HEX.test(key) || message.length !== 32 || signature.length !== 64) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.queue.push({ key, message, signature, resolve });
      if (this.queue.length >= FULL_BATCH * this.workers.length) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setTimeout(() => this.flush(), GATHER_MS);
      }
    });
  };

  private flush(): void {
    this.scheduled = false;
    const all = this.queue;
    this.queue = [];
    if (all.length === 0) return;
    // Few requests go to one worker (round robin); many are split between all of them.
    const parts = all.length < FULL_BATCH ? 1 : this.workers.length;
    const per = Math.ceil(all.length / parts);
    for (let p = 0; p < parts; p++) {
      const batch = all.slice(p * per, (p + 1) * per);
      if (batch.length === 0) continue;
      const packed = new Uint8Array(batch.length * RECORD);
      batch.forEach((r, i) => {
        packed.set(Buffer.from(r.key, 'hex'), i * RECORD);
        packed.set(r.message, i * RECORD + 32);
        packed.set(r.signature, i * RECORD + 64);
      });
      const id = this.nextId++;
      this.waiting.set(id, batch);
      const worker = this.workers[this.nextWorker++ % this.workers.length]!;
      worker.postMessage({ id, packed }, [packed.buffer]);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }
}
