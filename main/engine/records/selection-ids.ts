/**
 * The credential row ids a selection of the records table names: uids, a filter (with excepted
 * uids), or ranges of positions in a filter and sort checked against the uids at their ends.
 */
import { ServiceError } from '../../../common/errors.js';
import type { RangeSelection, RecordFilter } from '../../../common/records.js';
import { cached } from '../list-query.js';
import type { PartnerScope } from '../scope.js';
import { jsonIdList, jsonTexts, unindexed } from '../store/dialect.js';
import { recordConditions, recordQuery } from './record-filter.js';
import { windowIds } from './records-window.js';

/** Why a range selection is refused when the list moved under it (here and over a remote service). */
export const STALE_RANGES =
  'The list changed after these rows were selected (records were added, removed or changed), so the selection no longer names the same records. Select the rows again.';

/** Row ids of the Partner's credentials for uids, in the given order; any unknown uid fails the whole call. */
export function idsOfUids(scope: PartnerScope, uids: readonly string[]): number[] {
  // The unary `+` keeps SQLite on the uid index: by the Partner's index it reads all their credentials.
  const { db } = scope;
  const rows = cached(db, `SELECT c.id, c.uid FROM credentials c WHERE c.uid IN (SELECT u.value FROM ${jsonTexts(db, '?', 'u')}) AND ${unindexed(db, 'c.partner_id')} = ?`).all(
    JSON.stringify(uids.map((u) => u.toLowerCase())),
    scope.partner.id,
  ) as { id: number; uid: string }[];
  const byUid = new Map(rows.map((r) => [r.uid, r.id]));
  const ids: number[] = [];
  const seen = new Set<number>();
  for (const uid of uids) {
    const id = byUid.get(uid.toLowerCase());
    if (id === undefined) throw new ServiceError('missing_credential', `No credential ${JSON.stringify(uid)}; it may have been deleted. Refresh the list and select again.`);
    if (!seen.has(id)) ids.push(id);
    seen.add(id);
  }
  return ids;
}

/**
 * How many credentials a filter matches less the excepted uids: the filter is counted like a
 * window's total; excepted uids count off only where they match it.
 */
export function countFilter(scope: PartnerScope, filter: RecordFilter, except?: readonly string[]): number {
  const { total } = windowIds(scope.db, recordQuery(scope, filter), { by: 'upload_date', order: 'asc' }, 0, 1);
  if (!except || except.length === 0) return total;
  const clause = recordConditions(scope, filter).add(`c.uid IN (SELECT u.value FROM ${jsonTexts(scope.db, '?', 'u')})`, JSON.stringify(except)).where('c.id');
  const excepted = cached(scope.db, `SELECT count(*) FROM credentials c ${clause.sql}`).pluck().get(...clause.params) as number;
  return total - excepted;
}

/**
 * Every row id a filter matches, in creation order, in one query straight from the index that
 * answers it (the tag index for tags alone, the search index for a search alone).
 */
export function idsOfFilter(scope: PartnerScope, filter: RecordFilter): number[] {
  const { where, soleSearch } = recordQuery(scope, filter);
  const driver = where.soleDriver();
  if (soleSearch !== undefined) {
    return cached(scope.db, 'SELECT rowid FROM credentials_fts WHERE credentials_fts MATCH ? ORDER BY rowid').pluck().all(soleSearch) as number[];
  }
  if (driver) return cached(scope.db, `${driver.sql} ORDER BY 1`).pluck().all(...driver.params) as number[];
  const clause = where.where('c.id');
  return cached(scope.db, `SELECT c.id FROM credentials c ${clause.sql} ORDER BY c.id`).pluck().all(...clause.params) as number[];
}

/**
 * The row ids at the positions of a range selection, in list order: one read of the ids from
 * the first range's start to the last range's end in the renderer's filter and sort (however
 * many ranges), then the uids at every range's two ends are checked against what the renderer
 * saw. A record added, deleted or retagged meanwhile shifts the positions: that fails the whole
 * call rather than touching rows the admin did not select.
 */
export function idsOfRanges(scope: PartnerScope, selection: RangeSelection): number[] {
  const { ranges } = selection;
  if (ranges.length === 0) return [];
  const start = ranges[0]!.from;
  const end = ranges[ranges.length - 1]!.to;
  const { ids: span } = windowIds(scope.db, recordQuery(scope, selection.filter), selection.sort, start, end - start + 1);
  const ends = new Map<number, string>();
  for (const r of ranges) {
    if (r.from - start < span.length) ends.set(span[r.from - start]!, r.fromUid);
    if (r.to - start < span.length) ends.set(span[r.to - start]!, r.toUid);
  }
  const found = uidsOf(scope, [...ends.keys()]);
  const stale = span.length < end - start + 1 || found.length !== ends.size || [...ends.values()].some((uid, i) => found[i] !== uid);
  if (stale) {
    throw new ServiceError('invalid_value', STALE_RANGES);
  }
  const out: number[] = [];
  for (const r of ranges) for (let i = r.from; i <= r.to; i++) out.push(span[i - start]!);
  return out;
}

/** Ids of the uids that exist (excepted uids may have been deleted meanwhile: that is fine). */
export function idsOfExisting(scope: PartnerScope, uids: readonly string[]): number[] {
  return cached(scope.db, `SELECT id FROM credentials WHERE uid IN (SELECT u.value FROM ${jsonTexts(scope.db, '?', 'u')}) AND ${unindexed(scope.db, 'partner_id')} = ?`)
    .pluck()
    .all(JSON.stringify(uids.map((u) => u.toLowerCase())), scope.partner.id) as number[];
}

/** The uids of row ids, in their order. */
export function uidsOf(scope: PartnerScope, ids: readonly number[]): string[] {
  const rows = cached(scope.db, `SELECT id, uid FROM credentials WHERE id IN (${jsonIdList(scope.db)})`).all(JSON.stringify(ids)) as { id: number; uid: string }[];
  const byId = new Map(rows.map((r) => [r.id, r.uid]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}
