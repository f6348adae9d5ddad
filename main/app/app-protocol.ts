/**
 * The `app:` protocol the window loads the renderer from (instead of file://, which would give
 * the page every file of the machine as its origin): request → response, pure of Electron so
 * it is unit-tested in plain Node with the global Request and Response. main/app/index.ts
 * registers the scheme and hands `protocol.handle('app', ...)` to `serveAppRequest`.
 *
 * Only files under the renderer folder are served: the path is decoded segment by segment and
 * any `..`, separator, backslash or NUL in a segment, another host, or a path that resolves
 * outside the folder is 404. Every answer carries the renderer's CSP as a header.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { RENDERER_CSP_HEADER } from './renderer-csp.js';

export const APP_SCHEME = 'app';
/** The one host of the scheme: app://proofdesk/… */
export const APP_HOST = 'proofdesk';
/** What the window loads. */
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * How the scheme is registered (`protocol.registerSchemesAsPrivileged`, before the app is
 * ready): standard (real origins, relative URLs resolve), secure (like https), fetch allowed
 * for its own files. No bypassCSP, no service workers, no CORS for other origins.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, bypassCSP: false, allowServiceWorkers: false, corsEnabled: false } as const;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** The content type of a served file, by its extension. */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** The headers of every answer of the scheme. */
export function appHeaders(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-security-policy': RENDERER_CSP_HEADER,
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'cache-control': 'no-cache',
  };
}

/**
 * The file an `app:` URL names under `root`, or null when it names none there. `/` is
 * index.html. Decoding happens once per segment, so `%2e%2e` and `%2f` cannot climb out.
 */
export function resolveAppPath(url: string, root: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.hostname !== APP_HOST || parsed.port !== '' || parsed.username !== '' || parsed.password !== '') return null;
  const raw = parsed.pathname === '/' || parsed.pathname === '' ? '/index.html' : parsed.pathname;
  const segments: string[] = [];
  for (const encoded of raw.split('/').slice(1)) {
    let segment: string;
    try {
      segment = decodeURIComponent(encoded);
    } catch {
      return null;
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) return null;
    segments.push(segment);
  }
  const base = resolve(root);
  const file = resolve(join(base, ...segments));
  return file.startsWith(base + sep) ? file : null;
}

export interface ServeAppOptions {
  /** The built renderer (out/renderer). */
  root: string;
  /** Reads a file; default fs.readFile (Electron's reads inside app.asar). */
  read?: (path: string) => Promise<Uint8Array>;
}

function plain(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...appHeaders('text/plain; charset=utf-8'), ...extra } });
}

/**
 * Answers one request of the `app:` scheme: the file under `root` with its content type and
 * the CSP header; 404 for anything else; 405 for a method other than GET and HEAD.
 *
 * @example protocol.handle('app', (request) => serveAppRequest(request, { root: rendererDir }))
 */
export async function serveAppRequest(request: Request, options: ServeAppOptions): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed', { allow: 'GET, HEAD' });
  const file = resolveAppPath(request.url, options.root);
  if (file === null) return plain(404, 'Not found');
  let body: Uint8Array;
  try {
    body = await (options.read ?? readFile)(file);
  } catch {
    return plain(404, 'Not found');
  }
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers: appHeaders(contentTypeOf(file)) });
}
