/**
 * The browser bridge's file intake (UI.md: in the browser the files are uploaded to the
 * bridge): `POST /upload/<batch>/<relative path>` streams one file's bytes to a private folder
 * and answers where main can read it; the page sends files many to a request as
 * multipart/form-data (`POST /upload/<batch>`: a `path` field, then its `file`, per file),
 * since a drop of 10,000 proofs would otherwise cost 10,000 requests, and a FormData needs
 * neither the files' sizes (each File.size costs the page a stat) nor building a Blob on the
 * page's thread. (The older framed form, `{"path","size"}\n` + bytes, is still taken.)
 * The page then stages those paths with
 * `staging:addPaths`, the same call Electron makes with the paths of dropped files.
 * Also the page's side of it, served inside /bridge.js as `window.proofdeskFiles`.
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../../../common/errors.js';

/** Largest single upload (a diploma scan is far smaller). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
/** Largest framed request of small files (the page sends at most 8 MiB of files in one). */
export const MAX_FRAMED_BYTES = 32 * 1024 * 1024;
const FRAMED_TYPE = 'application/x-proofdesk-files';
const MULTIPART_TYPE = 'multipart/form-data';
/** Most files in one multipart request (the page sends 500). */
const MAX_MULTIPART_FILES = 10_000;
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

/**
 * The upload route, with its own private folder under the system temp directory (0700).
 *
 * @example const uploads = createUploadRoute(); if (await uploads.handle(req, res, url)) return;
 */
