/**
 * The Chromium bridge for UI tests and machines without the Electron binary (DESIGN.md):
 * plain Node, no Electron. Serves the built renderer on 127.0.0.1 and answers
 * `POST /ipc/<channel>` with the same handlers and argument validation the Electron window
 * gets, and main's events as Server-Sent Events at `GET /events`. Its copy of index.html loads
 * `/bridge.js`, which defines `window.proofdesk` over fetch and EventSource; the renderer
 * itself never knows which transport it runs on. The bridge does destructive things, so only
 * pages it serves itself may call it: a foreign Origin or Host is refused.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { IPC_ARGUMENT_VALIDATORS, IPC_CHANNELS, bridgeName, type IpcChannel } from '../../common/ipc-contract.js';
import { ServiceError, encodeIpcError, isServiceError } from '../../common/errors.js';
import { APP_EVENT_CHANNEL } from '../../common/tasks.js';
import type { EventBus } from './event-bus.js';
import { invokeIpcHandler, type IpcHandlers } from './ipc-handlers.js';
import { RENDERER_CSP_HEADER } from './renderer-csp.js';
// The browser's file intake (staging uploads), kept in its own module.
import { createUploadRoute } from './handlers/staging-upload.js';
import { UPLOAD_BRIDGE_SCRIPT } from './handlers/upload-page-script.js';
// Finished list exports, downloaded once each.
import { exportDownloads } from './handlers/list-export-downloads.js';

export interface WebBridgeOptions {
  handlers: IpcHandlers;
  /** Main's events, streamed to every page at /events (none when absent). */
  events?: EventBus;
  /** The built renderer (electron-vite's out/renderer). */
  rendererDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Where the browser's uploads get their private folder (the system temp directory by default). */
  uploadsParent?: string;
}

export interface WebBridge {
  /** http://127.0.0.1:<port>/ */
  url: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The browser side, served as /bridge.js: `window.proofdesk` with one function per channel
 * (named as ProofdeskBridge names them), each POSTing its arguments as a JSON array. A failed
 * call rejects with an Error whose message is the encoded ServiceError, exactly as the
 * Electron preload delivers it.
 */
function bridgeScript(): string {
  const names = Object.fromEntries(
    IPC_CHANNELS.map((channel) => [bridgeName(channel), channel]),
  );
  return `'use strict';
(() => {
  const channels = ${JSON.stringify(names)};
  const call = async (channel, args) => {
    const response = await fetch('/ipc/' + encodeURIComponent(channel), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(text);
    return JSON.parse(text);
  };
  const bridge = {};
  for (const [name, channel] of Object.entries(channels)) bridge[name] = (...args) => call(channel, args);
  // One EventSource for the page, opened on the first listener; it reconnects by itself.
  const listeners = new Set();
  let source = null;
  bridge.onEvent = (listener) => {
    listeners.add(listener);
    if (source === null) {
      source = new EventSource('/events');
      source.addEventListener(${JSON.stringify(APP_EVENT_CHANNEL)}, (message) => {
        const event = JSON.parse(message.data);
        for (const l of [...listeners]) l(event);
      });
    }
    return () => {
      listeners.delete(listener);
    };
  };
  Object.defineProperty(window, 'proofdesk', { value: Object.freeze(bridge), enumerable: true });
})();
`;
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  response.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    // The renderer's policy (as its <meta> tag), plus frame-ancestors, which a <meta> cannot carry.
    'content-security-policy': RENDERER_CSP_HEADER,
  });
  response.end(body);
}

function sendError(response: ServerResponse, error: unknown): void {
  if (!isServiceError(error)) console.error('web bridge: request failed:', error);
  const status = isServiceError(error) ? error.status : 500;
  send(response, status, 'text/plain; charset=utf-8', encodeIpcError(error));
}

async function readJsonArray(request: IncomingMessage): Promise<unknown[]> {
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    throw new ServiceError('no_json', 'IPC calls must be sent as application/json');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ServiceError('payload_too_large', 'IPC call too large');
    chunks.push(chunk as Buffer);
  }
  let args: unknown;
  try {
    args = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ServiceError('invalid_value', 'IPC arguments are not valid JSON');
  }
  if (!Array.isArray(args)) throw new ServiceError('invalid_value', 'IPC arguments must be a JSON array');
  return args;
}

