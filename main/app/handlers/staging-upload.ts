/**
 * The browser bridge's file intake (UI.md: in the browser the files are uploaded to the
 * bridge): `POST /upload/<batch>/<relative path>` streams one file's bytes to a private folder
 * and answers where main can read it; small files travel many to a request
 * (`POST /upload/<batch>` with frames of `{"path","size"}\n` + bytes), since a drop of
 * 1,000 diplomas would otherwise cost 1,000 requests. Each file is hashed from the bytes as
 * they arrive (stage-files.ts rememberWrittenHash), so staging them reads nothing back.
 * `DELETE /upload/<batch>` (cancel) removes everything the batch wrote, once its requests
 * in flight are done, and refuses any later one. The page then stages the answered paths with
 * `staging:addPaths`, the same call Electron makes with the paths of dropped files.
 * The page's side is upload-page-script.ts, served inside /bridge.js as `window.proofdeskFiles`.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../../../common/errors.js';
import { forgetWrittenHashes, rememberWrittenHash } from '../../workspace/bringing-in/stage-files.js';
import { forgetReceived, rememberReceived } from '../../workspace/verify/received-proofs.js';
import { UploadWriter } from './upload-writer.js';

/** Largest single upload (a diploma scan is far smaller). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
/** Largest framed request of small files (the page sends at most 8 MiB of files in one). */
export const MAX_FRAMED_BYTES = 32 * 1024 * 1024;
const FRAMED_TYPE = 'application/x-proofdesk-files';
const BATCH = /^[A-Za-z0-9-]{8,64}$/;
const MAX_DEPTH = 32;

/** Checks one segment of an uploaded file's relative path: no `..`, no separators, no NUL. */
function segmentOk(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..' && !/[\\/\0]/.test(segment) && segment.length <= 255;
}

export interface UploadRoute {
  /** Answers the request when it is an upload; false when it is not one (the bridge goes on). */
  handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean>;
  /** Removes every uploaded file. */
  close(): void;
}

