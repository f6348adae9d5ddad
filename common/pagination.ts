/**
 * The spec's pagination: sort_by, order, per_page (0 = everything in one page), page.
 * Any invalid argument is `wrong_pagination_argument` (422).
 */
import { ServiceError } from './errors.js';
import { LIMITS } from './limits.js';
import type { Page, } from './wire-types.js';
import type { PageQuery } from './requests.js';

export interface PageRequest {
  page: number;
  /** 0 means all results in one page. */
  perPage: number;
  sortBy: string;
  order: 'asc' | 'desc';
}

function parseCount(value: number | string | undefined, name: string, min: number, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = typeof value === 'number' ? value : /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new ServiceError('wrong_pagination_argument', `${name} must be a whole number of at least ${min}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * Validates the pagination arguments of one endpoint.
 *
 * @param allowedSort the sort_by values the endpoint accepts
 * @param defaultSort what sort_by means when absent
 */
export function parsePageQuery(query: PageQuery | undefined, allowedSort: readonly string[], defaultSort: string): PageRequest {
  const q = query ?? {};
  const sortBy = q.sort_by === undefined || q.sort_by === '' ? defaultSort : q.sort_by;
  if (typeof sortBy !== 'string' || !(allowedSort.includes(sortBy) || sortBy === defaultSort)) {
    throw new ServiceError('wrong_pagination_argument', `sort_by must be one of ${[...new Set([...allowedSort, defaultSort])].join(', ')}`);
  }
  const order = q.order === undefined || q.order === '' ? 'asc' : q.order;
  if (order !== 'asc' && order !== 'desc') throw new ServiceError('wrong_pagination_argument', 'order must be asc or desc');
  return {
    sortBy,
    order,
    perPage: parseCount(q.per_page, 'per_page', 0, LIMITS.defaultPerPage),
    page: parseCount(q.page, 'page', 1, 1),
  };
}

/**
 * Builds the paginated object. A page past the end is answered with no items and the real
 * totals (not an error), so a client can tell "no more" from "bad request".
 */
export function makePage<T>(request: PageRequest, totalItems: number, items: T[]): Page<T> {
  const totalPages = totalItems === 0 ? 0 : request.perPage === 0 ? 1 : Math.ceil(totalItems / request.perPage);
  return { page: request.page, total_pages: totalPages, per_page: request.perPage, total_items: totalItems, items };
}

/**
 * LIMIT / OFFSET for SQL-like stores; per_page 0 yields no limit: the largest safe integer, which
 * SQLite and PostgreSQL both take (SQLite's -1 is an error on PostgreSQL, its NULL one on SQLite).
 */
export function pageWindow(request: PageRequest): { limit: number; offset: number } {
  if (request.perPage === 0) return { limit: Number.MAX_SAFE_INTEGER, offset: request.page === 1 ? 0 : Number.MAX_SAFE_INTEGER };
  // Past 2^53 no store has rows anyway; clamping keeps the offset a whole number SQL accepts.
  return { limit: request.perPage, offset: Math.min((request.page - 1) * request.perPage, Number.MAX_SAFE_INTEGER) };
}