/** Keeps the response open as an SSE stream of the bus's events until the page goes away. */
function streamEvents(response: ServerResponse, events: EventBus | undefined): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'keep-alive',
  });
  // A comment line at once, so the page's EventSource is open before the first event.
  response.write(': connected\n\n');
  const unsubscribe = events?.subscribe((event) => {
    response.write(`event: ${APP_EVENT_CHANNEL}\ndata: ${JSON.stringify(event)}\n\n`);
  });
  // Idle proxies and sleeping laptops drop silent connections; a heartbeat keeps it honest.
  const heartbeat = setInterval(() => response.write(': ping\n\n'), 15_000);
  heartbeat.unref();
  response.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe?.();
  });
}

/** decodeURIComponent, but a malformed escape is just a path that does not exist. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw new ServiceError('not_found', 'Not found');
  }
}

function isChannel(name: string): name is IpcChannel {
  // hasOwn, not `in`: "constructor" or "__proto__" are not channels.
  return Object.hasOwn(IPC_ARGUMENT_VALIDATORS, name);
}

/**
 * Starts the bridge on 127.0.0.1.
 *
 * @example const bridge = await startWebBridge({ handlers, rendererDir: 'out/renderer' })
 */
export async function startWebBridge(options: WebBridgeOptions): Promise<WebBridge> {
  const root = resolve(options.rendererDir);
  const indexHtml = await readFile(join(root, 'index.html'), 'utf8');
  if (!indexHtml.includes('</head>')) throw new Error(`${root}/index.html has no </head>`);
  // Classic scripts run during parsing, before the app's deferred module script.
  const bridgedIndex = indexHtml.replace('</head>', '  <script src="/bridge.js"></script>\n  </head>');
  const script = bridgeScript() + UPLOAD_BRIDGE_SCRIPT; // + window.proofdeskFiles
  const uploads = createUploadRoute(options.uploadsParent);
  let origin = '';

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', origin);
      // Only pages we serve may call: a foreign Host header (DNS rebinding) or Origin is refused.
      const host = request.headers.host;
      const from = request.headers.origin;
      if (host !== new URL(origin).host || (from !== undefined && from !== origin)) {
        throw new ServiceError('unauthorized', 'Request from a foreign origin refused');
      }
      if (await uploads.handle(request, response, url)) return; // POST /upload/<batch>/<path>, DELETE /upload/<batch>
      if (await exportDownloads.handle(request, response, url)) return; // GET /download/<token>
      if (url.pathname === '/events') {
        if (request.method !== 'GET') throw new ServiceError('method_not_allowed', 'Events are read with GET');
        return streamEvents(response, options.events);
      }
      if (url.pathname.startsWith('/ipc/')) {
        const channel = decodePath(url.pathname.slice('/ipc/'.length));
        if (!isChannel(channel)) throw new ServiceError('not_found', `No IPC channel ${JSON.stringify(channel)}`);
        if (request.method !== 'POST') throw new ServiceError('method_not_allowed', 'IPC calls are POST');
        const result = await invokeIpcHandler(options.handlers, channel, await readJsonArray(request));
        send(response, 200, CONTENT_TYPES['.json']!, JSON.stringify(result ?? null));
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') throw new ServiceError('method_not_allowed', 'Only GET here');
      if (url.pathname === '/' || url.pathname === '/index.html') return send(response, 200, CONTENT_TYPES['.html']!, bridgedIndex);
      if (url.pathname === '/bridge.js') return send(response, 200, CONTENT_TYPES['.js']!, script);
      // Browsers ask for it unprompted; Electron never does. No content, no console noise.
      if (url.pathname === '/favicon.ico') return send(response, 204, 'image/x-icon', '');
      const file = resolve(root, '.' + decodePath(url.pathname));
      if (!file.startsWith(root + sep)) throw new ServiceError('not_found', 'Not found');
      const body = await readFile(file).catch(() => {
        throw new ServiceError('not_found', `Not found: ${url.pathname}`);
      });
      send(response, 200, CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', body);
    })().catch((error: unknown) => sendError(response, error));
  });

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/`,
    close: () =>
      new Promise<void>((done, fail) => {
        uploads.close();
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
