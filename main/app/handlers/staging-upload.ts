/**
 * The browser bridge's file intake (UI.md: in the browser the files are uploaded to the
 * bridge): `POST /upload/<batch>/<relative path>` streams one file's bytes to a private folder
 * and answers where main can read it. The page then stages those paths with
 * `staging:addPaths`, the same call Electron makes with the paths of dropped files.
 * Also the page's side of it, served inside /bridge.js as `window.proofdeskFiles`.
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../../../common/errors.js';

/** Largest single upload (a diploma scan is far smaller). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
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

/**
 * The page's side, appended to /bridge.js: `window.proofdeskFiles.upload(files)` uploads each
 * `{file, relPath}` (eight at a time) and answers the distinct paths to stage.
 */
export const UPLOAD_BRIDGE_SCRIPT = `
(() => {
  const upload = async (files) => {
    const batch = crypto.randomUUID();
    const tops = new Map();
    let next = 0;
    const one = async ({ file, relPath }, index) => {
      const path = relPath.split('/').filter((s) => s !== '').map(encodeURIComponent).join('/');
      const response = await fetch('/upload/' + batch + '/' + path, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: file });
      const text = await response.text();
      if (!response.ok) throw new Error(text);
      const { top } = JSON.parse(text);
      if (!tops.has(top) || tops.get(top) > index) tops.set(top, index);
    };
    const worker = async () => { while (next < files.length) { const i = next++; await one(files[i], i); } };
    await Promise.all(Array.from({ length: Math.min(8, files.length) }, worker));
    // In the order they were dropped, however the uploads finished.
    return [...tops.entries()].sort((a, b) => a[1] - b[1]).map(([top]) => top);
  };
  Object.defineProperty(window, 'proofdeskFiles', { value: Object.freeze({ kind: 'upload', upload }), enumerable: true });
})();
`;
