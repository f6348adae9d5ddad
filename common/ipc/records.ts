/**
 * The IPC slice of the Records view: windows of rows by offset (never all at once), tag
 * autocomplete, selection counts, and bulk work on a selection as tasks (tags, schedule,
 * unschedule). A selection is a filter or a list of uids, resolved in main.
 */
import { Type } from '@sinclair/typebox';
import {
  EngineListSchema,
  RecordFilterSchema,
  RecordWindowRequestSchema,
  SelectionSchema,
  TagEditSchema,
  recordFilterOf,
  recordWindowRequestOf,
  selectionOf,
  tagEditOf,
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
import { Maybe } from '../schemas/check.js';
import { argsOf, type IpcValidators } from './slice.js';

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

const TagPrefix = Type.String({ maxLength: 100 });
const EngineId = Type.String({ minLength: 1, maxLength: 100 });

const window = argsOf('records:window', ['request'], RecordWindowRequestSchema);
const count = argsOf('records:count', ['selection'], SelectionSchema);
const editTags = argsOf('records:editTags', ['selection', 'edit'], SelectionSchema, TagEditSchema);
const schedule = argsOf('records:schedule', ['selection', 'engines'], SelectionSchema, EngineListSchema);
const unschedule = argsOf('records:unschedule', ['selection', 'engine'], SelectionSchema, EngineId);
const total = argsOf('records:total', ['filter'], Maybe(RecordFilterSchema));

export const RECORDS_IPC: IpcValidators<RecordsIpc> = {
  'records:window': (args) => [recordWindowRequestOf(window(args)[0])],
  'records:tags': argsOf('records:tags', ['prefix', 'limit'], TagPrefix, Type.Integer({ minimum: 1, maximum: 200 })),
  'records:metadataKeys': argsOf('records:metadataKeys', ['limit'], Type.Integer({ minimum: 1, maximum: METADATA_KEYS_MAX })),
  'records:count': (args) => [selectionOf(count(args)[0])],
  'records:editTags': (args) => {
    const [selection, edit] = editTags(args);
    return [selectionOf(selection), tagEditOf(edit)];
  },
  'records:undoTags': argsOf('records:undoTags', ['token'], Type.String({ minLength: 1, maxLength: 100 })),
  'records:schedule': (args) => {
    const [selection, engines] = schedule(args);
    return [selectionOf(selection), [...new Set(engines)]];
  },
  'records:unschedule': (args) => {
    const [selection, engine] = unschedule(args);
    return [selectionOf(selection), engine];
  },
  'records:total': (args) => [recordFilterOf(total(args)[0])],
};
