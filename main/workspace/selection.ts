import type { Selection } from '../../common/records.js';
import type { TaskContext, TaskSignal } from '../../common/tasks.js';
import { countFilter, idsOfExisting, idsOfFilter, idsOfRanges, idsOfUids, type PartnerScope } from '../engine/index.js';

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
  return countFilter(scope, selection.filter, selection.except);
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
  let ids = idsOfFilter(scope, selection.filter);
  if (excepted.size > 0) ids = ids.filter((id) => !excepted.has(id));
  onChunk?.(ids);
  await checkpoint(task?.signal);
  return ids;
}
