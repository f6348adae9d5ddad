/**
 * The records table over a remote service: the same windows, counts, selections and bulk work
 * as record-query.ts and the bulk-* modules, but through the spec's endpoints only (GET
 * /credentials with its tag and upload date filters and sorting, PATCH/PUT /credentials,
 * POST /credentials/schedule, DELETE .../unschedule). What the spec cannot answer (a word
 * search, the state on each engine, tag counts) is refused with a sentence, never guessed.
 */
import { ServiceError } from '../../common/errors.js';
import type { IssuingService } from '../../common/issuing-service.js';
import {
  metadataColumnValues,
  RECORD_WINDOW_MAX_LIMIT,
  type BulkScheduleResult,
  type BulkTagResult,
  type BulkUnscheduleResult,
  type RecordFilter,
  type RecordRow,
  type RecordWindow,
  type RecordWindowRequest,
  type RangeSelection,
  type Selection,
  type TagEdit,
} from '../../common/records.js';
import type { CredentialQuery } from '../../common/requests.js';
import type { TaskContext } from '../../common/tasks.js';
import type { Credential } from '../../common/wire-types.js';
import { REMOTE_LIMITS } from '../../common/ipc/settings.js';
import { STALE_RANGES } from '../engine/index.js';
import { allPages, pageWindow } from '../../common/all-pages.js';

/** Credentials read per request while resolving a selection (the spec's page size is free). */
const RESOLVE_PAGE = 1_000;

/** The spec's query for a filter; refuses the parts the spec does not have. */
export function remoteQuery(filter: RecordFilter): CredentialQuery {
  if (filter.search?.trim()) throw new ServiceError('invalid_value', REMOTE_LIMITS.search);
  if (filter.state) throw new ServiceError('invalid_value', REMOTE_LIMITS.state);
  const query: CredentialQuery = {};
  if (filter.andTags?.length) query.and_tags = filter.andTags;
  if (filter.orTags?.length) query.or_tags = filter.orTags;
  if (filter.uploadedFrom) query.upload_date_from = filter.uploadedFrom;
  if (filter.uploadedTo) query.upload_date_to = filter.uploadedTo;
  return query;
}

/** A row of the records table from the wire's credential (no per-engine state: the wire has none). */
export function toRecordRow(credential: Credential): RecordRow {
  return {
    uid: credential.uid,
    title: credential.title,
    tags: credential.tags,
    fileCount: credential.files.length,
    files: credential.files.map((f) => ({ hash: f.file_hash, type: f.file_type ?? null, name: null })),
    linkedUids: credential.credentials.map((c) => c.uid),
    linkedFromCount: 0,
    uploadDate: credential.upload_date,
    expiryDate: credential.expiry_date,
    states: {},
    metadata: metadataColumnValues(credential.metadata),
  };
}

/**
 * Rows offset .. offset+limit-1 through GET /credentials: the page that holds `offset` with
 * per_page = limit (the table asks aligned windows), and the next one when it is not aligned.
 */
export async function remoteRecordWindow(service: IssuingService, request: RecordWindowRequest): Promise<RecordWindow> {
  if (request.limit < 1 || request.limit > RECORD_WINDOW_MAX_LIMIT) throw new ServiceError('wrong_pagination_argument', `limit must be from 1 to ${RECORD_WINDOW_MAX_LIMIT}`);
  const query: CredentialQuery = { ...remoteQuery(request.filter), sort_by: request.sort.by, order: request.sort.order, per_page: request.limit };
  const { items, total } = await pageWindow(request.offset, request.limit, (page) => service.listCredentials({ ...query, page }));
  return { offset: request.offset, total, rows: items.map(toRecordRow), engines: [] };
}

/** How many credentials a selection holds: its uids, or the filter's total less the exceptions. */
export async function remoteCount(service: IssuingService, selection: Selection): Promise<number> {
  if (selection.kind === 'uids') return new Set(selection.uids).size;
  if (selection.kind === 'ranges') return (await remoteUids(service, selection)).length;
  const total = (await service.listCredentials({ ...remoteQuery(selection.filter), per_page: 1 })).total_items;
  return Math.max(0, total - new Set(selection.except ?? []).size);
}

/** The uids of a selection, page by page through GET /credentials for a filter. */
export async function remoteUids(service: IssuingService, selection: Selection, task?: TaskContext): Promise<string[]> {
  if (selection.kind === 'uids') return [...new Set(selection.uids)];
  if (selection.kind === 'ranges') return remoteUidsOfRanges(service, selection, task);
  const query = remoteQuery(selection.filter);
  const except = new Set(selection.except ?? []);
  const uids: string[] = [];
  const pages = allPages((page) => {
    task?.signal.throwIfAborted();
    return service.listCredentials({ ...query, sort_by: 'upload_date', order: 'asc', per_page: RESOLVE_PAGE, page });
  });
  for await (const batch of pages) {
    for (const c of batch.items) if (!except.has(c.uid)) uids.push(c.uid);
    task?.progress(uids.length, batch.total_items);
  }
  return uids;
}