export function createUploadRoute(): UploadRoute {
  let root: string | null = null;
  const folder = () => (root ??= mkdtempSync(join(tmpdir(), 'proofdesk-uploads-')));
  return {
    async handle(request, response, url) {
      if (!url.pathname.startsWith('/upload/')) return false;
      if (request.method !== 'POST') throw new ServiceError('method_not_allowed', 'Uploads are POST');
      let parts: string[];
      try {
        parts = url.pathname.slice('/upload/'.length).split('/').map(decodeURIComponent);
      } catch {
        throw new ServiceError('invalid_value', 'The upload path is not valid');
      }
      const [batch, ...rel] = parts;
      if (batch && BATCH.test(batch) && rel.length === 0 && (request.headers['content-type'] ?? '').startsWith(MULTIPART_TYPE)) {
        const tops = await receiveMultipart(request, join(folder(), batch));
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        response.end(JSON.stringify({ tops }));
        return true;
      }
      if (batch && BATCH.test(batch) && rel.length === 0 && (request.headers['content-type'] ?? '').startsWith(FRAMED_TYPE)) {
        const tops = await receiveFramed(request, join(folder(), batch));
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        response.end(JSON.stringify({ tops }));
        return true;
      }
      if (!batch || !BATCH.test(batch) || rel.length === 0 || rel.length > MAX_DEPTH || !rel.every(segmentOk)) {
        throw new ServiceError('invalid_value', 'Upload to /upload/<batch>/<relative path of the file>');
      }
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > MAX_UPLOAD_BYTES) throw new ServiceError('payload_too_large', `A file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
      const target = join(folder(), batch, ...rel);
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      let size = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(size > MAX_UPLOAD_BYTES ? new ServiceError('payload_too_large', `A file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`) : null, chunk);
        },
      });
      try {
        await pipeline(request, limit, createWriteStream(target, { mode: 0o600 }));
      } catch (error) {
        rmSync(target, { force: true });
        throw error;
      }
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      // `top`: what was dropped (the file itself, or the folder it came in), for staging:addPaths.
      response.end(JSON.stringify({ path: target, top: join(folder(), batch, rel[0]!) }));
      return true;
    },
    close() {
      if (root) rmSync(root, { recursive: true, force: true });
      root = null;
    },
  };
}

/** Checks a relative path from the page; answers its segments. */
function relativeSegments(path: unknown): string[] {
  const rel = typeof path === 'string' ? path.split('/') : [];
  if (rel.length === 0 || rel.length > MAX_DEPTH || !rel.every(segmentOk)) throw new ServiceError('invalid_value', 'Every uploaded file needs a relative path without ".." or empty parts');
  return rel;
}

/**
 * Reads a multipart request (per file: a `path` field with its relative path, then the `file`)
 * into the batch folder, each file streamed to disk; answers each file's `top`, in order. A bad
 * path, a file over MAX_UPLOAD_BYTES or a malformed request fails it, and what it wrote is removed.
 */
async function receiveMultipart(request: IncomingMessage, batchDir: string): Promise<string[]> {
  const tops: string[] = [];
  const written: string[] = [];
  const writes: Promise<void>[] = [];
  const dirs = new Map<string, Promise<unknown>>();
  let failure: unknown = null;
  let path: string | null = null;
  const fail = (error: unknown) => void (failure ??= error);
  await new Promise<void>((resolve, reject) => {
    let parser: BusboyInstance;
    try {
      parser = new Busboy({ headers: request.headers as BusboyHeaders, limits: { fileSize: MAX_UPLOAD_BYTES, files: MAX_MULTIPART_FILES, fields: MAX_MULTIPART_FILES, fieldSize: 8192 } });
    } catch {
      reject(new ServiceError('invalid_value', 'The upload is not a multipart/form-data request with a boundary'));
      return;
    }
    parser.on('field', (name: string, value: string) => {
      if (name === 'path') path = value;
    });
    parser.on('file', (_name: string, stream: NodeJS.ReadableStream & { truncated?: boolean }) => {
      let rel: string[];
      try {
        rel = relativeSegments(path);
      } catch (error) {
        fail(error);
        stream.resume();
        return;
      }
      path = null;
      const target = join(batchDir, ...rel);
      tops.push(join(batchDir, rel[0]!));
      written.push(target);
      const dir = dirname(target);
      let made = dirs.get(dir);
      if (!made) dirs.set(dir, (made = mkdir(dir, { recursive: true, mode: 0o700 })));
      stream.on('limit', () => fail(new ServiceError('payload_too_large', `A file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`)));
      writes.push(made.then(() => pipeline(stream, createWriteStream(target, { mode: 0o600 }))).catch(fail));
    });
    parser.on('filesLimit', () => fail(new ServiceError('payload_too_large', `At most ${MAX_MULTIPART_FILES} files go in one upload request`)));
    parser.on('error', (error: unknown) => reject(new ServiceError('invalid_value', `The upload could not be read: ${error instanceof Error ? error.message : String(error)}`)));
    parser.on('finish', () => resolve());
    request.on('error', reject);
    request.pipe(parser);
  }).catch(fail);
  await Promise.all(writes);
  if (failure !== null) {
    await Promise.all(written.map((target) => rm(target, { force: true })));
    throw failure;
  }
  return tops;
}

/**
 * Reads a framed request of small files into the batch folder; answers each file's `top`.
 * The request is read whole (at most MAX_FRAMED_BYTES), so a short or malformed one writes nothing.
 */
async function receiveFramed(request: IncomingMessage, batchDir: string): Promise<string[]> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request) {
    total += (chunk as Buffer).length;
    if (total > MAX_FRAMED_BYTES) throw new ServiceError('payload_too_large', 'Too many files in one upload request');
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  const files: { rel: string[]; bytes: Buffer }[] = [];
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
    files.push({ rel: relativeSegments(header.path), bytes: body.subarray(end + 1, end + 1 + size) });
    at = end + 1 + size;
  }
  return Promise.all(
    files.map(async ({ rel, bytes }) => {
      const target = join(batchDir, ...rel);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await writeFile(target, bytes, { mode: 0o600 });
      return join(batchDir, rel[0]!);
    }),
  );
}

/**
 * The page's side, appended to /bridge.js: `window.proofdeskFiles.upload(files)` uploads the
 * `{file, relPath}`s as multipart requests of 500 and answers the distinct paths to stage.
 */
export const UPLOAD_BRIDGE_SCRIPT = `
(() => {
  const clean = (relPath) => relPath.split('/').filter((s) => s !== '');
  const call = async (url, init) => {
    const response = await fetch(url, init);
    const text = await response.text();
    if (!response.ok) throw new Error(text);
    return JSON.parse(text);
  };
  // Files per request, and requests at once: a FormData costs the page nothing per file (no
  // File.size, no Blob built here); the browser streams the files from disk.
  const FILES_PER_REQUEST = 500;
  const REQUESTS_AT_ONCE = 2;
  const upload = async (files) => {
    const batch = crypto.randomUUID();
    const groups = [];
    for (let at = 0; at < files.length; at += FILES_PER_REQUEST) groups.push({ at, items: files.slice(at, at + FILES_PER_REQUEST) });
    const tops = new Map();
    const note = (top, index) => { if (!tops.has(top) || tops.get(top) > index) tops.set(top, index); };
    const run = async ({ at, items }) => {
      const form = new FormData();
      for (const { file, relPath } of items) {
        form.append('path', clean(relPath).join('/'));
        form.append('file', file, 'file');
      }
      const { tops: answered } = await call('/upload/' + batch, { method: 'POST', body: form });
      answered.forEach((top, i) => note(top, at + i));
    };
    let next = 0;
    const worker = async () => { while (next < groups.length) await run(groups[next++]); };
    await Promise.all(Array.from({ length: Math.min(REQUESTS_AT_ONCE, groups.length) }, worker));
    // In the order they were dropped, however the uploads finished.
    return [...tops.entries()].sort((a, b) => a[1] - b[1]).map(([top]) => top);
  };
  Object.defineProperty(window, 'proofdeskFiles', { value: Object.freeze({ kind: 'upload', upload }), enumerable: true });
})();
`;
