/**
 * Building blocks of the route schemas: the response envelope, the pagination and tag
 * query parameters, and the shape every route declares. The schemas document the wire (they
 * generate the OpenAPI document); input is checked by the engine, so every endpoint refuses
 * bad input with the spec's error ids whether it arrives over HTTP or in-process.
 */
import type { ErrorId } from '../../../common/errors.js';
import { ref, type JsonSchema } from './components.js';

/** What each route declares (fastify keeps it as the route's `schema`). */
export interface RouteSchema {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: JsonSchema;
  querystring?: JsonSchema;
  /** The JSON body, or the multipart form's fields (see `consumes`). */
  body?: JsonSchema;
  /** Media type of the body: JSON unless said otherwise. */
  consumes?: 'application/json' | 'multipart/form-data';
  /** The success response(s) by status; error responses come from the route's `errors`. */
  response: Record<number, JsonSchema>;
  /** Error ids the endpoint answers with (besides `unauthorized` and `internal_error`). */
  errors: ErrorId[];
  /** No bearer token needed. */
  public?: boolean;
}

/** `{result, meta}` around a result schema. */
export function envelope(result: JsonSchema, description: string): JsonSchema {
  return {
    description,
    type: 'object',
    required: ['result', 'meta'],
    properties: { result, meta: ref('Meta') },
  };
}

/** The spec's "200, no content": `{result: null, meta}`. */
export const NO_CONTENT = envelope({ type: 'null' }, 'Done; `result` is null');

/** Path parameters, all strings. */
export function pathParams(params: Record<string, string>): JsonSchema {
  return {
    type: 'object',
    required: Object.keys(params),
    properties: Object.fromEntries(Object.entries(params).map(([name, description]) => [name, { type: 'string', description }])),
  };
}

/** The pagination parameters of a bulk retrieval with its sort_by values. */
export function paginationParams(sortBy: readonly string[], defaultSort: string): Record<string, JsonSchema> {
  return {
    sort_by: { type: 'string', enum: [...new Set([...sortBy, defaultSort])], default: defaultSort, description: 'Field to sort by' },
    order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
    per_page: { type: 'integer', minimum: 0, default: 20, description: 'Results per page; 0 returns every result in one page' },
    page: { type: 'integer', minimum: 1, default: 1 },
  };
}

/** A comma-separated tag filter. */
export function tagFilter(description: string): JsonSchema {
  return { type: 'string', description: `${description}. Comma-separated list of tags`, examples: ['cohort-2026,honours'] };
}

export const TAG_FILTERS: Record<string, JsonSchema> = {
  and_tags: tagFilter('Objects that carry all of these tags'),
  or_tags: tagFilter('Objects that carry at least one of these tags'),
};

/** A date filter (ISO 8601 date or date-time; a date alone is 00:00 UTC; bounds inclusive). */
export function dateFilter(description: string): JsonSchema {
  return { type: 'string', description: `${description}. ISO 8601 date or date-time; a date alone means 00:00 UTC, no offset means UTC; inclusive`, examples: ['2026-01-31', '2026-01-31T12:00:00Z'] };
}

/** A query string object of the given parameters. */
export function query(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties };
}

/** A multipart form: its text fields and the `file` part (`required` names the required ones). */
export function form(fields: Record<string, JsonSchema>, required: string[], fileDescription: string): JsonSchema {
  return {
    type: 'object',
    required,
    properties: { ...fields, file: { type: 'string', contentMediaType: 'application/octet-stream', description: fileDescription } },
  };
}
