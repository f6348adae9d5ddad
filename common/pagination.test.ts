import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from './errors.js';
import { LIMITS } from './limits.js';
import { makePage, pageWindow, parsePageQuery, type PageRequest } from './pagination.js';

const SORT = ['title', 'upload_date'] as const;

function parse(query: Parameters<typeof parsePageQuery>[0]): PageRequest {
  return parsePageQuery(query, SORT, 'created_date');
}

function failure(query: Parameters<typeof parsePageQuery>[0]): unknown {
  try {
    parse(query);
  } catch (error) {
    const e = error as { id: string; status: number };
    return { id: e.id, status: e.status };
  }
  return 'no error';
}

const WRONG = { id: 'wrong_pagination_argument', status: ERROR_STATUS.wrong_pagination_argument };

describe('parsePageQuery', () => {
  it('defaults: page 1, 20 a page, the endpoint\'s default sort, ascending', () => {
    const expected = { page: 1, perPage: LIMITS.defaultPerPage, sortBy: 'created_date', order: 'asc' };
    expect(parse(undefined)).toEqual(expected);
    expect(parse({})).toEqual(expected);
    expect(parse({ page: '', per_page: '', sort_by: '', order: '' })).toEqual(expected);
    expect(LIMITS.defaultPerPage).toBe(20);
  });

  it('accepts numbers and digit strings, per_page 0, the allowed sorts and the default sort by name', () => {
    expect(parse({ page: '3', per_page: '10', sort_by: 'title', order: 'desc' })).toEqual({ page: 3, perPage: 10, sortBy: 'title', order: 'desc' });
    expect(parse({ page: 2, per_page: 0 })).toMatchObject({ page: 2, perPage: 0 });
    expect(parse({ per_page: '0' })).toMatchObject({ perPage: 0 });
    expect(parse({ per_page: '007' })).toMatchObject({ perPage: 7 });
    expect(parse({ sort_by: 'upload_date' })).toMatchObject({ sortBy: 'upload_date' });
    expect(parse({ sort_by: 'created_date' })).toMatchObject({ sortBy: 'created_date' });
    expect(parse({ page: '999999999999999' })).toMatchObject({ page: 999_999_999_999_999 });
  });

  it.each([
    { per_page: '1.5' },
    { per_page: '-1' },
    { per_page: 'abc' },
    { per_page: -1 },
    { per_page: 1.5 },
    { per_page: Number.NaN },
    { per_page: Number.POSITIVE_INFINITY },
    { per_page: ' 5' },
    { per_page: '5 ' },
    { per_page: '1e3' },
    { per_page: '0x10' },
    { per_page: '9999999999999999' },
    { page: '0' },
    { page: 0 },
    { page: '-1' },
    { page: '1.5' },
    { page: 'abc' },
    { page: 2.5 },
    { order: 'up' },
    { order: 'ASC' },
    { order: 'descending' },
    { sort_by: 'nope' },
    { sort_by: 'Title' },
    { sort_by: 42 as unknown as string },
  ])('%j is wrong_pagination_argument (422)', (query) => {
    expect(failure(query)).toEqual(WRONG);
  });
});

describe('makePage', () => {
  const req = (page: number, perPage: number): PageRequest => ({ page, perPage, sortBy: 'x', order: 'asc' });

  it('counts pages; no items means 0 pages', () => {
    expect(makePage(req(1, 20), 0, [])).toEqual({ page: 1, total_pages: 0, per_page: 20, total_items: 0, items: [] });
    expect(makePage(req(1, 0), 0, [])).toMatchObject({ total_pages: 0 });
    expect(makePage(req(1, 20), 1, ['a'])).toMatchObject({ total_pages: 1 });
    expect(makePage(req(1, 20), 20, [])).toMatchObject({ total_pages: 1 });
    expect(makePage(req(1, 20), 21, [])).toMatchObject({ total_pages: 2 });
    expect(makePage(req(1, 10), 45, [])).toMatchObject({ total_pages: 5 });
    expect(makePage(req(1, 0), 45, [])).toMatchObject({ total_pages: 1, per_page: 0 });
  });

  it('a page past the end keeps its number and the real totals', () => {
    expect(makePage(req(7, 10), 45, [])).toEqual({ page: 7, total_pages: 5, per_page: 10, total_items: 45, items: [] });
  });
});

describe('pageWindow', () => {
  const req = (page: number, perPage: number): PageRequest => ({ page, perPage, sortBy: 'x', order: 'asc' });

  it('gives LIMIT/OFFSET for a page; per_page 0 is everything on page 1 and nothing after', () => {
    expect(pageWindow(req(1, 20))).toEqual({ limit: 20, offset: 0 });
    expect(pageWindow(req(3, 10))).toEqual({ limit: 10, offset: 20 });
    expect(pageWindow(req(1, 0))).toEqual({ limit: Number.MAX_SAFE_INTEGER, offset: 0 });
    expect(pageWindow(req(2, 0)).limit).toBe(Number.MAX_SAFE_INTEGER);
    expect(pageWindow(req(2, 0)).offset).toBeGreaterThan(1e15);
  });

  it('the offset stays a whole number an SQL engine can take, even for the largest page and per_page accepted', () => {
    const largest = parse({ page: '999999999999999', per_page: '999999999999999' });
    const { limit, offset } = pageWindow(largest);
    expect(Number.isSafeInteger(limit)).toBe(true);
    expect(Number.isSafeInteger(offset)).toBe(true);
    expect(offset).toBeGreaterThan(1e15);
  });
});
