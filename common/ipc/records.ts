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
  type RecordWindow,
  type TagSuggestion,
  type TagUndoResult,
} from '../records.js';
import type { TaskInfo } from '../tasks.js';
import { Maybe } from '../schemas/check.js';
import { argsOf } from './slice.js';

/** The most metadata keys one call answers. */
export const METADATA_KEYS_MAX = 500;

const TagPrefix = Type.String({ maxLength: 100 });
const EngineId = Type.String({ minLength: 1, maxLength: 100 });

export const RECORDS_IPC = {
  /** Rows offset..offset+limit-1 of the filtered, sorted records, with the total. */
  'records:window': argsOf('records:window', ['request'], RecordWindowRequestSchema)
    .map(([request]) => [recordWindowRequestOf(request)])
    .returns<RecordWindow>(),
  /** The Partner's tags starting with `prefix` (empty: the most used), with counts. */
  'records:tags': argsOf('records:tags', ['prefix', 'limit'], TagPrefix, Type.Integer({ minimum: 1, maximum: 200 })).returns<TagSuggestion[]>(),
  /**
   * The Partner's metadata keys most used first, with counts (at most `limit`): the metadata
   * columns the table offers. Null where the connection cannot count them (a remote service).
   */
  'records:metadataKeys': argsOf('records:metadataKeys', ['limit'], Type.Integer({ minimum: 1, maximum: METADATA_KEYS_MAX })).returns<MetadataKeyCount[] | null>(),
  /** How many records a selection holds (for the confirmation that names the count). */
  'records:count': argsOf('records:count', ['selection'], SelectionSchema)
    .map(([selection]) => [selectionOf(selection)])
    .returns<number>(),
  /** Edits the tags of a selection, all or nothing; answers the running task. */
  'records:editTags': argsOf('records:editTags', ['selection', 'edit'], SelectionSchema, TagEditSchema)
    .map(([selection, edit]) => [selectionOf(selection), tagEditOf(edit)])
    .returns<TaskInfo<BulkTagResult>>(),
  /** Undoes a bulk tag edit by the token its result carried; answers the running task. */
  'records:undoTags': argsOf('records:undoTags', ['token'], Type.String({ minLength: 1, maxLength: 100 })).returns<TaskInfo<TagUndoResult>>(),
  /** Schedules a selection on engines; answers the running task. */
  'records:schedule': argsOf('records:schedule', ['selection', 'engines'], SelectionSchema, EngineListSchema)
    .map(([selection, engines]) => [selectionOf(selection), [...new Set(engines)]])
    .returns<TaskInfo<BulkScheduleResult>>(),
  /** Unschedules a selection from one engine; answers the running task. */
  'records:unschedule': argsOf('records:unschedule', ['selection', 'engine'], SelectionSchema, EngineId)
    .map(([selection, engine]) => [selectionOf(selection), engine])
    .returns<TaskInfo<BulkUnscheduleResult>>(),
  /** The total matching a filter (the `Select all matching` button's count). */
  'records:total': argsOf('records:total', ['filter'], Maybe(RecordFilterSchema))
    .map(([filter]) => [recordFilterOf(filter)])
    .returns<number>(),
};
