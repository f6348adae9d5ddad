/**
 * Writes the browser's framed uploads to disk on a thread of their own, and hashes them there.
 *
 * Why a thread: creating a file is the costly part of receiving one (open with O_CREAT waits on
 * the disk, longer while other processes write), and thousands of them written from the bridge's
 * main thread would block it for seconds: no request read and no proof sent to be checked
 * meanwhile, so the browser's reading of files and main's writing of them would take turns
 * instead of overlapping. Here main parses each request and hands the whole body over (moved,
 * not copied) with where each file goes; the thread makes the folders, writes the files
 * synchronously (faster than libuv's pool for many small files) and answers their SHA-256.
 * A request's promise settles once all its files are on disk, so `track` and cancel in
 * staging-upload.ts keep their meaning.
 *
 * The thread's code is plain JavaScript given as a string (`eval`): it needs nothing but
 * node:fs and node:crypto, and so no entry of its own in the builds.
 */
import { Worker } from 'node:worker_threads';
import { ServiceError } from '../../../common/errors.js';

/** One file of a request: where it goes and its bytes' place in the body. */
export interface FramedFile {
  target: string;
  start: number;
  end: number;
}

const WRITER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { mkdirSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
parentPort.on('message', ({ id, dirs, files, body }) => {
  try {
    const bytes = new Uint8Array(body);
    for (const dir of dirs) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const hashes = files.map(({ target, start, end }) => {
      const file = bytes.subarray(start, end);
      writeFileSync(target, file, { mode: 0o600 });
      return createHash('sha256').update(file).digest('hex');
    });
    parentPort.postMessage({ id, hashes });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.code || error) });
  }
});
`;

interface Waiting {
  resolve(hashes: string[]): void;
  reject(error: Error): void;
}

/** A thread writing framed uploads; started with the first request, ended by `close`. */
export class UploadWriter {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WRITER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', ({ id, hashes, error }: { id: number; hashes?: string[]; error?: string }) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      if (hashes) waiting?.resolve(hashes);
      else waiting?.reject(new ServiceError('internal_error', `The uploaded files could not be saved in the temporary folder (${error}): check that it has room and may be written to, then drop the files again`));
    });
    // A thread that died answers nothing more: what it held fails, the next request starts another.
    const failed = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, waiting] of this.waiting) {
        this.waiting.delete(id);
        waiting.reject(error);
      }
    };
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`The upload writer stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /**
   * Makes `dirs` (0700), writes each file (0600) from `body` and answers their SHA-256 in order.
   * `body` is moved to the thread: it cannot be used here afterwards.
   */
  write(dirs: string[], files: FramedFile[], body: Buffer): Promise<string[]> {
    const worker = this.started();
    const id = this.nextId++;
    // The bytes as an ArrayBuffer of their own (a pooled Buffer shares one with others).
    const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body.buffer : body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, dirs, files, body: own }, [own as ArrayBuffer]);
    });
  }

  close(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}
