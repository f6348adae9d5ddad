/**
 * The app's shared shapes for records (credentials as the workspace shows them): filters,
 * sorting, windows of rows, selections, tag edits and proof export.
 * Env-free: the renderer, the IPC contract slices and main/workspace all use these.
 * Field names are camelCase (app shapes, not the spec's wire shapes); dates are ISO 8601.
 *
 * The schemas at the end give the shape of these arguments as they arrive over IPC or the web
 * bridge (checked by common/schemas/check.ts); the `...Of` functions after them turn a checked
 * value into the clean shape main takes, with the checks a schema cannot say (tags, calendar
 * dates, an empty selection) and the spec's ids (`invalid_tag`, `empty_credential_list`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { ServiceError } from './errors.js';
import { LIMITS } from './limits.js';
import { Maybe, Variants, type CheckOptions } from './schemas/check.js';
import { OneOf, Uuid } from './schemas/primitives.js';
import { parseIsoDate, validateTag, validateTags } from './validate.js';

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
// Schemas of the arguments that arrive over IPC or the web bridge
// ---------------------------------------------------------------------------------------

/** Refusals of a sort or a window's position carry the spec's pagination id. */
const PAGINATION: CheckOptions = { errorId: 'wrong_pagination_argument' };
const EngineId = Type.String({ minLength: 1, maxLength: 100 });
const Position = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
// Tags are checked by validateTag(s), for the spec's `invalid_tag` and `duplicated_tags`.
const TagFilterList = Type.Array(Type.Unknown(), { maxItems: LIMITS.maxTagsPerObject });
// The calendar (2026-02-31) is checked by parseIsoDate, which the engine uses too.
const DateBound = Maybe(Type.String({ maxLength: 40 }));

export const RecordFilterSchema = Type.Object(
  {
    andTags: Type.Optional(TagFilterList),
    orTags: Type.Optional(TagFilterList),
    uploadedFrom: DateBound,
    uploadedTo: DateBound,
    state: Maybe(Type.Object({ engine: EngineId, states: Type.Array(OneOf(RECORD_STATES), { minItems: 1, maxItems: 50 }) }, { additionalProperties: false })),
    search: Maybe(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

/** Absent parts sort by upload date, ascending. */
export const RecordSortSchema = Type.Object({ by: Maybe(OneOf(RECORD_SORT_FIELDS), PAGINATION), order: Maybe(OneOf(['asc', 'desc'] as const), PAGINATION) }, { additionalProperties: false });

export const RecordWindowRequestSchema = Type.Object(
  {
    filter: Maybe(RecordFilterSchema),
    sort: Maybe(RecordSortSchema),
    offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, ...PAGINATION }),
    limit: Type.Integer({ minimum: 1, maximum: RECORD_WINDOW_MAX_LIMIT, ...PAGINATION }),
  },
  { additionalProperties: false },
);

const UidList = Type.Array(Uuid(), { maxItems: LIMITS.maxBatch });
const RangeSchema = Type.Object({ from: Position, to: Position, fromUid: Uuid(), toUid: Uuid() }, { additionalProperties: false });

export const SelectionSchema = Variants('kind', [
  Type.Object({ kind: Type.Literal('uids'), uids: UidList }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('filter'), filter: Maybe(RecordFilterSchema), except: Type.Optional(UidList) }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal('ranges'), filter: Maybe(RecordFilterSchema), sort: Maybe(RecordSortSchema), ranges: Type.Array(RangeSchema, { maxItems: MAX_SELECTION_RANGES }), all: Type.Optional(Type.Boolean()) },
    { additionalProperties: false },
  ),
]);

export const TagEditSchema = Variants('mode', [
  Type.Object({ mode: OneOf(['add', 'replace'] as const), tags: Type.Unknown() }, { additionalProperties: false }),
  Type.Object({ mode: Type.Literal('remove'), tag: Type.Unknown() }, { additionalProperties: false }),
]);

/** Engine ids (their existence is checked in main, against the catalog). */
export const EngineListSchema = Type.Array(EngineId, { minItems: 1, maxItems: 100 });

function tagFilter(tags: unknown[], name: string): string[] {
  return [...new Set(tags.map((t) => validateTag(t, name)))];
}

/** A checked filter as the workspace takes it: tags deduplicated, blank parts dropped. */
export function recordFilterOf(value: Static<typeof RecordFilterSchema> | null | undefined): RecordFilter {
  const filter: RecordFilter = {};
  if (value === undefined || value === null) return filter;
  if (value.andTags !== undefined) filter.andTags = tagFilter(value.andTags, 'andTags');
  if (value.orTags !== undefined) filter.orTags = tagFilter(value.orTags, 'orTags');
  for (const key of ['uploadedFrom', 'uploadedTo'] as const) {
    const date = value[key];
    if (date === undefined || date === null || date === '') continue;
    parseIsoDate(date, key);
    filter[key] = date;
  }
  if (value.state) filter.state = { engine: value.state.engine, states: [...new Set(value.state.states)] };
  if (value.search && value.search.trim() !== '') filter.search = value.search;
  return filter;
}

/** A checked sort with its defaults filled in. */
export function recordSortOf(value: Static<typeof RecordSortSchema> | null | undefined): RecordSort {
  return { by: value?.by ?? DEFAULT_RECORD_SORT.by, order: value?.order ?? DEFAULT_RECORD_SORT.order };
}

/** A checked window request as the workspace takes it. */
export function recordWindowRequestOf(value: Static<typeof RecordWindowRequestSchema>): RecordWindowRequest {
  return { filter: recordFilterOf(value.filter), sort: recordSortOf(value.sort), offset: value.offset, limit: value.limit };
}

function emptySelection(): never {
  throw new ServiceError('empty_credential_list', 'The selection is empty');
}

/** A checked selection as main resolves it: uids lowercased, ranges sorted and apart, never empty. */
export function selectionOf(value: Static<typeof SelectionSchema>): Selection {
  if (value.kind === 'uids') {
    if (value.uids.length === 0) emptySelection();
    return { kind: 'uids', uids: value.uids.map((u) => u.toLowerCase()) };
  }
  if (value.kind === 'filter') {
    const selection: Selection = { kind: 'filter', filter: recordFilterOf(value.filter) };
    if (value.except !== undefined) selection.except = value.except.map((u) => u.toLowerCase());
    return selection;
  }
  const ranges: PositionRange[] = [];
  for (const { from, to, fromUid, toUid } of value.ranges) {
    if (to < from) throw new ServiceError('invalid_value', `A range's to must be at least its from (${from}..${to})`);
    const previous = ranges[ranges.length - 1];
    if (previous && from <= previous.to) throw new ServiceError('invalid_value', 'The ranges must be sorted and must not overlap');
    ranges.push({ from, to, fromUid: fromUid.toLowerCase(), toUid: toUid.toLowerCase() });
  }
  if (ranges.length === 0 && value.all !== true) emptySelection();
  return { kind: 'ranges', filter: recordFilterOf(value.filter), sort: recordSortOf(value.sort), ranges, ...(value.all === true ? { all: true } : {}) };
}

/** A checked tag edit, its tags under the spec's rules. */
export function tagEditOf(value: Static<typeof TagEditSchema>): TagEdit {
  if (value.mode === 'remove') return { mode: 'remove', tag: validateTag(value.tag, 'tag') };
  const tags = validateTags(value.tags, 'tags');
  if (value.mode === 'add' && tags.length === 0) throw new ServiceError('invalid_tag', 'Name at least one tag to add');
  return { mode: value.mode, tags: [...tags] };
}
