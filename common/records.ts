/**
 * The app's shared shapes for records (credentials as the workspace shows them): filters,
 * sorting, windows of rows, selections, tag edits and proof export.
 * Env-free: the renderer, the IPC contract slices and main/workspace all use these.
 * Field names are camelCase (app shapes, not the spec's wire shapes); dates are ISO 8601.
 *
 * The validators at the end check untrusted arguments arriving over IPC or the web bridge;
 * they throw ServiceError with the spec's ids (`invalid_value`, `invalid_tag`, ...).
 */
import { ServiceError, type ErrorId } from './errors.js';
import { LIMITS } from './limits.js';
import { isPlainObject, isUuid, parseIsoDate, rejectUnknownFields, validateTag, validateTags } from './validate.js';

// ---------------------------------------------------------------------------------------
// Records: filter, sort, window
// ---------------------------------------------------------------------------------------

/** A credential's state on one engine, as the records table shows it. */
export const RECORD_STATES = ['not_scheduled', 'scheduled', 'issuing', 'issued', 'revoked'] as const;
export type RecordState = (typeof RECORD_STATES)[number];

/** Which records to show. Every part is optional; the parts combine with AND. */
export interface RecordFilter {
  /** Records carrying all of these tags (the spec's and_tags). */
  andTags?: string[];
  /** Records carrying at least one of these tags (the spec's or_tags). */
  orTags?: string[];
  /** Upload date range, inclusive, ISO 8601 date or date-time (a date alone is 00:00 UTC). */
  uploadedFrom?: string;
  uploadedTo?: string;
  /** Records whose state on `engine` is one of `states`. */
  state?: { engine: string; states: RecordState[] };
  /** Words of the title or metadata; the last word also matches as a prefix (search as you type). */
  search?: string;
}

/** Sorting as the spec allows for GET /credentials: title or upload date (= creation order). */
export const RECORD_SORT_FIELDS = ['upload_date', 'title'] as const;
export type RecordSortField = (typeof RECORD_SORT_FIELDS)[number];
export interface RecordSort {
  by: RecordSortField;
  order: 'asc' | 'desc';
}
export const DEFAULT_RECORD_SORT: RecordSort = { by: 'upload_date', order: 'asc' };

/** One file of a record. The engine keeps no file names; `name` is set when metadata gives one. */
export interface RecordFile {
  hash: string;
  type: string | null;
  name: string | null;
}

/** One row of the records table. */
export interface RecordRow {
  uid: string;
  title: string;
  tags: string[];
  fileCount: number;
  files: RecordFile[];
  /** Uids of the credentials this one links to (its record's earlier entries). */
  linkedUids: string[];
  /** How many credentials link to this one. */
  linkedFromCount: number;
  uploadDate: string;
  expiryDate: string | null;
  /** State per engine id, for every engine of the catalog (not_scheduled when none). */
  states: Record<string, RecordState>;
  /** The top-level metadata values that are text, numbers or booleans, as text (the metadata columns). */
  metadata: Record<string, string>;
}

/** A request for rows `offset .. offset+limit-1` of the filtered, sorted records. */
export interface RecordWindowRequest {
  filter: RecordFilter;
  sort: RecordSort;
  offset: number;
  /** At most RECORD_WINDOW_MAX_LIMIT. */
  limit: number;
}
export const RECORD_WINDOW_MAX_LIMIT = 1_000;

export interface RecordWindow {
  offset: number;
  /** How many records match the filter in all. */
  total: number;
  rows: RecordRow[];
  /** The engine ids the `states` of each row cover, in catalog order. */
  engines: string[];
}

/** The longest metadata value a row carries to the table; a longer one is cut (the detail panel shows it whole). */
const METADATA_VALUE_MAX = 200;

/** A credential's top-level metadata values that are text, numbers or booleans, as text: what the metadata columns show. */
export function metadataColumnValues(metadata: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return out;
  for (const [key, v] of Object.entries(metadata)) {
    if (typeof v === 'string') out[key] = v.length > METADATA_VALUE_MAX ? `${v.slice(0, METADATA_VALUE_MAX)}…` : v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
  }
  return out;
}

