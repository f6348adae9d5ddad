import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

// Plain CommonJS, inline, so that it runs the same under tsx, vitest and the bundle (as the
// signer pool of issuing does): checks batches of Ed25519 signatures.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
const PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const keys = new Map();
function keyOf(hex) {
  let key = keys.get(hex);
  if (!key) {
    key = crypto.createPublicKey({ key: Buffer.concat([PREFIX, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
    if (keys.size >= 256) keys.delete(keys.keys().next().value);
    keys.set(hex, key);
  }
  return key;
}
parentPort.on('message', ({ id, keys: hexes, messages, signatures }) => {
  const results = new Uint8Array(hexes.length);
  for (let i = 0; i < hexes.length; i++) {
    try {
      results[i] = crypto.verify(null, Buffer.from(messages[i], 'hex'), keyOf(hexes[i]), Buffer.from(signatures[i], 'hex')) ? 1 : 0;
    } catch {
      results[i] = 0;
    }
  }
  parentPort.postMessage({ id, results });
});
`;

interface Request {
  key: string;
  message: Buffer;
  signature: Buffer;
  resolve(ok: boolean): void;
}

/**
 * Checks Ed25519 signatures on worker threads for `verify DIR`: the signature is the costliest
 * check of a proof, and the main thread meanwhile reads, parses and hashes the next proofs.
 * Requests are gathered and sent in one message per worker per turn of the event loop.
 */
export class SignaturePool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, Request[]>();
  private queue: Request[] = [];
  private scheduled = false;
  private nextId = 0;

  // One worker per core: the main thread mostly waits for them (it only reads, parses and hashes).
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
  check = (key: string, message: Buffer, signature: Buffer): Promise<boolean> =>
    new Promise((resolve) => {
      this.queue.push({ key, message, signature, resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });

  private flush(): void {
    this.scheduled = false;
    const all = this.queue;
    this.queue = [];
    const per = Math.ceil(all.length / this.workers.length);
    this.workers.forEach((worker, w) => {
      const batch = all.slice(w * per, (w + 1) * per);
      if (batch.length === 0) return;
      const id = this.nextId++;
      this.waiting.set(id, batch);
      // As hex text: a small Buffer is a view of Node's shared 8 KiB pool, and posting it would copy the whole pool.
      worker.postMessage({ id, keys: batch.map((r) => r.key), messages: batch.map((r) => r.message.toString('hex')), signatures: batch.map((r) => r.signature.toString('hex')) });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }
}
