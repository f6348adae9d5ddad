import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorId } from './errors.js';
import { LIMITS } from './limits.js';
import {
  formatDate,
  isPlainObject,
  isSha256Hex,
  isUuid,
  parseBooleanFlag,
  parseDateFilter,
  parseIsoDate,
  parseTagFilter,
  rejectUnknownFields,
  requireField,
  validateTag,
  validateTags,
} from './validate.js';

function errorId(fn: () => unknown): { id: ErrorId; status: number } | 'no error' {
  try {
    fn();
  } catch (error) {
    const e = error as { id: ErrorId; status: number };
    return { id: e.id, status: e.status };
  }
  return 'no error';
}

const as = (id: ErrorId): { id: ErrorId; status: number } => ({ id, status: ERROR_STATUS[id] });

describe('tags', () => {
  it.each(['abc', 'A-9', 'a_b', 'class-2026', 'x'.repeat(LIMITS.tagMaxLength), '---', '123'])('accepts %j', (tag) => {
    expect(validateTag(tag)).toBe(tag);
  });

  it.each([
    ['too short', 'ab'],
    ['empty', ''],
    ['too long', 'x'.repeat(LIMITS.tagMaxLength + 1)],
    ['a space', 'has space'],
    ['a dot', 'v1.0'],
    ['a slash', 'a/b'],
    ['a comma', 'a,bc'],
    ['a non-ASCII letter', 'zoë'],
    ['a trailing newline', 'abc\n'],
  ])('rejects a tag with %s as invalid_tag', (_what, tag) => {
    expect(errorId(() => validateTag(tag))).toEqual(as('invalid_tag'));
  });

  it('rejects non-strings as invalid_tag', () => {
    for (const tag of [123, null, undefined, ['abc'], { tag: 'abc' }]) expect(errorId(() => validateTag(tag))).toEqual(as('invalid_tag'));
  });

  it('a list: not an array or over 50 entries is invalid_tag; a repeat is duplicated_tags; 0 to 50 are fine', () => {
    const many = (n: number): string[] => Array.from({ length: n }, (_, i) => `tag-${i}`);
    expect(validateTags([])).toEqual([]);
    expect(validateTags(many(LIMITS.maxTagsPerObject))).toHaveLength(LIMITS.maxTagsPerObject);
    expect(errorId(() => validateTags(many(LIMITS.maxTagsPerObject + 1)))).toEqual(as('invalid_tag'));
    expect(errorId(() => validateTags('abc'))).toEqual(as('invalid_tag'));
    expect(errorId(() => validateTags(null))).toEqual(as('invalid_tag'));
    expect(errorId(() => validateTags(['abc', 'def', 'abc']))).toEqual(as('duplicated_tags'));
    expect(errorId(() => validateTags(['abc', 'no']))).toEqual(as('invalid_tag'));
    // Tags differing in case are different tags.
    expect(validateTags(['abc', 'ABC'])).toEqual(['abc', 'ABC']);
  });

  it('a tag filter is a comma list or an array, trimmed, without empties or repeats', () => {
    expect(parseTagFilter(undefined, 'and_tags')).toEqual([]);
    expect(parseTagFilter('', 'and_tags')).toEqual([]);
    expect(parseTagFilter('alpha,beta', 'and_tags')).toEqual(['alpha', 'beta']);
    expect(parseTagFilter(' alpha , beta ,,alpha', 'and_tags')).toEqual(['alpha', 'beta']);
    expect(parseTagFilter(['alpha', ' beta', ''], 'or_tags')).toEqual(['alpha', 'beta']);
    expect(errorId(() => parseTagFilter([1, 2] as unknown as string[], 'or_tags'))).toEqual(as('invalid_value'));
    expect(errorId(() => parseTagFilter(42 as unknown as string, 'or_tags'))).toEqual(as('invalid_value'));
  });
});

