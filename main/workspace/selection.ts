import { ServiceError } from '../../common/errors.js';
import type { RangeSelection, Selection } from '../../common/records.js';
import type { TaskContext, TaskSignal } from '../../common/tasks.js';
import { cached } from '../engine/list-query.js';
import type { PartnerScope } from '../engine/scope.js';
import { recordConditions, recordQuery } from './record-filter.js';
import { windowIds } from './record-query.js';

/** Stops the work with an AbortError (the task runner's "cancelled") once the task was cancelled. */
export function throwIfCancelled(signal: TaskSignal | undefined): void {
  if (!signal?.aborted) return;
  const error = new Error('The task was cancelled; nothing was changed.');
  error.name = 'AbortError';
  throw error;
}

/** Lets other work run, then stops with an AbortError if the task was cancelled. */
export async function checkpoint(signal: TaskSignal | undefined): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  throwIfCancelled(signal);
}

/** Row ids of the Partner's credentials for uids, in the given order; any unknown uid fails the whole call. */
function idsOfUids(scope: PartnerScope, uids: readonly string[]): number[] {
  const rows = cached(scope.db, 'SELECT c.id, c.uid FROM credentials c WHERE c.uid IN (SELECT value FROM json_each(?)) AND +c.partner_id = ?').all(
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
 * How many credentials a selection holds, for the confirmation that names the count. A filter
 * is counted like a window's total; excepted uids count off only where they match it.
 */
export function countSelection(scope: PartnerScope, selection: Selection): number {
  if (selection.kind === 'uids') return idsOfUids(scope, selection.uids).length;
  if (selection.kind === 'ranges') {
    const inRanges = idsOfRanges(scope, selection).length;
    return selection.all ? countSelection(scope, { kind: 'filter', filter: selection.filter }) - inRanges : inRanges;
  }
  const { total } = windowIds(scope.db, recordQuery(scope, selection.filter), { by: 'upload_date', order: 'asc' }, 0, 1);
  if (!selection.except || selection.except.length === 0) return total;
  const clause = recordConditions(scope, selection.filter).add('c.uid IN (SELECT value FROM json_each(?))', JSON.stringify(selection.except)).where('c.id');
  const excepted = cached(scope.db, `SELECT count(*) FROM credentials c ${clause.sql}`).pluck().get(...clause.params) as number;
  return total - excepted;
}

/**
 * Resolves a selection in main to credential row ids, in creation order for a filter — the
 * renderer never ships them. A filter is read in one query straight from the index that answers
 * it (the tag index for tags alone, the search index for a search alone): 100,000 ids are a
 * few tens of milliseconds and under a megabyte, and reading in chunks would re-run the filter
 * per chunk. A cancel is seen before and after; `onChunk` sees the ids (one chunk) for progress.
 */
export async function resolveSelection(scope: PartnerScope, selection: Selection, task?: Pick<TaskContext, 'signal'>, onChunk?: (ids: number[]) => void): Promise<number[]> {
  throwIfCancelled(task?.signal);
  if (selection.kind === 'uids') {
    const ids = idsOfUids(scope, selection.uids);
    onChunk?.(ids);
    return ids;
  }
  if (selection.kind === 'ranges' && !selection.all) {
    const ids = idsOfRanges(scope, selection).sort((a, b) => a - b);
    onChunk?.(ids);
    await checkpoint(task?.signal);
    return ids;
  }
  const excepted = new Set(
    selection.kind === 'ranges' ? idsOfRanges(scope, selection) : selection.except && selection.except.length > 0 ? idsOfExisting(scope, selection.except) : [],
  );
  const { where, soleSearch } = recordQuery(scope, selection.filter);
  const driver = where.soleDriver();
  let ids: number[];
  if (soleSearch !== undefined) {
    ids = cached(scope.db, 'SELECT rowid FROM credentials_fts WHERE credentials_fts MATCH ? ORDER BY rowid').pluck().all(soleSearch) as number[];
  } else if (driver) {
    ids = cached(scope.db, `${driver.sql} ORDER BY 1`).pluck().all(...driver.params) as number[];
  } else {
    const clause = where.where('c.id');
    ids = cached(scope.db, `SELECT c.id FROM credentials c ${clause.sql} ORDER BY c.id`).pluck().all(...clause.params) as number[];
  }
  if (excepted.size > 0) ids = ids.filter((id) => !excepted.has(id));
  onChunk?.(ids);
  await checkpoint(task?.signal);
  return ids;
}

/** Why a range selection is refused when the list moved under it (here and over a remote service). */
export const STALE_RANGES =
  'The list changed after these rows were selected (records were added, removed or changed), so the selection no longer names the same records. Select the rows again.';

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
function idsOfExisting(scope: PartnerScope, uids: readonly string[]): number[] {
  return cached(scope.db, 'SELECT id FROM credentials WHERE uid IN (SELECT value FROM json_each(?)) AND +partner_id = ?')
    .pluck()
    .all(JSON.stringify(uids.map((u) => u.toLowerCase())), scope.partner.id) as number[];
}

/** The uids of row ids, in their order. */
export function uidsOf(scope: PartnerScope, ids: readonly number[]): string[] {
  const rows = cached(scope.db, 'SELECT id, uid FROM credentials WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number; uid: string }[];
  const byId = new Map(rows.map((r) => [r.id, r.uid]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}
