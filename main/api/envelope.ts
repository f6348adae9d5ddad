/**
 * The spec's response envelope: `{result, meta}` on success, `{error: {id, message}, meta}`
 * on failure (DESIGN.md's error body), with every `meta` field.
 */
import type { FastifyReply } from 'fastify';
import type { ServiceError } from '../../common/errors.js';
import type { ResponseMeta } from '../../common/wire-types.js';
import type { ApiContext } from './context.js';

let cachedSecond = -1;
let cachedDate = '';

/** The current time as an HTTP date, formatted once per second. */
export function httpDate(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedDate = new Date(second * 1000).toUTCString();
  }
  return cachedDate;
}

export function metaOf(ctx: ApiContext): ResponseMeta {
  return {
    last_update: ctx.lastUpdate,
    date: httpDate(),
    message: '',
    version: ctx.version,
    documentation: `${ctx.origin}/api/openapi.json`,
  };
}

/** Sends `{result, meta}`; `undefined` (the spec's "no content") is sent as `result: null`. */
export function sendResult(reply: FastifyReply, ctx: ApiContext, status: number, result: unknown): FastifyReply {
  return reply.code(status).send({ result: result === undefined ? null : result, meta: metaOf(ctx) });
}

/** Sends the error body with the id's status. */
export function sendError(reply: FastifyReply, ctx: ApiContext, error: ServiceError): FastifyReply {
  return reply.code(error.status).send({ error: { id: error.id, message: error.message }, meta: metaOf(ctx) });
}
