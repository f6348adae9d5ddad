/**
 * Input validation shared by every entry point (engine, REST, IPC, CLI), env-free.
 * Each check throws a ServiceError carrying the spec's id, so bad input fails the same
 * way however it arrives, before anything is changed.
 */
import { ServiceError, type ErrorId } from './errors.js';
import { LIMITS } from './limits.js';
import type { TagList } from './requests.js';
import { DATE_OR_DATE_TIME_PATTERN, SHA256_PATTERN, TAG_PATTERN, UUID_PATTERN } from './schemas/patterns.js';

const TAG = new RegExp(TAG_PATTERN);
const UUID = new RegExp(UUID_PATTERN);
const SHA256 = new RegExp(SHA256_PATTERN);
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_OR_DATE_TIME = new RegExp(DATE_OR_DATE_TIME_PATTERN);

/** A plain JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && SHA256.test(value);
}

/** Throws `invalid_value` (or the given id) unless the object has only the allowed keys. */
export function rejectUnknownFields(body: Record<string, unknown>, allowed: readonly string[], where: string, id: ErrorId = 'invalid_value'): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw new ServiceError(id, `Unknown field "${key}" in ${where}`);
  }
}

/** Throws `missing_field` when a required field is absent. */
export function requireField(body: Record<string, unknown>, field: string, where: string): unknown {
  if (!Object.hasOwn(body, field) || body[field] === undefined) {
    throw new ServiceError('missing_field', `Missing required field "${field}" in ${where}`);
  }
  return body[field];
}

/**
 * Checks a list of tags against the spec's rules (3+ characters; letters, digits, `_`, `-`;
 * no duplicates) and returns it.
 */
export function validateTags(value: unknown, where = 'tags'): string[] {
  if (!Array.isArray(value)) throw new ServiceError('invalid_tag', `${where} must be an array of strings`);
  if (value.length > LIMITS.maxTagsPerObject) {
    throw new ServiceError('invalid_tag', `${where} has ${value.length} tags; at most ${LIMITS.maxTagsPerObject} are allowed`);
  }
  const seen = new Set<string>();
  for (const tag of value) {
    validateTag(tag, where);
    if (seen.has(tag as string)) throw new ServiceError('duplicated_tags', `Tag "${tag as string}" appears more than once in ${where}`);
    seen.add(tag as string);
  }
  return value as string[];
}

/** Checks one tag against the spec's format rules. */
export function validateTag(tag: unknown, where = 'tags'): string {
  if (typeof tag !== 'string') throw new ServiceError('invalid_tag', `Every tag in ${where} must be a string`);
  if (!TAG.test(tag)) {
    throw new ServiceError(
      'invalid_tag',
      `Invalid tag "${tag}" in ${where}: ${LIMITS.tagMinLength} to ${LIMITS.tagMaxLength} characters, only letters, digits, "_" and "-"`,
    );
  }
  return tag;
}

/** Parses a tag filter (comma-separated text or array); empty entries are dropped. */
export function parseTagFilter(value: TagList | undefined, name: string): string[] {
  if (value === undefined) return [];
  const entries = Array.isArray(value) ? value : typeof value === 'string' ? [value] : null;
  if (entries === null || entries.some((p) => typeof p !== 'string')) {
    throw new ServiceError('invalid_value', `${name} must be a comma-separated list of tags`);
  }
  // An array entry with commas means several tags, as it does once joined on the wire.
  const parts = (entries as string[]).flatMap((entry) => entry.split(','));
  const tags = [...new Set(parts.map((p) => p.trim()).filter((p) => p.length > 0))];
  // No object carries more tags than this, so a longer filter could only be a mistake.
  if (tags.length > LIMITS.maxTagsPerObject) {
    throw new ServiceError('invalid_value', `${name} lists ${tags.length} tags; a filter takes at most ${LIMITS.maxTagsPerObject}`);
  }
  return tags;
}

/**
 * Parses an ISO 8601 date or date-time into epoch milliseconds. A date alone means 00:00 UTC,
 * a date-time without an offset means UTC (DESIGN.md). Throws `id` with the field's name.
 */
export function parseIsoDate(value: unknown, name: string, id: ErrorId = 'invalid_value'): number {
  if (typeof value !== 'string' || !DATE_OR_DATE_TIME.test(value)) {
    throw new ServiceError(id, `${name} must be an ISO 8601 date or date-time, got ${JSON.stringify(value)}`);
  }
  const hasOffset = /(Z|[+-]\d{2}:\d{2})$/i.test(value) && !DATE_ONLY.test(value);
  const text = DATE_ONLY.test(value) ? `${value}T00:00:00Z` : hasOffset ? value : `${value}Z`;
  const ms = Date.parse(text);
  // Date.parse rolls 2026-02-31 over to March: compare the calendar date to catch it.
  if (Number.isNaN(ms) || new Date(Date.parse(`${value.slice(0, 10)}T00:00:00Z`)).toISOString().slice(0, 10) !== value.slice(0, 10)) {
    throw new ServiceError(id, `${name} is not a real date: ${JSON.stringify(value)}`);
  }
  return ms;
}

/** Parses an optional date filter of a query. */
export function parseDateFilter(value: string | undefined, name: string): number | undefined {
  return value === undefined || value === '' ? undefined : parseIsoDate(value, name);
}

/** Formats epoch milliseconds as the wire's ISO 8601 date-time (UTC, `Z` offset). */
export function formatDate(ms: number): string;
export function formatDate(ms: number | null): string | null;
export function formatDate(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Parses the spec's boolean flags, which travel as `true` / `false` strings in forms. */
export function parseBooleanFlag(value: unknown, name: string): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new ServiceError('invalid_value', `${name} must be true or false`);
}
