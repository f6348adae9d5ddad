/**
 * The IPC slice of list exports: the Records list (its filter, sort and columns) or the Jobs
 * list (its status filter and sort) written to a CSV file or an Excel workbook by main, page by
 * page, as a task. The rows never cross IPC: in the Electron window main asks where to save
 * (the OS save dialog); in the browser bridge the finished file is downloaded from the bridge.
 */
import { ServiceError } from '../errors.js';
import { validateRecordFilter, validateRecordSort, type RecordFilter, type RecordSort } from '../records.js';
import type { TaskInfo } from '../tasks.js';
import { isPlainObject, rejectUnknownFields } from '../validate.js';
import { JOB_STATUSES, type JobStatus } from '../wire-types.js';
import { JOB_SORT_FIELDS, type JobSort } from './jobs.js';
import { expectArgCount, expectObject, expectOneOf, type IpcValidators } from './slice.js';

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
const STATE_COLUMN = /^state:[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
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

export interface ListExportIpc {
  /**
   * Exports a list as a task. In the Electron window main first shows the save dialog:
   * null when it was cancelled (nothing is written).
   */
  'listExport:start': { args: [request: ListExportRequest]; result: TaskInfo<ListExportResult> | null };
}

function validateColumns(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_COLUMNS) {
    throw new ServiceError('invalid_value', `columns must list from 1 to ${MAX_COLUMNS} columns`);
  }
  const seen = new Set<string>();
  for (const column of value) {
    const known = typeof column === 'string' && ((RECORD_EXPORT_COLUMNS as readonly string[]).includes(column) || STATE_COLUMN.test(column));
    if (!known) throw new ServiceError('invalid_value', `Unknown column ${JSON.stringify(column)}; use ${RECORD_EXPORT_COLUMNS.join(', ')} or state:<engine>`);
    if (seen.has(column)) throw new ServiceError('invalid_value', `The column ${column} is listed twice`);
    seen.add(column);
  }
  return [...seen];
}

/** Checks a ListExportRequest from the renderer and returns a clean copy. */
export function validateListExportRequest(value: unknown): ListExportRequest {
  const body = expectObject(value, 'request');
  const list = expectOneOf(body.list, 'list', EXPORT_LISTS);
  const format = expectOneOf(body.format, 'format', LIST_EXPORT_FORMATS);
  if (list === 'records') {
    rejectUnknownFields(body, ['list', 'format', 'filter', 'sort', 'columns'], 'the export request');
    return { list, format, filter: validateRecordFilter(body.filter), sort: validateRecordSort(body.sort), columns: validateColumns(body.columns) };
  }
  rejectUnknownFields(body, ['list', 'format', 'status', 'sort'], 'the export request');
  const request: ListExportRequest = { list, format };
  if (body.status !== undefined && body.status !== null) request.status = expectOneOf(body.status, 'status', JOB_STATUSES);
  if (body.sort !== undefined && body.sort !== null) {
    if (!isPlainObject(body.sort)) throw new ServiceError('invalid_value', 'sort must be {by, order}');
    rejectUnknownFields(body.sort, ['by', 'order'], 'the sort');
    request.sort = { by: expectOneOf(body.sort.by, 'sort.by', JOB_SORT_FIELDS), order: expectOneOf(body.sort.order, 'sort.order', ['asc', 'desc'] as const) };
  }
  return request;
}

export const LIST_EXPORT_IPC: IpcValidators<ListExportIpc> = {
  'listExport:start': (args) => {
    expectArgCount('listExport:start', args, 1);
    return [validateListExportRequest(args[0])];
  },
};
