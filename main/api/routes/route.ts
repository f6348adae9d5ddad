/**
 * How an endpoint is declared: method, path under /api, its schema (validation and OpenAPI),
 * and a handler that maps the request onto the calling Partner's IssuingService and returns
 * the result for the envelope. How it reads its body and its success status follow from the
 * schema: a JSON body schema means JSON, a form means multipart, the 2xx response the status.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ServiceError } from '../../../common/errors.js';
import type { ApiContext } from '../context.js';
import { sendResult } from '../envelope.js';
import { route, type RouteSchema } from '../schemas/common.js';

export type ApiRequest = FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, string>; Body: unknown }>;

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the API prefix, fastify style (`/credentials/:uid`). */
  url: string;
  schema: RouteSchema;
  /** Runs the call; what it returns is the envelope's `result`. */
  handle(request: ApiRequest, ctx: ApiContext): Promise<unknown>;
  /** Served only by a server running as demo: elsewhere `not_found` with this message, whatever the request holds. */
  demoOnly?: string;
  /** Sends the answer itself instead of the envelope (the proof file download). */
  reply?(reply: FastifyReply, result: unknown, request: ApiRequest): FastifyReply;
}

/** An endpoint from one declaration: how it is served, and the parts of its schema as `route()` takes them. */
export function endpoint(o: Omit<ApiRoute, 'schema'> & Parameters<typeof route>[0]): ApiRoute {
  const { method, url, handle, demoOnly, reply, ...schema } = o;
  return { method, url, handle, demoOnly, reply, schema: route(schema) };
}

const NO_QUERY = Type.Object({});

function refuseOffDemo(message: string): () => Promise<never> {
  return async () => {
    throw new ServiceError('not_found', message);
  };
}

/** Registers API routes on `app` (the /api scope). */
export function addRoutes(app: FastifyInstance, ctx: ApiContext, routes: readonly ApiRoute[]): void {
  for (const route of routes) {
    const status = Number(Object.keys(route.schema.response).find((code) => code.startsWith('2')));
    app.route({
      method: route.method,
      url: route.url,
      // Every route's query string is validated (request-validation.ts), also where none is documented.
      schema: { querystring: NO_QUERY, ...route.schema },
      config: { body: route.schema.form ? 'multipart' : route.schema.body ? 'json' : 'none', public: route.schema.public ?? false },
      // Before validation: a live server has no such endpoint, so what the request holds does not matter.
      ...(route.demoOnly !== undefined && ctx.environment !== 'demo' ? { preValidation: refuseOffDemo(route.demoOnly) } : {}),
      handler: async (request: ApiRequest, reply) => {
        const result = await route.handle(request, ctx);
        return route.reply ? route.reply(reply, result, request) : sendResult(reply, ctx, status, result);
      },
    });
  }
}
