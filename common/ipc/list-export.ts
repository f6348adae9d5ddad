/**
 * The IPC slice of list exports: the Records list (its filter, sort and columns) or the Jobs
 * list (its status filter and sort) written to a CSV file or an Excel workbook by main, page by
 * page, as a task. The rows never cross IPC: in the Electron window main asks where to save
 * (the OS save dialog); in the browser bridge the finished file is downloaded from the bridge.
 */
import { Type, type Static } from '@sinclair/typebox';
import { RecordFilterSchema, RecordSortSchema, recordFilterOf, recordSortOf, type RecordFilter, type RecordSort } from '../records.js';
import { Maybe, Variants } from '../schemas/check.js';
import { OneOf } from '../schemas/primitives.js';
import type { TaskInfo } from '../tasks.js';
import { JOB_STATUSES, type JobStatus } from '../wire-types.js';
import { JobSortSchema, type JobSort } from './jobs.js';
import { argsOf } from './slice.js';

/** `csv`: UTF-8 with a byte order mark, CRLF lines; `xlsx`: an Excel workbook of one sheet. */
export const LIST_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ListExportFormat = (typeof LIST_EXPORT_FORMATS)[number];

/** The lists that export. */
export const EXPORT_LISTS = ['records', 'jobs'] as const;
export type ExportList = (typeof EXPORT_LISTS)[number];

/**
 * The Records columns an export can hold: the table's column ids, plus `uid` (the table names
 * a record by its title only; an export is for other programs). `state:<engine>` is the state
 * on that engine.
 */
export const RECORD_EXPORT_COLUMNS = ['uid', 'title', 'tags', 'files', 'linked', 'upload_date', 'expiry'] as const;
/** Most columns one export may ask for (the fixed ones and a state column per engine). */
const MAX_COLUMNS = 100;

export type ListExportRequest =
  | { list: 'records'; format: ListExportFormat; filter: RecordFilter; sort: RecordSort; columns: string[] }
  | { list: 'jobs'; format: ListExportFormat; status?: JobStatus; sort?: JobSort };

export interface ListExportResult {
  list: ExportList;
  format: ListExportFormat;
  /** Data rows written (the header line not counted). */
  rows: number;
  /** The file's name, e.g. `records-2026-11-26.csv`. */
  fileName: string;
  /** Where the file was saved (the Electron window); null in the browser bridge. */
  path: string | null;
  /** The bridge's URL path that downloads the file once (`/download/<token>`); null in Electron. */
  download: string | null;
}

const STATE_COLUMN = '^state:[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$';

const ListExportRequestSchema = Variants('list', [
  Type.Object(
    {
      list: Type.Literal('records'),
      format: OneOf(LIST_EXPORT_FORMATS),
      filter: Maybe(RecordFilterSchema),
      sort: Maybe(RecordSortSchema),
      columns: Type.Array(Type.Union([OneOf(RECORD_EXPORT_COLUMNS), Type.String({ pattern: STATE_COLUMN })]), { minItems: 1, maxItems: MAX_COLUMNS, uniqueItems: true }),
    },
    { additionalProperties: false },
  ),
  Type.Object({ list: Type.Literal('jobs'), format: OneOf(LIST_EXPORT_FORMATS), status: Maybe(OneOf(JOB_STATUSES)), sort: Maybe(JobSortSchema) }, { additionalProperties: false }),
]);

/** A checked export request as main takes it: the records' filter and sort made whole, blank fields dropped. */
function listExportRequestOf(body: Static<typeof ListExportRequestSchema>): ListExportRequest {
  if (body.list === 'records') return { list: 'records', format: body.format, filter: recordFilterOf(body.filter), sort: recordSortOf(body.sort), columns: body.columns };
  const request: ListExportRequest = { list: 'jobs', format: body.format };
  if (body.status) request.status = body.status;
  if (body.sort) request.sort = { by: body.sort.by, order: body.sort.order };
  return request;
}

export const LIST_EXPORT_IPC = {
  /**
   * Exports a list as a task. In the Electron window main first shows the save dialog:
   * null when it was cancelled (nothing is written).
   */
  'listExport:start': argsOf('listExport:start', ['request'], ListExportRequestSchema)
    .map(([request]) => [listExportRequestOf(request)])
    .returns<TaskInfo<ListExportResult> | null>(),
};
