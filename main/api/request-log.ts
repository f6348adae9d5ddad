/**
 * One log line per request, and the request id that ties a client's report to it. A line names
 * the route as registered (`/api/credentials/:uid`), never the path or query as sent, and
 * never a header or body: tokens, client secrets and uids stay out of the log.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** How `serve` writes its log: one JSON object per line, or a line for people. */
export type LogFormat = 'json' | 'text';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A request id a client may choose: short, and nothing that could forge a log line or a header. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

/** fastify's `genReqId`: the client's `X-Request-Id` when well-formed, else a new UUID. */
export function requestIdOf(raw: IncomingMessage): string {
  const sent = raw.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && WELL_FORMED_ID.test(sent) ? sent : randomUUID();
}

/** An operator message (an internal error, a reload) in the log's format: JSON escapes its newlines. */
export function operatorLine(format: LogFormat, level: 'info' | 'warn' | 'error', message: string): string {
  return format === 'json' ? JSON.stringify({ time: new Date().toISOString(), level, msg: message }) : message;
}

/** Echoes the request id on every answer and writes one line when each answer has gone. */
export function installRequestLog(app: FastifyInstance, format: LogFormat, write: (line: string) => void): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const fields = {
      time: new Date().toISOString(),
      level: 'info',
      msg: 'request',
      request_id: request.id,
      method: request.method,
      // The route as registered; null when no route matched (the path as sent could hold anything).
      route: request.routeOptions.url ?? null,
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 10) / 10,
      partner_id: request.partnerId ?? null,
    };
    if (format === 'json') write(JSON.stringify(fields));
    else write(`${fields.time} ${fields.method} ${fields.route ?? '(no route)'} ${fields.status} ${fields.duration_ms}ms id=${fields.request_id}${fields.partner_id ? ` partner=${fields.partner_id}` : ''}`);
  });
}
