/**
 * The Chromium bridge for UI tests and machines without the Electron binary (DESIGN.md):
 * plain Node, no Electron, a fastify app. Serves the built renderer on 127.0.0.1 and answers
 * `POST /ipc/<channel>` with the same handlers and argument validation the Electron window
 * gets, and main's events as Server-Sent Events at `GET /events`. Its copy of index.html loads
 * `/bridge.js`, which defines `window.proofdesk` over fetch and EventSource; the renderer
 * itself never knows which transport it runs on, except that files are uploaded
 * (bridge-uploads.ts) where Electron hands over their paths. The bridge does destructive
 * things, so only pages it serves itself may call it: a foreign Origin or Host is refused.
 */
import { createReadStream } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyReply } from 'fastify';
import { IPC_ARGUMENT_VALIDATORS, IPC_CHANNELS, bridgeName, type IpcChannel } from '../../common/ipc-contract.js';
import { ServiceError, encodeIpcError, isServiceError, type ErrorId } from '../../common/errors.js';
import { APP_EVENT_CHANNEL } from '../../common/tasks.js';
import type { EventBus } from './event-bus.js';
import { invokeIpcHandler, type IpcHandlers } from './ipc-handlers.js';
import { RENDERER_CSP_HEADER } from './renderer-csp.js';
import { registerUploads } from './bridge-uploads.js';
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
  /** Largest uploaded file, in bytes (2 GiB by default, as the REST service). */
  maxUploadBytes?: number;
}

export interface WebBridge {
  /** http://127.0.0.1:<port>/ */
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The browser side, served as /bridge.js: `window.proofdesk` with one function per channel
 * (named as ProofdeskBridge names them), each POSTing its arguments as a JSON array. A failed
 * call rejects with an Error whose message is the encoded ServiceError, exactly as the
 * Electron preload delivers it. `window.proofdeskFiles` tells the renderer to upload files
 * (renderer/staging/file-upload.ts) rather than ask for their paths.
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
  Object.defineProperty(window, 'proofdeskFiles', { value: Object.freeze({ kind: 'upload' }), enumerable: true });
})();
`;
}

/** Fastify's and @fastify/multipart's own refusals, by the spec id they stand for. */
const CODE_IDS: Partial<Record<string, ErrorId>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'no_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_value',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_value',
  FST_REQ_FILE_TOO_LARGE: 'payload_too_large',
  FST_FILES_LIMIT: 'payload_too_large',
  FST_FIELDS_LIMIT: 'invalid_value',
  FST_PARTS_LIMIT: 'payload_too_large',
  // An upload the page gave up on (Cancel aborts its requests): an expected end, not a crash to log.
  FST_MP_PREMATURE_CLOSE: 'invalid_value',
  ERR_STREAM_PREMATURE_CLOSE: 'invalid_value',
  ECONNRESET: 'invalid_value',
};

/** Any failure as the ServiceError the page decodes; the unexpected ones are logged. */
function asServiceError(error: unknown): ServiceError {
  if (isServiceError(error)) return error;
  const { code, message } = error as FastifyError;
  const id = CODE_IDS[code];
  if (id) return new ServiceError(id, message);
  // Fastify's other refusals of a request (e.g. a JSON body with "__proto__"): a bad value.
  const status = (error as FastifyError).statusCode ?? 500;
  if (status >= 400 && status < 500) return new ServiceError('invalid_value', message);
  console.error('web bridge: request failed:', error);
  return new ServiceError('internal_error', 'Unexpected error');
}

/** Keeps the response open as an SSE stream of the bus's events until the page goes away. */
function streamEvents(reply: FastifyReply, events: EventBus | undefined): void {
  reply.hijack();
  const response = reply.raw;
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
  const script = bridgeScript();
  const app = Fastify({ bodyLimit: MAX_BODY_BYTES });
  // IPC arguments come as JSON only (fastify would also take text/plain).
  app.removeContentTypeParser('text/plain');
  let origin = '';

  // Only pages we serve may call: a foreign Host header (DNS rebinding) or Origin is refused.
  app.addHook('onRequest', async (request) => {
    const from = request.headers.origin;
    if (request.headers.host !== new URL(origin).host || (from !== undefined && from !== origin)) {
      throw new ServiceError('unauthorized', 'Request from a foreign origin refused');
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    // The renderer's policy (as its <meta> tag), plus frame-ancestors, which a <meta> cannot carry.
    reply.header('content-security-policy', RENDERER_CSP_HEADER);
  });
  app.setErrorHandler(async (error, _request, reply) => {
    const service = asServiceError(error);
    return reply.status(service.status).type('text/plain; charset=utf-8').send(encodeIpcError(service));
  });
  app.setNotFoundHandler(async (request) => {
    // Only GET reads files; IPC calls and uploads are POST (a cancel DELETE).
    if ((request.method !== 'GET' && request.method !== 'HEAD') || /^\/(ipc|upload)\//.test(request.url)) {
      throw new ServiceError('method_not_allowed', `${request.method} is not allowed here`);
    }
    throw new ServiceError('not_found', `Not found: ${request.url.slice(0, 200)}`);
  });

  app.get('/events', async (_request, reply) => streamEvents(reply, options.events));
  app.post<{ Params: { channel: string } }>('/ipc/:channel', async (request, reply) => {
    const { channel } = request.params;
    if (!isChannel(channel)) throw new ServiceError('not_found', `No IPC channel ${JSON.stringify(channel)}`);
    if (!Array.isArray(request.body)) throw new ServiceError('invalid_value', 'IPC arguments must be a JSON array');
    const result = await invokeIpcHandler(options.handlers, channel, request.body);
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(result ?? null));
  });
  app.get<{ Params: { token: string } }>('/download/:token', async (request, reply) => {
    const file = exportDownloads.take(request.params.token);
    const { size } = await stat(file.path).catch(async (error: unknown) => {
      await rm(file.path, { force: true });
      throw error;
    });
    const body = createReadStream(file.path);
    body.once('close', () => void rm(file.path, { force: true }));
    return reply
      .headers({ 'content-type': file.mediaType, 'content-length': size, 'content-disposition': `attachment; filename="${file.fileName}"` })
      .send(body);
  });
  const removeUploads = await registerUploads(app, { parent: options.uploadsParent, maxFileBytes: options.maxUploadBytes });

  const index = async (_request: unknown, reply: FastifyReply) => reply.type('text/html; charset=utf-8').send(bridgedIndex);
  app.get('/', index);
  app.get('/index.html', index);
  app.get('/bridge.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(script));
  // Browsers ask for it unprompted; Electron never does. No content, no console noise.
  app.get('/favicon.ico', async (_request, reply) => reply.status(204).send());
  // The rest of the built renderer (scripts, styles, fonts); nothing outside `root`.
  await app.register(fastifyStatic, { root, index: false, cacheControl: false, etag: false, lastModified: false });

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const { port } = app.server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/`,
    close: async () => {
      removeUploads();
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
