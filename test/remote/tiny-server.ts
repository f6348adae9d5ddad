/**
 * A tiny HTTP server on loopback that answers however a test tells it to — including badly
 * (slowly, hugely, with redirects, garbage or a dropped connection) — and records every
 * request it saw, for the remote client's transport tests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Bytes of the body (also when the body was not kept). */
  size: number;
}

export type Handler = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

export interface TinyServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  requests: SeenRequest[];
  /** Requests whose path starts with `prefix`. */
  seen(prefix: string): SeenRequest[];
  /** Replaces the handler. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** The path of a token endpoint in realm `proofdesk`. */
export const TOKEN_PATH = '/realms/proofdesk/protocol/openid-connect/token';

/** Sends a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export const META = { last_update: 'Thu, 01 Jan 2026 00:00:00 GMT', date: 'Thu, 01 Jan 2026 00:00:00 GMT', message: '', version: 'test', documentation: 'http://docs' };

/** Answers `{result, meta}`. */
export function sendResult(res: ServerResponse, result: unknown, status = 200): void {
  sendJson(res, status, { result, meta: META });
}

/** Answers the DESIGN.md error body. */
export function sendError(res: ServerResponse, status: number, id: string, message = id, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { id, message }, meta: META }, headers);
}

let tokenCounter = 0;

/**
 * A handler that serves tokens at TOKEN_PATH (client `client`, secret `secret`, lifetime
 * `expiresIn` s) and passes every other request to `api` after checking the bearer token
 * against the ones it issued (`valid` decides which are still good).
 */
export function withTokens(api: Handler, options: { expiresIn?: number; valid?: (token: string) => boolean } = {}): Handler & { issued: string[] } {
  const issued: string[] = [];
  const handler = (async (req, res) => {
    if (req.url === TOKEN_PATH) {
      const form = new URLSearchParams(req.body.toString('utf8'));
      if (form.get('grant_type') !== 'client_credentials') return sendJson(res, 400, { error: 'unsupported_grant_type' });
      if (form.get('client_id') !== 'client' || form.get('client_secret') !== 'secret') {
        return sendJson(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
      }
      tokenCounter += 1;
      const token = `token-${tokenCounter}`;
      issued.push(token);
      return sendJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: options.expiresIn ?? 300 });
    }
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!issued.includes(token) || !(options.valid?.(token) ?? true)) return sendError(res, 401, 'unauthorized', 'Bad token', { 'www-authenticate': 'Bearer' });
    return api(req, res);
  }) as Handler & { issued: string[] };
  handler.issued = issued;
  return handler;
}

/** Starts a tiny server on 127.0.0.1 and a free port; `keepBodies: false` keeps only small bodies (and counts all bytes). */
export async function startTinyServer(initial: Handler, options: { keepBodies?: boolean } = {}): Promise<TinyServer> {
  let handler = initial;
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (options.keepBodies !== false || size <= 64 * 1024) chunks.push(chunk);
    });
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), size };
      requests.push(seen);
      Promise.resolve(handler(seen, res)).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, 'internal_error', String(error));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    seen: (prefix) => requests.filter((r) => r.url.startsWith(prefix)),
    handle: (next) => {
      handler = next;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
