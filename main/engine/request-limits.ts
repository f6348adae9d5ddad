/**
 * Per-Partner request limits, shared by every `serve` node on one database. A node asks the
 * database for a few requests at a time (a grant) and counts them out itself, so the database
 * sees one write per grant rather than one per request, and the nodes together never hand out
 * more than the limit: a grant is taken from what is left of the window, in one transaction.
 */
import { ServiceError } from '../../common/errors.js';
import { inWriteLock, type Db } from './database.js';
import { cached } from './list-query.js';

/** A Partner's limits; null where there is none. */
export interface RequestLimits {
  perSecond: number | null;
  /** Per UTC day. */
  perDay: number | null;
}

export const NO_LIMITS: RequestLimits = { perSecond: null, perDay: null };

export const SECOND_MS = 1000;
export const DAY_MS = 86_400_000;

/** The start of the window of `lengthMs` that holds `now`. */
export function windowStart(now: number, lengthMs: number): number {
  return Math.floor(now / lengthMs) * lengthMs;
}

/** A Partner's limits (none for a Partner this database does not know). */
export function readRequestLimits(db: Db, partnerId: string): RequestLimits {
  const row = cached(db, 'SELECT requests_per_second, requests_per_day FROM partners WHERE id = ?').get(partnerId) as
    | { requests_per_second: number | null; requests_per_day: number | null }
    | undefined;
  return row ? { perSecond: row.requests_per_second, perDay: row.requests_per_day } : NO_LIMITS;
}

function checkLimit(value: number | null, what: string): void {
  if (value !== null && (!Number.isSafeInteger(value) || value < 1)) {
    throw new ServiceError('invalid_value', `The requests per ${what} must be a whole number of at least 1, or none`);
  }
}

/** Sets a Partner's limits (each a positive whole number, or null for none). */
export function writeRequestLimits(db: Db, partnerId: string, limits: RequestLimits): void {
  checkLimit(limits.perSecond, 'second');
  checkLimit(limits.perDay, 'day');
  const changed = cached(db, 'UPDATE partners SET requests_per_second = ?, requests_per_day = ? WHERE id = ?').run(limits.perSecond, limits.perDay, partnerId).changes;
  if (changed === 0) throw new ServiceError('invalid_value', `No partner with id ${JSON.stringify(partnerId)}`);
}

/** What a claim got, and what is left of each limited window after it (for every node). */
export interface Grant {
  count: number;
  secondLeft: number | null;
  dayLeft: number | null;
}

/**
 * Takes up to `want` requests from the Partner's windows that hold `now` (both, when both
 * are limited). `unused` gives back requests of an earlier grant of the same day that were
 * never made (a per-second grant ends with its second; its unused requests still count as
 * unused for the day).
 */
export function claimRequests(db: Db, partnerId: string, limits: RequestLimits, now: number, want: number, unused?: { dayStart: number; count: number }): Grant {
  const secondStart = windowStart(now, SECOND_MS);
  const dayStart = windowStart(now, DAY_MS);
  const read = cached(db, 'SELECT starts, granted FROM request_windows WHERE partner_id = ? AND kind = ?');
  const write = cached(
    db,
    'INSERT INTO request_windows (partner_id, kind, starts, granted) VALUES (?, ?, ?, ?) ON CONFLICT (partner_id, kind) DO UPDATE SET starts = excluded.starts, granted = excluded.granted',
  );
  const grantedIn = (kind: 'second' | 'day', starts: number) => {
    const row = read.get(partnerId, kind) as { starts: number; granted: number } | undefined;
    return row?.starts === starts ? row.granted : 0;
  };
  // BEGIN IMMEDIATE: two nodes reading the same count before either writes would both grant.
  return inWriteLock(db, () => {
    let count = want;
    let secondUsed = 0;
    let dayUsed = 0;
    if (limits.perSecond !== null) {
      secondUsed = grantedIn('second', secondStart);
      count = Math.min(count, limits.perSecond - secondUsed);
    }
    if (limits.perDay !== null) {
      dayUsed = grantedIn('day', dayStart);
      if (unused?.dayStart === dayStart) dayUsed = Math.max(0, dayUsed - unused.count);
      count = Math.min(count, limits.perDay - dayUsed);
    }
    count = Math.max(0, count);
    if (limits.perSecond !== null) write.run(partnerId, 'second', secondStart, secondUsed + count);
    if (limits.perDay !== null) write.run(partnerId, 'day', dayStart, dayUsed + count);
    return {
      count,
      secondLeft: limits.perSecond === null ? null : limits.perSecond - secondUsed - count,
      dayLeft: limits.perDay === null ? null : limits.perDay - dayUsed - count,
    };
  });
}
