import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { PAYLOAD_DEFLATE_OPTIONS } from '../proofs/payload-codec.js';
import { addStageTime, timingStages } from '../stage-timing.js';

// The worker's code, inline and plain CommonJS so it runs the same under tsx, vitest and a
// packaged build: SHA-256 of each canonical payload (the leaf), and the Ed25519 signature of it
// by libsodium (sodium-native, loaded from the path the pool resolved: an eval'd worker has no
// module of its own to resolve from), which signs in half the time of node:crypto's OpenSSL and,
// Ed25519 being deterministic (RFC 8032), gives the very same bytes;
// given a dictionary, also the payload as stored (payload-codec.ts: raw DEFLATE with it). Asked
// to (\`timed\`), it returns the wall and CPU nanoseconds it spent signing and compressing
// (stage-timing.ts; the CPU read as threadCpuNs reads it).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const crypto = require('node:crypto');
const sodium = require(workerData.sodium);
const zlib = require('node:zlib');
const DEFLATE = ${JSON.stringify(PAYLOAD_DEFLATE_OPTIONS)};
let cachedKey, cachedPkcs8;
// When this thread was ready to work (the same clock as the pool's), told once when timed.
let readyAt = performance.timeOrigin + performance.now();
const cpuNs = () => {
  try {
    return BigInt(require('node:fs').readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]);
  } catch {
    return 0n;
  }
};
const clock = (timed) => (timed ? [process.hrtime.bigint(), cpuNs()] : undefined);
const since = (from, to) => [Number(to[0] - from[0]), Number(to[1] - from[1])];
parentPort.on('message', ({ id, pkcs8, texts, dictionary, timed }) => {
  try {
    const t0 = clock(timed);
    if (pkcs8 !== cachedPkcs8) {
      // libsodium's secret key is the RFC 8032 seed (JWK "d") followed by its public key.
      const seed = Buffer.from(crypto.createPrivateKey({ key: Buffer.from(pkcs8, 'base64'), format: 'der', type: 'pkcs8' }).export({ format: 'jwk' }).d, 'base64url');
      cachedKey = Buffer.alloc(sodium.crypto_sign_SECRETKEYBYTES);
      sodium.crypto_sign_seed_keypair(Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES), cachedKey, seed);
      seed.fill(0);
      cachedPkcs8 = pkcs8;
    }
    const leaves = Buffer.alloc(32 * texts.length);
    const signatures = Buffer.alloc(64 * texts.length);
    // Each text's UTF-8 bytes, encoded once for its hash and its compression.
    const bytes = texts.map((text) => Buffer.from(text, 'utf8'));
    bytes.forEach((text, i) => {
      const leaf = crypto.createHash('sha256').update(text).digest();
      leaf.copy(leaves, 32 * i);
      sodium.crypto_sign_detached(signatures.subarray(64 * i, 64 * (i + 1)), leaf, cachedKey);
    });
    const t1 = clock(timed);
    const ready = readyAt;
    readyAt = undefined;
    const ns = (compress) => (timed ? { sign: since(t0, t1), compress, readyAt: ready } : undefined);
    if (!dictionary) return parentPort.postMessage({ id, leaves, signatures, ns: ns([0, 0]) }, [leaves.buffer, signatures.buffer]);
    const options = { ...DEFLATE, dictionary: Buffer.from(dictionary) };
    const parts = bytes.map((text) => zlib.deflateRawSync(text, options));
    const sizes = new Uint32Array(parts.map((p) => p.length));
    const packed = Buffer.concat(parts);
    parentPort.postMessage({ id, leaves, signatures, packed, sizes, ns: ns(timed ? since(t1, clock(timed)) : undefined) }, [leaves.buffer, signatures.buffer, sizes.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

/** Leaves (32 bytes each) and signatures (64 bytes each) in order; the stored payloads when asked. */
export interface Signed {
  leaves: Buffer;
  signatures: Buffer;
  compressed?: Buffer[];
}

function unpack(packed: Buffer, sizes: Uint32Array): Buffer[] {
  const parts: Buffer[] = [];
  let at = 0;
  for (const size of sizes) {
    parts.push(packed.subarray(at, at + size));
    at += size;
  }
  return parts;
}

interface Pending {
  resolve(value: Signed): void;
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

  /** Worker threads the pool signs on (one per core unless told): jobs are cut to keep each busy. */
  constructor(readonly threads = Math.max(1, availableParallelism())) {}

  /** Starts the worker threads now (they are otherwise started by the first sign()); a no-op once started. */
  start(): void {
    if (this.workers.length > 0) return;
    const started = performance.timeOrigin + performance.now();
    for (let i = 0; i < this.threads; i++) {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sodium: createRequire(import.meta.url).resolve('sodium-native') } });
      worker.unref();
      worker.on('message', (m: { id: number; leaves?: Uint8Array; signatures?: Uint8Array; packed?: Uint8Array; sizes?: Uint32Array; error?: string; ns?: { sign: [number, number]; compress: [number, number]; readyAt?: number } }) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.ns) {
          addStageTime('sign', ...m.ns.sign);
          addStageTime('compress', ...m.ns.compress);
          // Its start, from the pool's until its code ran: it overlaps the first payloads' making.
          if (m.ns.readyAt !== undefined) addStageTime('workers start', Math.round((m.ns.readyAt - started) * 1e6));
        }
        if (m.error !== undefined) p?.reject(new Error(`Signing failed: ${m.error}`));
        else p?.resolve({ leaves: Buffer.from(m.leaves!), signatures: Buffer.from(m.signatures!), compressed: m.packed && unpack(Buffer.from(m.packed.buffer, m.packed.byteOffset, m.packed.byteLength), m.sizes!) });
      });
      worker.on('error', (error) => {
        for (const p of this.pending.values()) p.reject(error);
        this.pending.clear();
      });
      this.workers.push(worker);
    }
  }

  /**
   * Leaves (32 bytes each) and signatures (64 bytes each) of the texts, in order; with a
   * dictionary, also each text compressed with it as payload-codec.ts stores payloads.
   */
  sign(pkcs8: string, texts: string[], dictionary?: Buffer): Promise<Signed> {
    this.start();
    const worker = this.workers[this.turn++ % this.workers.length]!;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, pkcs8, texts, dictionary, timed: timingStages() });
    });
  }

  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