describe('dates', () => {
  it('a date alone means 00:00 UTC; a date-time without offset is UTC; offsets are honoured', () => {
    expect(parseIsoDate('2026-03-01', 'd')).toBe(Date.UTC(2026, 2, 1));
    expect(parseIsoDate('2026-03-01T10:20', 'd')).toBe(Date.UTC(2026, 2, 1, 10, 20));
    expect(parseIsoDate('2026-03-01T10:20:30', 'd')).toBe(Date.UTC(2026, 2, 1, 10, 20, 30));
    expect(parseIsoDate('2026-03-01T10:20:30.123Z', 'd')).toBe(Date.UTC(2026, 2, 1, 10, 20, 30, 123));
    expect(parseIsoDate('2026-03-01T10:20:30+02:00', 'd')).toBe(Date.UTC(2026, 2, 1, 8, 20, 30));
    expect(parseIsoDate('2026-03-01T00:30:00-05:30', 'd')).toBe(Date.UTC(2026, 2, 1, 6, 0, 0));
    expect(parseIsoDate('2024-02-29', 'd')).toBe(Date.UTC(2024, 1, 29));
    expect(parseIsoDate('2024-12-31T23:59:59.999Z', 'd')).toBe(Date.UTC(2024, 11, 31, 23, 59, 59, 999));
  });

  it.each([
    '2026-02-31',
    '2026-02-29',
    '2026-02-31T10:00:00Z',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-32',
    '2026-1-1',
    '20260101',
    '01/02/2026',
    'yesterday',
    '',
    '2026-01-01T25:00:00Z',
    '2026-01-01T10:61:00Z',
    '2026-01-01 10:00:00',
    '2026-01-01T10:00:00+0200',
    '2026-01-01T10:00:00 Z',
  ])('%j is not a date: invalid_value, or the id asked for', (text) => {
    expect(errorId(() => parseIsoDate(text, 'd'))).toEqual(as('invalid_value'));
    expect(errorId(() => parseIsoDate(text, 'expiry_date', 'invalid_expiry_date'))).toEqual(as('invalid_expiry_date'));
  });

  it('non-strings are not dates', () => {
    for (const value of [Date.UTC(2026, 0, 1), null, undefined, new Date(), {}]) expect(errorId(() => parseIsoDate(value, 'd'))).toEqual(as('invalid_value'));
  });

  it('an absent or empty filter is no filter; a bad one is invalid_value', () => {
    expect(parseDateFilter(undefined, 'from')).toBeUndefined();
    expect(parseDateFilter('', 'from')).toBeUndefined();
    expect(parseDateFilter('2026-01-02', 'from')).toBe(Date.UTC(2026, 0, 2));
    expect(errorId(() => parseDateFilter('2026-02-31', 'from'))).toEqual(as('invalid_value'));
  });

  it('formats as ISO 8601 UTC with Z, and null as null; formatted dates parse back', () => {
    expect(formatDate(Date.UTC(2026, 0, 2, 3, 4, 5, 6))).toBe('2026-01-02T03:04:05.006Z');
    expect(formatDate(null)).toBeNull();
    const ms = Date.UTC(2031, 6, 15, 12, 0, 0, 1);
    expect(parseIsoDate(formatDate(ms), 'd')).toBe(ms);
  });
});

describe('booleans', () => {
  it('true / "true" and false / "false"; absent, null and "" are false', () => {
    expect(parseBooleanFlag(true, 'f')).toBe(true);
    expect(parseBooleanFlag('true', 'f')).toBe(true);
    expect(parseBooleanFlag(false, 'f')).toBe(false);
    expect(parseBooleanFlag('false', 'f')).toBe(false);
    expect(parseBooleanFlag(undefined, 'f')).toBe(false);
    expect(parseBooleanFlag(null, 'f')).toBe(false);
    expect(parseBooleanFlag('', 'f')).toBe(false);
  });

  it.each(['yes', 'no', '1', '0', 1, 0, 'TRUE', 'True', ' true', {}, []])('%j is invalid_value', (value) => {
    expect(errorId(() => parseBooleanFlag(value, 'f'))).toEqual(as('invalid_value'));
  });
});

describe('shapes and fields', () => {
  it('plain objects are objects that are neither null nor arrays', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject({ a: 1 })).toBe(true);
    for (const v of [null, [], 'x', 1, undefined, true]) expect(isPlainObject(v)).toBe(false);
  });

  it('UUIDs and SHA-256 hex', () => {
    expect(isUuid('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(true);
    expect(isUuid('0f8fad5b-d9cb-469f-a165-70867728950')).toBe(false);
    expect(isUuid('0f8fad5bd9cb469fa16570867728950e')).toBe(false);
    expect(isUuid(42)).toBe(false);
    expect(isSha256Hex('a'.repeat(64))).toBe(true);
    expect(isSha256Hex('A'.repeat(64))).toBe(false);
    expect(isSha256Hex('a'.repeat(63))).toBe(false);
    expect(isSha256Hex('g'.repeat(64))).toBe(false);
  });

  it('unknown fields are invalid_value (or the id asked for); absent required fields are missing_field', () => {
    expect(() => rejectUnknownFields({ a: 1, b: 2 }, ['a', 'b'], 'x')).not.toThrow();
    expect(errorId(() => rejectUnknownFields({ a: 1, c: 2 }, ['a', 'b'], 'x'))).toEqual(as('invalid_value'));
    expect(errorId(() => rejectUnknownFields({ c: 2 }, ['a'], 'x', 'no_json'))).toEqual(as('no_json'));
    expect(requireField({ a: 0 }, 'a', 'x')).toBe(0);
    expect(requireField({ a: null }, 'a', 'x')).toBeNull();
    expect(errorId(() => requireField({}, 'a', 'x'))).toEqual(as('missing_field'));
    expect(errorId(() => requireField({ a: undefined }, 'a', 'x'))).toEqual(as('missing_field'));
    // An inherited property is not a field of the body.
    expect(errorId(() => requireField(Object.create({ a: 1 }) as Record<string, unknown>, 'a', 'x'))).toEqual(as('missing_field'));
  });
});