function answer(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

/**
 * The upload route, with its own private folder (0700) under `parent` (the system temp directory).
 *
 * @example const uploads = createUploadRoute(); if (await uploads.handle(req, res, url)) return;
 */
export function createUploadRoute(parent = tmpdir()): UploadRoute {
  let root: string | null = null;
  const folder = () => (root ??= mkdtempSync(join(parent, 'proofdesk-uploads-')));
  /** Requests still writing, per batch: a cancel waits for them before it removes the batch. */
  const writing = new Map<string, Set<Promise<unknown>>>();
  /** Cancelled batches: nothing more is written to them. */
  const cancelled = new Set<string>();
  const writer = new UploadWriter();

  const track = async <T>(batch: string, work: Promise<T>): Promise<T> => {
    const set = writing.get(batch) ?? new Set<Promise<unknown>>();
    writing.set(batch, set);
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    set.add(settled);
    try {
      return await work;
    } finally {
      set.delete(settled);
      if (set.size === 0) writing.delete(batch);
    }
  };
  const refuseCancelled = (batch: string) => {
    if (cancelled.has(batch)) throw new ServiceError('not_found', 'This upload was cancelled: drop the files again to add them');
  };

  return {
    async handle(request, response, url) {
      if (!url.pathname.startsWith('/upload/')) return false;
      let parts: string[];
      try {
        parts = url.pathname.slice('/upload/'.length).split('/').map(decodeURIComponent);
      } catch {
        throw new ServiceError('invalid_value', 'The upload path is not valid');
      }
      const [batch, ...rel] = parts;
      if (request.method === 'DELETE' && batch && BATCH.test(batch) && rel.length === 0) {
        cancelled.add(batch);
        await Promise.all(writing.get(batch) ?? []);
        if (root) {
          const dir = join(root, batch);
          await rm(dir, { recursive: true, force: true });
          forgetWrittenHashes(dir);
          forgetReceived(dir);
        }
        answer(response, { removed: true });
        return true;
      }
      if (request.method !== 'POST') throw new ServiceError('method_not_allowed', 'Uploads are POST (or DELETE /upload/<batch> to cancel one)');
      if (batch && BATCH.test(batch) && rel.length === 0 && (request.headers['content-type'] ?? '').startsWith(FRAMED_TYPE)) {
        refuseCancelled(batch);
        const tops = await track(batch, receiveFramed(request, join(folder(), batch), writer, () => cancelled.has(batch)));
        answer(response, { tops });
        return true;
      }
      if (!batch || !BATCH.test(batch) || rel.length === 0 || rel.length > MAX_DEPTH || !rel.every(segmentOk)) {
        throw new ServiceError('invalid_value', 'Upload to /upload/<batch>/<relative path of the file>');
      }
      refuseCancelled(batch);
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > MAX_UPLOAD_BYTES) throw new ServiceError('payload_too_large', `A file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
      const target = join(folder(), batch, ...rel);
      await track(batch, receiveOne(request, target));
      if (cancelled.has(batch)) rmSync(target, { force: true });
      refuseCancelled(batch);
      // `top`: what was dropped (the file itself, or the folder it came in), for staging:addPaths.
      answer(response, { path: target, top: join(folder(), batch, rel[0]!) });
      return true;
    },
    close() {
      writer.close();
      if (root) {
        rmSync(root, { recursive: true, force: true });
        forgetWrittenHashes(root);
        forgetReceived(root);
      }
      root = null;
    },
  };
}

/** A request the page gave up on (Cancel aborts its fetches) is an expected end, not a crash to log. */
function interrupted(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error | null)?.message === 'aborted') {
    return new ServiceError('invalid_value', 'The upload was interrupted before all its files arrived: drop the files again');
  }
  return error;
}

/** Streams one file's bytes to `target`, hashing them on the way. */
async function receiveOne(request: IncomingMessage, target: string): Promise<void> {
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  let size = 0;
  const hash = createHash('sha256');
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      done(size > MAX_UPLOAD_BYTES ? new ServiceError('payload_too_large', `A file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`) : null, chunk);
    },
  });
  try {
    await pipeline(request, limit, createWriteStream(target, { mode: 0o600 }));
  } catch (error) {
    rmSync(target, { force: true });
    throw interrupted(error);
  }
  rememberWrittenHash(target, hash.digest('hex'), size);
}

/** Checks a relative path from the page; answers its segments. */
function relativeSegments(path: unknown): string[] {
  const rel = typeof path === 'string' ? path.split('/') : [];
  if (rel.length === 0 || rel.length > MAX_DEPTH || !rel.every(segmentOk)) throw new ServiceError('invalid_value', 'Every uploaded file needs a relative path without ".." or empty parts');
  return rel;
}

/**
 * Reads a framed request of small files into the batch folder; answers each file's `top`.
 * The request is read whole (at most MAX_FRAMED_BYTES), so a short or malformed one writes
 * nothing; each file is hashed from those bytes. The files are written, and hashed, on the
 * writer's thread (upload-writer.ts), so that main goes on receiving meanwhile.
 */
async function receiveFramed(request: IncomingMessage, batchDir: string, writer: UploadWriter, isCancelled: () => boolean): Promise<string[]> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of request) {
      total += (chunk as Buffer).length;
      if (total > MAX_FRAMED_BYTES) throw new ServiceError('payload_too_large', 'Too many files in one upload request');
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    throw interrupted(error);
  }
  const body = Buffer.concat(chunks);
  const files: { rel: string[]; start: number; end: number }[] = [];
  for (let at = 0; at < body.length; ) {
    const end = body.indexOf(0x0a, at);
    if (end < 0 || end - at > 8192) throw new ServiceError('invalid_value', 'A file header of the upload is missing or too long');
    let header: { path?: unknown; size?: unknown };
    try {
      header = JSON.parse(body.subarray(at, end).toString('utf8')) as typeof header;
    } catch {
      throw new ServiceError('invalid_value', 'A file header of the upload is not JSON');
    }
    const size = header.size;
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0 || end + 1 + size > body.length) {
      throw new ServiceError('invalid_value', 'A file of the upload is shorter than its header says');
    }
    files.push({ rel: relativeSegments(header.path), start: end + 1, end: end + 1 + size });
    at = end + 1 + size;
  }
  // A cancel that came while the request was on its way: write nothing.
  if (isCancelled()) throw new ServiceError('not_found', 'This upload was cancelled: drop the files again to add them');
  const framed = files.map(({ rel, start, end }) => ({ target: join(batchDir, ...rel), start, end }));
  // A Verify drop checks the proofs from these bytes (copied) instead of reading the files back.
  for (const { target, start, end } of framed) rememberReceived(target, body.subarray(start, end));
  const hashes = await writer.write([...new Set(framed.map((f) => dirname(f.target)))], framed, body);
  for (const [i, { target, start, end }] of framed.entries()) rememberWrittenHash(target, hashes[i]!, end - start);
  return files.map(({ rel }) => join(batchDir, rel[0]!));
}
