/**
 * One error handler for the whole server: every failure becomes the spec's error body with
 * an id of the one table (common/errors.ts). Fastify's and the multipart parser's own errors
 * are mapped to the spec's ids; anything unexpected is `internal_error` with a generic
 * message, its details logged (never the request's headers or body, so never a secret).
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, isServiceError, type ErrorId } from '../../common/errors.js';
import type { ApiContext } from './context.js';
import { sendError } from './envelope.js';

/** The longest path parameter the router takes (fastify's maxParamLength). */
export const MAX_PARAM_LENGTH = 500;

/** Fastify's and @fastify/multipart's error codes, by the spec id they stand for. */
const CODE_IDS: Record<string, ErrorId> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'no_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'no_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'no_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_value',
  FST_ERR_CTP_INVALID_TYPE: 'no_json',
  FST_ERR_VALIDATION: 'invalid_value',
  FST_PARTS_LIMIT: 'payload_too_large',
  FST_FILES_LIMIT: 'payload_too_large',
  FST_FIELDS_LIMIT: 'payload_too_large',
  FST_REQ_FILE_TOO_LARGE: 'payload_too_large',
  FST_PROTO_VIOLATION: 'invalid_value',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'no_file_on_payload',
  FST_INVALID_JSON_FIELD_ERROR: 'no_json',
  FST_MP_PREMATURE_CLOSE: 'invalid_value',
  // The router's own refusals (through fastify's frameworkErrors, before any hook runs). A path
  // parameter longer than the router takes cannot name anything: it is a bad value (400), not
  // the 414 fastify would send, so that every operation answers only statuses of the table.
  FST_ERR_BAD_URL: 'invalid_value',
  FST_ERR_MAX_PARAM_LENGTH: 'invalid_value',
  FST_ERR_ASYNC_CONSTRAINT: 'internal_error',
};

const MESSAGES: Partial<Record<string, string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is larger than this endpoint accepts',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send application/json',
  FST_PARTS_LIMIT: 'The form has more parts than this endpoint accepts',
  FST_FILES_LIMIT: 'The form has more than one file: send one file per request',
  FST_FIELDS_LIMIT: 'The form has more fields than this endpoint accepts',
  FST_REQ_FILE_TOO_LARGE: 'The file is larger than this server accepts',
  FST_PROTO_VIOLATION: 'A form field has a forbidden name',
  FST_INVALID_JSON_FIELD_ERROR: 'A form field declared as application/json is not valid JSON',
  FST_MP_PREMATURE_CLOSE: 'The request ended before the form was complete',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty: send a JSON object',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length',
  FST_ERR_CTP_INVALID_TYPE: 'The Content-Type header is not valid: send application/json',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'No file in the request: send multipart/form-data with the file as "file"',
  FST_ERR_BAD_URL: 'The path is not valid percent-encoding (URL encoding): encode each path segment as UTF-8',
  FST_ERR_MAX_PARAM_LENGTH: `A path parameter is longer than ${MAX_PARAM_LENGTH} characters, so it names nothing here`,
};

/**
 * A message for an error that is not ours, by its id: the thrown message could quote the
 * request (fastify's quote the path), so it is never passed on.
 */
const GENERIC: Partial<Record<ErrorId, string>> = {
  unauthorized: 'Authentication is required: send a bearer token',
  not_found: 'Nothing is at this path',
  method_not_allowed: 'This method is not allowed on this path',
  payload_too_large: 'The request is larger than this endpoint accepts',
  no_json: 'Unsupported content type: send application/json',
};

/** The id a bare HTTP status stands for. */
function idOfStatus(status: number): ErrorId {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'no_json';
  return 'invalid_value';
}

/**
 * The ServiceError a thrown value stands for. `internal` is true when the caller must not see
 * what happened (a bug, or a failure of the machine), so the answer hides it.
 */
export function toServiceError(error: unknown): { error: ServiceError; internal: boolean } {
  if (isServiceError(error)) {
    if (error.id === 'internal_error') return { error: new ServiceError('internal_error', 'Internal error'), internal: true };
    return { error, internal: false };
  }
  const e = error as Partial<FastifyError> | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  if (code !== undefined && Object.hasOwn(CODE_IDS, code)) {
    const id = CODE_IDS[code]!;
    if (id === 'internal_error') return { error: new ServiceError('internal_error', 'Internal error'), internal: true };
    return { error: new ServiceError(id, MESSAGES[code] ?? GENERIC[id] ?? 'The request is not valid'), internal: false };
  }
  const status = typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  if (status !== undefined && status >= 400 && status < 500) {
    const id = idOfStatus(status);
    return { error: new ServiceError(id, GENERIC[id] ?? 'The request is not valid'), internal: false };
  }
  return { error: new ServiceError('internal_error', 'Internal error'), internal: true };
}

