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

/**
 * A date or an RFC 3339 date-time, as the server takes them (common/validate.ts parseIsoDate).
 * The formats say what a generated client sends; the pattern keeps the document from taking
 * the looser forms ajv-formats' `date-time` allows and the server refuses (a space for the T,
 * an offset without minutes). The server also takes a date-time without seconds or offset
 * (UTC): docs/api.md says so, and the document leaves it out rather than declare it loosely.
 */
export const DATE_OR_DATE_TIME: JsonSchema = {
  type: 'string',
  anyOf: [{ format: 'date' }, { format: 'date-time' }],
  pattern: '^\\d{4}-\\d{2}-\\d{2}([Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2}))?$',
};

/** A date filter (ISO 8601 date or date-time; a date alone is 00:00 UTC; bounds inclusive). */
export function dateFilter(description: string): JsonSchema {
  return {
    ...DATE_OR_DATE_TIME,
    description: `${description}. A date (00:00 UTC) or an RFC 3339 date-time; inclusive`,
    examples: ['2026-01-31', '2026-01-31T12:00:00Z'],
  };
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

/** A tag list under the spec's rules (3 to 64 of A-Z a-z 0-9 _ -, no duplicates), at most 50. */
export const TAG_LIST: JsonSchema = { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9_-]{3,64}$' }, maxItems: 50, uniqueItems: true };

/**
 * PATCH (add) and PUT (replace) of the tags of many credentials or jobs: one body shape
 * `{<list>: [{<uid field>, tags}]}`, all or nothing, and one id for an unknown uid each.
 */
export function tagWriteRoutes(o: {
  noun: 'credentials' | 'jobs';
  uidField: 'credential_uid' | 'job_uid';
  operationIds: [add: string, replace: string];
  tags: string[];
  missing: { add: ErrorId; replace: ErrorId };
  replaceNote?: string;
}): { add: RouteSchema; replace: RouteSchema } {
  const body: JsonSchema = {
    type: 'object',
    additionalProperties: false,
    required: [o.noun],
    properties: {
      [o.noun]: {
        type: 'array',
        minItems: 1,
        maxItems: 100000,
        items: { type: 'object', additionalProperties: false, required: [o.uidField, 'tags'], properties: { [o.uidField]: { type: 'string', format: 'uuid' }, tags: TAG_LIST } },
      },
    },
  };
  const errors = (missing: ErrorId): ErrorId[] => ['no_json', 'missing_field', 'invalid_value', 'invalid_tag', 'duplicated_tags', missing, 'payload_too_large'];
  return {
    add: {
      operationId: o.operationIds[0],
      summary: `Add tags to ${o.noun}`,
      description: 'Existing tags are kept. All or nothing: one bad entry changes nothing.',
      tags: o.tags,
      body,
      response: { 200: NO_CONTENT },
      errors: errors(o.missing.add),
    },
    replace: {
      operationId: o.operationIds[1],
      summary: `Replace the tags of ${o.noun}`,
      description: `Old tags are deleted. All or nothing.${o.replaceNote ? ` ${o.replaceNote}` : ''}`,
      tags: o.tags,
      body,
      response: { 200: NO_CONTENT },
      errors: errors(o.missing.replace),
    },
  };
}