/** A top-level metadata key of the Partner's credentials and how many have a value for it (the metadata columns). */
export interface MetadataKeyCount {
  key: string;
  count: number;
}

/** A tag of the Partner's credentials and how many carry it (autocomplete). */
export interface TagSuggestion {
  tag: string;
  count: number;
}

// ---------------------------------------------------------------------------------------
// Selections and bulk work
// ---------------------------------------------------------------------------------------

/**
 * What a bulk action works on: listed uids, or every record matching a filter except some.
 * "Select all N matching" sends the filter, never N uids; main resolves it.
 */
export type Selection = { kind: 'uids'; uids: string[] } | { kind: 'filter'; filter: RecordFilter; except?: string[] } | RangeSelection;

/**
 * Rows of the records table by position, as the renderer shows them (its filter and sort):
 * a Shift-click over 50,000 rows is one range, never 50,000 uids. Each range names the uids
 * at both its ends, so main can tell the list has not changed since the rows were selected.
 */
export interface RangeSelection {
  kind: 'ranges';
  filter: RecordFilter;
  sort: RecordSort;
  /** Sorted and disjoint. */
  ranges: PositionRange[];
  /** True: every record matching the filter except those in `ranges` (select all, then Ctrl-click some out). */
  all?: boolean;
}

/** Rows `from..to` (inclusive, 0-based) of the filtered, sorted list, and the uids of its first and last row. */
export interface PositionRange {
  from: number;
  to: number;
  fromUid: string;
  toUid: string;
}

/** Ranges one selection may hold: each is two numbers and two uids, however many rows it spans. */
export const MAX_SELECTION_RANGES = 10_000;

/** Bulk tag edits, all-or-nothing over the whole selection (as PATCH / PUT /credentials). */
export type TagEdit = { mode: 'add'; tags: string[] } | { mode: 'replace'; tags: string[] } | { mode: 'remove'; tag: string };

/** The result of a bulk tag edit. */
export interface BulkTagResult {
  /** Records in the selection. */
  selected: number;
  /** Records whose tags changed (a remove skips records without the tag). */
  changed: number;
  /** Undoes the edit with `records:undoTags` while main remembers it; null when nothing changed or undo is not offered (a remote service). */
  undo?: string | null;
}

/** What undoing a bulk tag edit did: credentials whose tags are back, and those changed again since (left as they are). */
export interface TagUndoResult {
  restored: number;
  skipped: number;
}

/** The result of scheduling a selection on engines. */
export interface BulkScheduleResult {
  selected: number;
  /** Per engine: how many joined its open job, and how many were already scheduled or issued there. */
  engines: { engine: string; scheduled: number; alreadyTaken: number; jobUid: string | null }[];
}

/** The result of unscheduling a selection from one engine. */
export interface BulkUnscheduleResult {
  selected: number;
  unscheduled: number;
  /** Credentials deleted because nothing else held them (the spec's unschedule rule). */
  deleted: number;
  /** Selected credentials that were not scheduled on the engine. */
  notScheduled: number;
}

// CSV import and staging shapes live in their IPC slices, common/ipc/csv-import.ts and
// common/ipc/staging.ts; main/workspace implements them with those shapes.

// ---------------------------------------------------------------------------------------
// Proof export
// ---------------------------------------------------------------------------------------

export type ProofExportSource = { kind: 'job'; jobUid: string } | { kind: 'selection'; selection: Selection; engine?: string };

/** What an export writes per certificate: its proof file, its Verifiable Credential, or both. */
export type ProofExportFormat = 'proof' | 'vc' | 'both';

export interface ProofExportRequest {
  source: ProofExportSource;
  /** An existing folder; NAME.proof.json and/or NAME.vc.json per certificate is written into it. */
  folder: string;
  /** Default `proof`. */
  format?: ProofExportFormat;
}

export interface ProofExportResult {
  folder: string;
  written: number;
  /** Selected credentials with no certificate to export (not issued yet). */
  withoutCertificate: number;
}

// ---------------------------------------------------------------------------------------
// Validators for untrusted arguments
// ---------------------------------------------------------------------------------------

