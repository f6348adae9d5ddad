/**
 * How an endpoint is declared: method, path under /api, its schema (validation and OpenAPI),
 * how it reads its body, its success status, and a handler that maps the request onto the
 * calling Partner's IssuingService and returns the result for the envelope.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../common/errors.js';
import type { ApiContext } from '../context.js';
import { sendResult } from '../envelope.js';
import type { RouteSchema } from '../schemas/common.js';
import type { BodyKind } from '../types.js';

export type ApiRequest = FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, string>; Body: unknown }>;

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the API prefix, fastify style (`/credentials/:uid`). */
  url: string;
  schema: RouteSchema;
  body?: BodyKind;
  /** Status of a successful answer. */
  status: number;
  /** Runs the call; what it returns is the envelope's `result`. */
  handle(request: ApiRequest, ctx: ApiContext): Promise<unknown>;
  /** Sends the answer itself instead of the envelope (the proof file download). */
  reply?(reply: FastifyReply, result: unknown, request: ApiRequest): FastifyReply;
}

const PAGINATION = new Set(['sort_by', 'order', 'per_page', 'page']);

/**
 * Refuses a query parameter given more than once, except the tag filters (lists by nature):
 * every other parameter holds one value, and a list where the service expects text must not
 * reach it. The route's schema refuses it for the parameters it declares; this covers the
 * ones it does not (they are ignored, but not as lists).
 */
function checkQuery(query: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(query)) {
    if (!Array.isArray(value) || name.endsWith('_tags')) continue;
    const id = PAGINATION.has(name) ? 'wrong_pagination_argument' : 'invalid_value';
    throw new ServiceError(id, `Query parameter "${name.slice(0, 100)}" is given more than once`);
  }
}

/** Registers API routes on `app` (the /api scope). */
export function addRoutes(app: FastifyInstance, ctx: ApiContext, routes: readonly ApiRoute[]): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      schema: route.schema,
      config: { body: route.body ?? 'none', public: route.schema.public ?? false },
      handler: async (request: ApiRequest, reply) => {
        checkQuery(request.query);
        const result = await route.handle(request, ctx);
        return route.reply ? route.reply(reply, result, request) : sendResult(reply, ctx, route.status, result);
      },
    });
  }
}
