/**
 * The small shapes every wire schema is built from (TypeBox, JSON Schema draft 2020-12 as
 * OpenAPI 3.1 uses it): uids, hashes, dates, tags, pagination.
 */
import { Type, type SchemaOptions, type TLiteral, type TSchema, type TString, type TUnion } from '@sinclair/typebox';
import { LIMITS } from '../limits.js';
import { DATE_OR_DATE_TIME_PATTERN, TAG_PATTERN } from './patterns.js';

/** A reference to a shared schema of the OpenAPI document, typed as that schema. */
export function ref<T extends TSchema>(schema: T & { $id?: string }): T {
  if (schema.$id === undefined) throw new TypeError('ref() needs a schema with an $id');
  return Type.Unsafe({ $ref: `#/components/schemas/${schema.$id}` }) as unknown as T;
}

/** One of a fixed list of texts (a union of literals, so that TypeBox's compiler checks it too). */
export function OneOf<T extends string>(values: readonly T[], options: SchemaOptions = {}): TUnion<TLiteral<T>[]> {
  return Type.Union(values.map((value) => Type.Literal(value)), options);
}

export const Uuid = (description?: string): TString => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export { SHA256_PATTERN } from './patterns.js';

export const DateTime = (description: string): TString => Type.String({ format: 'date-time', description });

/** A date-time or null (TypeBox cannot say `type: [string, null]` with a format, so it is declared as JSON Schema). */
export const NullableDateTime = (description: string) => Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time', description });

/**
 * A date or a date-time, as the server takes them (common/validate.ts parseIsoDate): a date, an
 * RFC 3339 date-time, or a date-time without seconds or without an offset (UTC). The formats
 * check the calendar of the first two; the pattern keeps out the looser forms ajv-formats'
 * `date-time` allows and the server refuses (a space for the T, an offset without minutes).
 * The calendar of the short forms (`2026-02-31T10:00`) cannot be said in JSON Schema: the
 * engine checks it (`invalid_value`, or `invalid_expiry_date` for an expiry date).
 */
export const DateOrDateTime = (options: SchemaOptions = {}) =>
  Type.Unsafe<string>({
    type: 'string',
    anyOf: [{ format: 'date' }, { format: 'date-time' }, { pattern: '[Tt]\\d{2}:\\d{2}(([Zz]|[+-]\\d{2}:\\d{2})?|:\\d{2}(\\.\\d{1,9})?)$' }],
    pattern: DATE_OR_DATE_TIME_PATTERN,
    ...options,
  });

/** A date filter (ISO 8601 date or date-time; a date alone is 00:00 UTC; bounds inclusive). */
export const DateFilter = (description: string) =>
  DateOrDateTime({ description: `${description}. A date (00:00 UTC) or a date-time (without an offset: UTC); inclusive`, examples: ['2026-01-31', '2026-01-31T12:00:00Z'] });

/** One tag under the spec's rules: 3 to 64 of A-Z a-z 0-9 _ -. */
export const Tag = Type.String({ pattern: TAG_PATTERN });

/** A tag list: no duplicates, at most 50. */
export const TagList = Type.Array(Tag, { maxItems: LIMITS.maxTagsPerObject, uniqueItems: true });

/** A comma-separated tag filter. */
export const TagFilter = (description: string) => Type.String({ description: `${description}. Comma-separated list of tags`, examples: ['cohort-2026,honours'] });

export const TAG_FILTERS = {
  and_tags: Type.Optional(TagFilter('Objects that carry all of these tags')),
  or_tags: Type.Optional(TagFilter('Objects that carry at least one of these tags')),
};

/** The names of the pagination parameters: a bad one is `wrong_pagination_argument`. */
export const PAGINATION_PARAMETERS: readonly string[] = ['sort_by', 'order', 'per_page', 'page'];

/** The pagination parameters of a bulk retrieval with its sort_by values. */
export function pagination(sortBy: readonly string[], defaultSort: string) {
  return {
    sort_by: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...new Set([...sortBy, defaultSort])], default: defaultSort, description: 'Field to sort by' })),
    order: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['asc', 'desc'], default: 'asc' })),
    per_page: Type.Optional(Type.Integer({ minimum: 0, default: 20, description: 'Results per page; 0 returns every result in one page' })),
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  };
}
