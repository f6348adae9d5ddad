/**
 * The IPC slice of the Records view: windows of rows by offset (never all at once), tag
 * autocomplete, selection counts, and bulk work on a selection as tasks (tags, schedule,
 * unschedule). A selection is a filter or a list of uids, resolved in main.
 */
import {
  validateEngineList,
  validateRecordFilter,
  validateRecordWindowRequest,
  validateSelection,
  validateTagEdit,
  type BulkScheduleResult,
  type BulkTagResult,
  type BulkUnscheduleResult,
  type MetadataKeyCount,
  type RecordFilter,
  type RecordWindow,
  type RecordWindowRequest,
  type Selection,
  type TagEdit,
  type TagSuggestion,
  type TagUndoResult,
} from '../records.js';
import type { TaskInfo } from '../tasks.js';
import { expectArgCount, expectInteger, expectString, type IpcValidators } from './slice.js';

export interface RecordsIpc {
  /** Rows offset..offset+limit-1 of the filtered, sorted records, with the total. */
  'records:window': { args: [request: RecordWindowRequest]; result: RecordWindow };
  /** The Partner's tags starting with `prefix` (empty: the most used), with counts. */
  'records:tags': { args: [prefix: string, limit: number]; result: TagSuggestion[] };
  /**
   * The Partner's metadata keys most used first, with counts (at most `limit`): the metadata
   * columns the table offers. Null where the connection cannot count them (a remote service).
   */
  'records:metadataKeys': { args: [limit: number]; result: MetadataKeyCount[] | null };
  /** How many records a selection holds (for the confirmation that names the count). */
  'records:count': { args: [selection: Selection]; result: number };
  /** Edits the tags of a selection, all or nothing; answers the running task. */
  'records:editTags': { args: [selection: Selection, edit: TagEdit]; result: TaskInfo<BulkTagResult> };
  /** Undoes a bulk tag edit by the token its result carried; answers the running task. */
  'records:undoTags': { args: [token: string]; result: TaskInfo<TagUndoResult> };
  /** Schedules a selection on engines; answers the running task. */
  'records:schedule': { args: [selection: Selection, engines: string[]]; result: TaskInfo<BulkScheduleResult> };
  /** Unschedules a selection from one engine; answers the running task. */
  'records:unschedule': { args: [selection: Selection, engine: string]; result: TaskInfo<BulkUnscheduleResult> };
  /** The total matching a filter (the `Select all matching` button's count). */
  'records:total': { args: [filter: RecordFilter]; result: number };
}

/** The most metadata keys one call answers. */
export const METADATA_KEYS_MAX = 500;

export const RECORDS_IPC: IpcValidators<RecordsIpc> = {
  'records:window': (args) => {
    expectArgCount('records:window', args, 1);
    return [validateRecordWindowRequest(args[0])];
  },
  'records:tags': (args) => {
    expectArgCount('records:tags', args, 2);
    const prefix = args[0];
    if (typeof prefix !== 'string' || prefix.length > 100) expectString(null, 'prefix', 100);
    return [prefix as string, expectInteger(args[1], 'limit', 1, 200)];
  },
  'records:metadataKeys': (args) => {
    expectArgCount('records:metadataKeys', args, 1);
    return [expectInteger(args[0], 'limit', 1, METADATA_KEYS_MAX)];
  },
  'records:count': (args) => {
    expectArgCount('records:count', args, 1);
    return [validateSelection(args[0])];
  },
  'records:editTags': (args) => {
    expectArgCount('records:editTags', args, 2);
    return [validateSelection(args[0]), validateTagEdit(args[1])];
  },
  'records:undoTags': (args) => {
    expectArgCount('records:undoTags', args, 1);
    return [expectString(args[0], 'token', 100)];
  },
  'records:schedule': (args) => {
    expectArgCount('records:schedule', args, 2);
    return [validateSelection(args[0]), validateEngineList(args[1])];
  },
  'records:unschedule': (args) => {
    expectArgCount('records:unschedule', args, 2);
    return [validateSelection(args[0]), expectString(args[1], 'engine', 100)];
  },
  'records:total': (args) => {
    expectArgCount('records:total', args, 1);
    return [validateRecordFilter(args[0])];
  },
};
