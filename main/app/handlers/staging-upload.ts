/**
 * The browser bridge's file intake (UI.md: in the browser the files are uploaded to the
 * bridge): `POST /upload/<batch>/<relative path>` streams one file's bytes to a private folder
 * and answers where main can read it; small files travel many to a request
 * (`POST /upload/<batch>` with frames of `{"path","size"}\n` + bytes), since a drop of
 * 1,000 diplomas would otherwise cost 1,000 requests. JSON files (a drop of 10,000 proofs)
 * are read by the page with arrayBuffer(), 32 at once, and sent 500 to a request. The page then stages those paths with
 * `staging:addPaths`, the same call Electron makes with the paths of dropped files.
 * Also the page's side of it, served inside /bridge.js as `window.proofdeskFiles`.
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
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
  // One mkdir per folder, not per file: 500 proofs of one folder come in one request.
  const folders = new Map<string, Promise<unknown>>();
  return Promise.all(
    files.map(async ({ rel, bytes }) => {
      const target = join(batchDir, ...rel);
      const folder = dirname(target);
      let made = folders.get(folder);
      if (!made) folders.set(folder, (made = mkdir(folder, { recursive: true, mode: 0o700 })));
      await made;
      await writeFile(target, bytes, { mode: 0o600 });
      return join(batchDir, rel[0]!);
    }),
  );
}

/**
 * The page's side, appended to /bridge.js: `window.proofdeskFiles.upload(files)` uploads each
 * `{file, relPath}` (four requests at a time) and answers the distinct paths to stage.
 */
export const UPLOAD_BRIDGE_SCRIPT = `
(() => {
  const SMALL = 1024 * 1024;
  const BATCH_BYTES = 8 * 1024 * 1024;
  const BATCH_FILES = 100; // H9: a request's Blob of files is built in one task: 100 keep it short
  const clean = (relPath) => relPath.split('/').filter((s) => s !== '');
  const call = async (url, init) => {
    const response = await fetch(url, init);
    const text = await response.text();
    if (!response.ok) throw new Error(text);
    return JSON.parse(text);
  };
  const JSON_FILES = 500; // JSON files (proofs) already read: 500 to a request
  const JSON_LANES = 32;
  const upload = async (files) => {
    const batch = crypto.randomUUID();
    const tops = new Map();
    const note = (top, index) => { if (!tops.has(top) || tops.get(top) > index) tops.set(top, index); };
    const run = async (job) => {
      if (job.kind === 'single') {
        const { file, relPath, index } = job.items[0];
        const path = clean(relPath).map(encodeURIComponent).join('/');
        const { top } = await call('/upload/' + batch + '/' + path, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: file });
        note(top, index);
        return;
      }
      // H9: each request's Blob in a task of its own (the workers would build theirs in one).
      await new Promise((resolve) => setTimeout(resolve, 0));
      const parts = [];
      for (const { file, bytes, relPath, size } of job.items) parts.push(JSON.stringify({ path: clean(relPath).join('/'), size: bytes ? bytes.byteLength : size }) + '\\n', bytes ?? file);
      const { tops: answered } = await call('/upload/' + batch, { method: 'POST', headers: { 'content-type': 'application/x-proofdesk-files' }, body: new Blob(parts) });
      answered.forEach((top, i) => note(top, job.items[i].index));
    };
    // Requests go out (four at once) while the next files are still being read.
    const jobs = [];
    let next = 0;
    let producing = true;
    let wake = () => {};
    const push = (job) => { jobs.push(job); wake(); };
    const worker = async () => {
      for (;;) {
        if (next < jobs.length) await run(jobs[next++]);
        else if (!producing) return;
        else await new Promise((resolve) => { const before = wake; wake = () => { wake = () => {}; before(); resolve(); }; });
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    // Small files go many to a request, each framed by a JSON header line; large ones alone, streamed.
    let group = [];
    let bytes = 0;
    const flush = (kind = 'framed') => { if (group.length) push({ kind, items: group }); group = []; bytes = 0; };
    try {
      // JSON files (a drop of 10,000 proofs) are read whole with arrayBuffer(), many at once: that
      // happens off the page's thread, and gives their sizes, where File.size would cost the page a
      // synchronous stat of each file (0.2-0.5 ms; 10,000 of them took seconds of the window).
      const isJson = (item) => /\\.json$/i.test(item.relPath);
      const json = [];
      files.forEach((item, index) => { if (isJson(item)) json.push({ ...item, index }); });
      for (let at = 0; at < json.length; at += JSON_FILES) {
        const chunk = json.slice(at, at + JSON_FILES);
        let nextRead = 0;
        const read = async () => { while (nextRead < chunk.length) { const item = chunk[nextRead++]; item.bytes = new Uint8Array(await item.file.arrayBuffer()); } };
        await Promise.all(Array.from({ length: Math.min(JSON_LANES, chunk.length) }, read));
        for (const item of chunk) {
          const size = item.bytes.byteLength;
          if (size > BATCH_BYTES) { push({ kind: 'single', items: [{ ...item, bytes: undefined }] }); continue; }
          if (bytes + size > BATCH_BYTES || group.length >= JSON_FILES) flush('read');
          group.push(item);
          bytes += size;
        }
        flush('read');
      }
      // H9: File.size costs the page a stat of the file (about 0.3 ms): for 10,000 files, yield
      // every 100 so the window never freezes (a renderer task under 100 ms, issue 10 item 5).
      let seen = 0;
      for (const [index, item] of files.entries()) {
        if (isJson(item)) continue;
        if (++seen % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 0));
        const size = item.file.size;
        if (size > SMALL) { push({ kind: 'single', items: [{ ...item, index }] }); continue; }
        if (bytes + size > BATCH_BYTES || group.length >= BATCH_FILES) flush();
        group.push({ ...item, index, size });
        bytes += size;
      }
      flush();
    } finally {
      producing = false;
      wake();
    }
    await Promise.all(workers);
    // In the order they were dropped, however the uploads finished.
    return [...tops.entries()].sort((a, b) => a[1] - b[1]).map(([top]) => top);
  };
  Object.defineProperty(window, 'proofdeskFiles', { value: Object.freeze({ kind: 'upload', upload }), enumerable: true });
})();
`;
