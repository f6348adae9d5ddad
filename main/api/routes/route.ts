/**
 * How an endpoint is declared: method, path under /api, its schemas (the TypeBox schemas of
 * common/schemas for its params, query, body and success response, plus the error ids it
 * answers with, which become its error responses: one per status, the ids named in the
 * description), and a handler that maps the request onto the calling Partner's IssuingService
 * and returns the result for the envelope. How it reads its body and its success status follow
 * from the schema: a JSON body schema means JSON, a form means multipart, the 2xx response the
 * status. @fastify/swagger generates the OpenAPI document from what the routes declare
 * (main/api/openapi-document.ts).
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { ERROR_STATUS, ServiceError, type ErrorId } from '../../../common/errors.js';
import { ref } from '../../../common/schemas/primitives.js';
import { ErrorSchema, MetaSchema } from '../../../common/schemas/resources.js';
import type { ApiContext } from '../context.js';
import { sendResult } from '../envelope.js';

/** What each route declares (fastify keeps it as the route's `schema`; @fastify/swagger reads it). */
export interface RouteSchema extends FastifySchema {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: TObject;
  querystring?: TObject;
  /** The JSON body. */
  body?: TSchema;
  /** The multipart form's fields: read by multipart.ts, so documented (as the body) but not validated by fastify. */
  form?: TSchema;
  /** Media types of the body, for the document. */
  consumes?: string[];
  /** Every response by status: the success ones and an error response per status of `errors`. */
  response: Record<number, TSchema>;
  /** No bearer token needed. */
  public?: boolean;
  /** Left out of the OpenAPI document. */
  hide?: boolean;
  security?: Record<string, string[]>[];
}

/**
 * What any path can answer before its route runs: 400 `invalid_value` for a path that is not
 * valid percent-encoding or a path parameter past the router's limit, 405 `method_not_allowed`
 * for a method the path does not serve. Every operation lists them.
 */
const ROUTER_ERRORS: readonly ErrorId[] = ['invalid_value', 'method_not_allowed'];

/** The error responses of a list of ids: one per status, naming its ids. */
export function errorResponses(ids: readonly ErrorId[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorId[]>();
  for (const id of new Set(ids)) byStatus.set(ERROR_STATUS[id], [...(byStatus.get(ERROR_STATUS[id]) ?? []), id]);
  const responses: Record<number, TSchema> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[status] = Type.Unsafe({ ...ref(ErrorSchema), description: `Error ids: ${list.map((id) => `\`${id}\``).join(', ')}` });
  }
  return responses;
}

/**
 * A route's schema from its parts; `errors` are the ids it answers with besides the router's,
 * `internal_error`, and for a Partner's routes `unauthorized` and `too_many_requests`.
 */
export function route(o: Omit<RouteSchema, 'response'> & { response: Record<number, TSchema>; errors: ErrorId[] }): RouteSchema {
  const { errors, response, form, ...rest } = o;
  const ids: ErrorId[] = [...errors, ...(o.public ? [] : (['unauthorized', 'too_many_requests'] as const)), ...ROUTER_ERRORS, 'internal_error'];
  return {
    ...rest,
    ...(form ? { form, consumes: ['multipart/form-data'] } : {}),
    ...(o.public ? { security: [] } : {}),
    response: { ...response, ...errorResponses(ids) },
  };
}

/** `{result, meta}` around a result schema. */
export function envelope(result: TSchema, description: string): TSchema {
  return Type.Object({ result, meta: ref(MetaSchema) }, { description });
}

/** The spec's "200, no content": `{result: null, meta}`. */
export const NO_CONTENT = envelope(Type.Null(), 'Done; `result` is null');

/** Path parameters, all strings. */
export function pathParams(params: Record<string, string>): TObject {
  return Type.Object(Object.fromEntries(Object.entries(params).map(([name, description]) => [name, Type.String({ description })])));
}

/** A multipart form: its text fields and the `file` part (`required` names the required ones). */
export function form(fields: Record<string, TSchema>, required: string[], fileDescription: string): TSchema {
  return Type.Unsafe({
    type: 'object',
    required,
    properties: { ...fields, file: { type: 'string', contentMediaType: 'application/octet-stream', description: fileDescription } },
  });
}

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

/**
 * The endpoints of one tag (a group of the OpenAPI document), each from one declaration: how it
 * is served, and the parts of its schema as `route()` takes them.
 */
export function endpoints(tag: string, list: (Omit<ApiRoute, 'schema'> & Omit<Parameters<typeof route>[0], 'tags'>)[]): ApiRoute[] {
  return list.map(({ method, url, handle, demoOnly, reply, ...schema }) => ({ method, url, handle, demoOnly, reply, schema: route({ ...schema, tags: [tag] }) }));
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