function fail(message: string, id: ErrorId = 'invalid_value'): never {
  throw new ServiceError(id, message);
}

function tagFilter(value: unknown, name: string): string[] {
  if (!Array.isArray(value)) fail(`${name} must be a list of tags`);
  if (value.length > LIMITS.maxTagsPerObject) fail(`${name} lists ${value.length} tags; a filter takes at most ${LIMITS.maxTagsPerObject}`);
  return [...new Set(value.map((t) => validateTag(t, name)))];
}

function uidList(value: unknown, name: string): string[] {
  if (!Array.isArray(value)) fail(`${name} must be a list of credential uids`);
  if (value.length > LIMITS.maxBatch) fail(`${name} lists ${value.length} uids; at most ${LIMITS.maxBatch} are allowed`);
  for (const uid of value) if (!isUuid(uid)) fail(`${name} holds ${JSON.stringify(uid)}, which is not a credential uid`);
  return (value as string[]).map((u) => u.toLowerCase());
}

/** Checks a RecordFilter from the renderer and returns a clean copy. */
export function validateRecordFilter(value: unknown): RecordFilter {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) fail('The filter must be an object');
  rejectUnknownFields(value, ['andTags', 'orTags', 'uploadedFrom', 'uploadedTo', 'state', 'search'], 'the filter');
  const filter: RecordFilter = {};
  if (value.andTags !== undefined) filter.andTags = tagFilter(value.andTags, 'andTags');
  if (value.orTags !== undefined) filter.orTags = tagFilter(value.orTags, 'orTags');
  for (const key of ['uploadedFrom', 'uploadedTo'] as const) {
    const date = value[key];
    if (date === undefined || date === null || date === '') continue;
    parseIsoDate(date, key);
    filter[key] = date as string;
  }
  if (value.state !== undefined && value.state !== null) {
    const state = value.state;
    if (!isPlainObject(state)) fail('state must be {engine, states}');
    rejectUnknownFields(state, ['engine', 'states'], 'the state filter');
    if (typeof state.engine !== 'string' || state.engine === '') fail('state.engine must name an engine');
    if (!Array.isArray(state.states) || state.states.length === 0) fail('state.states must list at least one state');
    for (const s of state.states) if (!RECORD_STATES.includes(s as RecordState)) fail(`Unknown state ${JSON.stringify(s)}; use one of ${RECORD_STATES.join(', ')}`);
    filter.state = { engine: state.engine, states: [...new Set(state.states as RecordState[])] };
  }
  if (value.search !== undefined && value.search !== null) {
    if (typeof value.search !== 'string') fail('search must be text');
    if (value.search.length > 500) fail('search is longer than 500 characters');
    if (value.search.trim() !== '') filter.search = value.search;
  }
  return filter;
}

/** Checks a RecordSort (absent: upload date ascending). */
export function validateRecordSort(value: unknown): RecordSort {
  if (value === undefined || value === null) return { ...DEFAULT_RECORD_SORT };
  if (!isPlainObject(value)) fail('The sort must be {by, order}');
  rejectUnknownFields(value, ['by', 'order'], 'the sort');
  const by = value.by ?? DEFAULT_RECORD_SORT.by;
  const order = value.order ?? 'asc';
  if (!RECORD_SORT_FIELDS.includes(by as RecordSortField)) fail(`Records sort by ${RECORD_SORT_FIELDS.join(' or ')}`, 'wrong_pagination_argument');
  if (order !== 'asc' && order !== 'desc') fail('order must be asc or desc', 'wrong_pagination_argument');
  return { by: by as RecordSortField, order };
}

/** Checks a RecordWindowRequest. */
export function validateRecordWindowRequest(value: unknown): RecordWindowRequest {
  if (!isPlainObject(value)) fail('The window request must be an object');
  rejectUnknownFields(value, ['filter', 'sort', 'offset', 'limit'], 'the window request');
  const { offset, limit } = value;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) fail('offset must be a whole number of at least 0', 'wrong_pagination_argument');
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > RECORD_WINDOW_MAX_LIMIT) {
    fail(`limit must be a whole number from 1 to ${RECORD_WINDOW_MAX_LIMIT}`, 'wrong_pagination_argument');
  }
  return { filter: validateRecordFilter(value.filter), sort: validateRecordSort(value.sort), offset, limit };
}

