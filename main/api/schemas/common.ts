/**
 * How an endpoint declares its schemas: the TypeBox schemas of common/schemas for its params,
 * query, body and success response, plus the error ids it answers with, which become its error
 * responses (one per status, the ids named in the description). @fastify/swagger generates the
 * OpenAPI document from what the routes declare (main/api/openapi-document.ts).
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import { ERROR_STATUS, type ErrorId } from '../../../common/errors.js';
import { ref } from '../../../common/schemas/primitives.js';
import { ErrorSchema, MetaSchema } from '../../../common/schemas/resources.js';

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