/** Tag edits over the spec's endpoints: add and replace in one all-or-nothing call each. */
export async function remoteEditTags(service: IssuingService, selection: Selection, edit: TagEdit, task: TaskContext): Promise<BulkTagResult> {
  const uids = await remoteUids(service, selection, task);
  if (uids.length === 0) return { selected: 0, changed: 0 };
  if (edit.mode === 'add' || edit.mode === 'replace') {
    const body = { credentials: uids.map((credential_uid) => ({ credential_uid, tags: edit.tags })) };
    if (edit.mode === 'add') await service.addCredentialTags(body);
    else await service.replaceCredentialTags(body);
    task.progress(uids.length, uids.length);
    return { selected: uids.length, changed: uids.length };
  }
  // The spec removes a tag one credential at a time.
  let changed = 0;
  for (const [i, uid] of uids.entries()) {
    task.signal.throwIfAborted();
    const credential = await service.getCredential(uid);
    if (credential.tags.includes(edit.tag)) {
      await service.deleteCredentialTag(uid, edit.tag);
      changed++;
    }
    task.progress(i + 1, uids.length);
  }
  return { selected: uids.length, changed };
}

/** Schedules a selection on each engine: one POST /credentials/schedule per engine. */
export async function remoteSchedule(service: IssuingService, selection: Selection, engines: string[], task: TaskContext): Promise<BulkScheduleResult> {
  const uids = await remoteUids(service, selection, task);
  const result: BulkScheduleResult = { selected: uids.length, engines: [] };
  for (const engine of engines) {
    task.signal.throwIfAborted();
    const job = uids.length > 0 ? await service.scheduleCredentials({ engine, credentials: uids }) : null;
    result.engines.push({ engine, scheduled: uids.length, alreadyTaken: 0, jobUid: job?.uid ?? null });
  }
  return result;
}

/** Unschedules a selection from one engine, credential by credential (the spec's endpoint). */
export async function remoteUnschedule(service: IssuingService, selection: Selection, engine: string, task: TaskContext): Promise<BulkUnscheduleResult> {
  const uids = await remoteUids(service, selection, task);
  const result: BulkUnscheduleResult = { selected: uids.length, unscheduled: 0, deleted: 0, notScheduled: 0 };
  for (const [i, uid] of uids.entries()) {
    task.signal.throwIfAborted();
    try {
      const answer = await service.unscheduleCredential(uid, engine);
      result.unscheduled++;
      if (answer.credential_deleted) result.deleted++;
    } catch (error) {
      if (!(error instanceof ServiceError && error.id === 'credential_not_scheduled')) throw error;
      result.notScheduled++;
    }
    task.progress(i + 1, uids.length);
  }
  return result;
}

/**
 * The uids at the positions of a range selection, read through GET /credentials in the
 * renderer's filter and sort; the uids at every range's ends are checked as in selection.ts, so
 * a list that moved on the remote service fails the call instead of touching other records.
 */
async function remoteUidsOfRanges(service: IssuingService, selection: RangeSelection, task?: TaskContext): Promise<string[]> {
  const { ranges } = selection;
  const query: CredentialQuery = { ...remoteQuery(selection.filter), sort_by: selection.sort.by, order: selection.sort.order, per_page: RESOLVE_PAGE };
  const last = selection.all ? Number.POSITIVE_INFINITY : (ranges[ranges.length - 1]?.to ?? -1);
  const uids: string[] = [];
  let next = 0; // the first range that may still hold a later position
  let position = 0;
  const pages = allPages((page) => {
    task?.signal.throwIfAborted();
    return service.listCredentials({ ...query, page });
  });
  for await (const batch of last < 0 ? [] : pages) {
    for (const c of batch.items) {
      while (next < ranges.length && ranges[next]!.to < position) next++;
      const range = ranges[next];
      const inRange = range !== undefined && range.from <= position;
      if (range && position === range.from && c.uid !== range.fromUid) throw new ServiceError('invalid_value', STALE_RANGES);
      if (range && position === range.to && c.uid !== range.toUid) throw new ServiceError('invalid_value', STALE_RANGES);
      if (inRange !== Boolean(selection.all)) uids.push(c.uid);
      position++;
    }
    task?.progress(uids.length, batch.total_items);
    if (position > last) break;
  }
  if (position <= (ranges[ranges.length - 1]?.to ?? -1)) throw new ServiceError('invalid_value', STALE_RANGES);
  return uids;
}