/** Checks a Selection. */
export function validateSelection(value: unknown): Selection {
  if (!isPlainObject(value)) fail('The selection must be an object');
  if (value.kind === 'uids') {
    rejectUnknownFields(value, ['kind', 'uids'], 'the selection');
    const uids = uidList(value.uids, 'uids');
    if (uids.length === 0) fail('The selection is empty', 'empty_credential_list');
    return { kind: 'uids', uids };
  }
  if (value.kind === 'filter') {
    rejectUnknownFields(value, ['kind', 'filter', 'except'], 'the selection');
    const selection: Selection = { kind: 'filter', filter: validateRecordFilter(value.filter) };
    if (value.except !== undefined) selection.except = uidList(value.except, 'except');
    return selection;
  }
  if (value.kind === 'ranges') return validateRangeSelection(value);
  return fail('The selection must be {kind: "uids", uids}, {kind: "filter", filter, except} or {kind: "ranges", filter, sort, ranges, all}');
}

function validateRangeSelection(value: Record<string, unknown>): RangeSelection {
  rejectUnknownFields(value, ['kind', 'filter', 'sort', 'ranges', 'all'], 'the selection');
  if (!Array.isArray(value.ranges)) fail('ranges must be a list of {from, to, fromUid, toUid}');
  if (value.ranges.length > MAX_SELECTION_RANGES) fail(`The selection holds ${value.ranges.length} separate ranges; at most ${MAX_SELECTION_RANGES} are allowed. Use "Select all matching" with a filter instead.`);
  if (value.all !== undefined && typeof value.all !== 'boolean') fail('all must be true or false');
  const ranges: PositionRange[] = [];
  for (const r of value.ranges as unknown[]) {
    if (!isPlainObject(r)) fail('Each range must be {from, to, fromUid, toUid}');
    rejectUnknownFields(r, ['from', 'to', 'fromUid', 'toUid'], 'a range');
    const { from, to, fromUid, toUid } = r;
    if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < 0) fail('A range\'s from must be a whole number of at least 0');
    if (typeof to !== 'number' || !Number.isSafeInteger(to) || to < from) fail('A range\'s to must be a whole number of at least its from');
    if (!isUuid(fromUid) || !isUuid(toUid)) fail('A range must name the credential uids at its two ends');
    const previous = ranges[ranges.length - 1];
    if (previous && from <= previous.to) fail('The ranges must be sorted and must not overlap');
    ranges.push({ from, to, fromUid: fromUid.toLowerCase(), toUid: toUid.toLowerCase() });
  }
  if (ranges.length === 0 && value.all !== true) fail('The selection is empty', 'empty_credential_list');
  return { kind: 'ranges', filter: validateRecordFilter(value.filter), sort: validateRecordSort(value.sort), ranges, ...(value.all === true ? { all: true } : {}) };
}

/** Checks a TagEdit. */
export function validateTagEdit(value: unknown): TagEdit {
  if (!isPlainObject(value)) fail('The tag edit must be an object');
  if (value.mode === 'add' || value.mode === 'replace') {
    rejectUnknownFields(value, ['mode', 'tags'], 'the tag edit');
    const tags = validateTags(value.tags, 'tags');
    if (value.mode === 'add' && tags.length === 0) fail('Name at least one tag to add', 'invalid_tag');
    return { mode: value.mode, tags: [...tags] };
  }
  if (value.mode === 'remove') {
    rejectUnknownFields(value, ['mode', 'tag'], 'the tag edit');
    return { mode: 'remove', tag: validateTag(value.tag, 'tag') };
  }
  return fail('The tag edit mode must be add, replace or remove');
}

/** Checks a list of engine ids (their existence is checked in main, against the catalog). */
export function validateEngineList(value: unknown, name = 'engines'): string[] {
  if (!Array.isArray(value) || value.length === 0) fail(`${name} must list at least one engine`);
  for (const e of value) if (typeof e !== 'string' || e === '') fail(`${name} must hold engine ids`);
  return [...new Set(value as string[])];
}