/** What a request is, for a log line: method and path, without the query (which might carry anything). */
function requestLabel(request: FastifyRequest): string {
  return `${request.method} ${request.url.split('?')[0]}`;
}

function logInternal(ctx: ApiContext, request: FastifyRequest, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `\ncaused by: ${error.cause.stack ?? error.cause.message}` : '';
  ctx.log(`proofdesk api: internal error on ${requestLabel(request)}: ${detail}${cause}`);
}

/** How much of a refused request's unread body is read and thrown away before answering. */
const LINGER_BYTES = 32 * 1024 * 1024;
const LINGER_MS = 10_000;

/**
 * Reads the rest of a request's body and discards it, within bounds. Answering while the
 * client still sends, then closing, makes the kernel reset the connection, and the client
 * may lose the answer; reading the body to its end first avoids that. Resolves true when the
 * body ended, false when it was too large or too slow (the connection is then closed).
 */
function drainBody(raw: IncomingMessage): Promise<boolean> {
  if (raw.complete || raw.destroyed) return Promise.resolve(raw.complete);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onEnd);
      raw.off('close', onEnd);
      if (!ended) raw.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) finish(false);
    };
    const onEnd = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), LINGER_MS);
    // Whatever was consuming it (the multipart parser) has given up.
    raw.unpipe();
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('error', onEnd);
    raw.on('close', onEnd);
    raw.resume();
  });
}

/** Sends the error body for any thrown value, with the headers its status calls for. */
export async function replyWithError(ctx: ApiContext, request: FastifyRequest, reply: FastifyReply, thrown: unknown): Promise<FastifyReply> {
  const { error, internal } = toServiceError(thrown);
  if (internal) logInternal(ctx, request, thrown);
  if (error.status === 401) reply.header('www-authenticate', wwwAuthenticate(thrown));
  // A request refused before its body was read: read the rest first (within bounds), so that
  // the client gets the answer; past the bounds, close the connection after answering.
  // HTTP/2 has no Connection header (it is a protocol error there): its stream is reset instead.
  if (!(await drainBody(request.raw)) && request.raw.httpVersionMajor < 2) reply.header('connection', 'close');
  return sendError(reply, ctx, error);
}

/** RFC 6750's challenge; `error="invalid_token"` when a token was sent but refused. */
function wwwAuthenticate(thrown: unknown): string {
  const invalid = (thrown as { tokenSent?: unknown } | null)?.tokenSent === true;
  return invalid ? 'Bearer realm="proofdesk", error="invalid_token"' : 'Bearer realm="proofdesk"';
}

interface KnownRoute {
  method: string;
  /** As registered (`/api/credentials/:uid`): safe to quote, unlike the request's path. */
  url: string;
  pattern: RegExp;
}

function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * Installs the error handler, and the not-found handler that tells an unknown path (404
 * `not_found`) from a known path asked with another method (405 `method_not_allowed`, with
 * an Allow header). Call before routes are added: it watches them being registered.
 */
export function installErrorHandling(app: FastifyInstance, ctx: ApiContext): void {
  const routes: KnownRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method, url: route.url ?? route.path, pattern: patternOf(route.url ?? route.path) });
  });

  app.setErrorHandler((error, request, reply) => replyWithError(ctx, request, reply, error));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const matching = routes.filter((r) => r.pattern.test(path));
    const allowed = [...new Set(matching.map((r) => r.method))];
    // The messages name the route as registered, never the path as sent (which could be anything).
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      const method = /^[A-Z]{1,20}$/.test(request.method) ? request.method : 'This method';
      const route = matching[0]!.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      return sendError(reply, ctx, new ServiceError('method_not_allowed', `${method} is not allowed on ${route}; allowed: ${allowed.join(', ')}`));
    }
    return sendError(reply, ctx, new ServiceError('not_found', 'No endpoint at this path: see /api/openapi.json for the endpoints'));
  });
}

/**
 * fastify's `frameworkErrors`: what the router refuses before any hook runs (a path that is not
 * valid percent-encoding, a path parameter past MAX_PARAM_LENGTH) gets the error envelope too.
 */
export function frameworkErrorHandler(ctx: ApiContext): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-request-id', request.id);
    void replyWithError(ctx, request, reply, error);
  };
}
