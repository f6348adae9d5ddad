/**
 * The rows of a list export, page by page: the Records list (its filter, sort and the asked
 * columns, in that order) and the Jobs list (its status and sort). Dates are ISO 8601 as the
 * service gives them, counts plain numbers, lists joined with `, `. The pages come from the
 * same queries the views page through, so an export holds exactly what the view lists.
 */
import { allPages } from '../../../common/all-pages.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import type { JobSort } from '../../../common/ipc/jobs.js';
import { RECORD_WINDOW_MAX_LIMIT, type RecordFilter, type RecordRow, type RecordSort, type RecordWindow, type RecordWindowRequest } from '../../../common/records.js';
import type { Job, JobStatus } from '../../../common/wire-types.js';
import type { Cell } from './sheet-writer.js';

/** One page of an export: its rows, and how many the whole list holds. */
export interface ExportPage {
  total: number;
  rows: Cell[][];
}

/** A list to export: its header and its pages. */
export interface ExportRows {
  header: string[];
  pages: AsyncIterable<ExportPage>;
}

/** Rows read per page: the largest window the records query answers. */
export const EXPORT_PAGE_SIZE = RECORD_WINDOW_MAX_LIMIT;
/** Jobs per page (GET /jobs's listing; a job row is small). */
const JOB_PAGE_SIZE = 500;

type RecordColumn = { header: string[]; cells: (row: RecordRow) => Cell[] };

const RECORD_COLUMNS: Record<string, RecordColumn> = {
  uid: { header: ['uid'], cells: (r) => [r.uid] },
  title: { header: ['title'], cells: (r) => [r.title] },
  tags: { header: ['tags'], cells: (r) => [r.tags.join(', ')] },
  files: { header: ['files'], cells: (r) => [r.fileCount] },
  // The table's Linked column counts both ways; an export names the linked uids and the count linking here.
  linked: { header: ['linked_uids', 'linked_from_count'], cells: (r) => [r.linkedUids.join(' '), r.linkedFromCount] },
  upload_date: { header: ['upload_date'], cells: (r) => [r.uploadDate] },
  expiry: { header: ['expiry_date'], cells: (r) => [r.expiryDate] },
};

function recordColumn(id: string): RecordColumn {
  const known = RECORD_COLUMNS[id];
  if (known) return known;
  const engine = id.slice('state:'.length);
  return { header: [`state_${engine}`], cells: (r) => [r.states[engine] ?? null] };
}

/**
 * The Records list as export rows, read `EXPORT_PAGE_SIZE` at a time through `window`
 * (the embedded engine's records query, or the remote service's listing).
 *
 * @example recordRows((request) => recordWindow(scope, request), filter, sort, ['uid', 'title'])
 */
export function recordRows(window: (request: RecordWindowRequest) => Promise<RecordWindow>, filter: RecordFilter, sort: RecordSort, columnIds: readonly string[]): ExportRows {
  const columns = columnIds.map(recordColumn);
  const header = columns.flatMap((c) => c.header);
  async function* pages(): AsyncGenerator<ExportPage> {
    const fetched = allPages(async (page) => {
      const answer = await window({ filter, sort, offset: (page - 1) * EXPORT_PAGE_SIZE, limit: EXPORT_PAGE_SIZE });
      return { page, per_page: EXPORT_PAGE_SIZE, total_items: answer.total, total_pages: Math.ceil(answer.total / EXPORT_PAGE_SIZE), items: answer.rows };
    });
    for await (const page of fetched) yield { total: page.total_items, rows: page.items.map((row) => columns.flatMap((c) => c.cells(row))) };
  }
  return { header, pages: pages() };
}

/** The Jobs columns, in the table's order (the full uid, the dates the table shows and those it does not). */
const JOB_COLUMNS: [header: string, cell: (job: Job) => Cell][] = [
  ['status', (j) => j.status],
  ['engine', (j) => j.chain],
  ['uid', (j) => j.uid],
  ['tags', (j) => j.tags.join(', ')],
  ['created_date', (j) => j.created_date],
  ['scheduled_date', (j) => j.scheduled_date],
  ['start_date', (j) => j.start_date],
  ['issued_date', (j) => j.issued_date],
  ['finished_date', (j) => j.finished_date],
  ['failed_date', (j) => j.failed_date],
  ['failure_reason', (j) => j.failure_reason ?? null],
  ['transaction', (j) => j.transaction?.hash ?? null],
];

/**
 * The Jobs list as export rows, through the service's GET /jobs listing (embedded or remote).
 *
 * @example jobRows(service, 'failed', { by: 'created_date', order: 'desc' })
 */
export function jobRows(service: IssuingService, status: JobStatus | undefined, sort: JobSort): ExportRows {
  async function* pages(): AsyncGenerator<ExportPage> {
    const query = { ...(status ? { status } : {}), sort_by: sort.by, order: sort.order, per_page: JOB_PAGE_SIZE };
    for await (const page of allPages((n) => service.listJobs({ ...query, page: n }))) {
      yield { total: page.total_items, rows: page.items.map((job) => JOB_COLUMNS.map(([, cell]) => cell(job))) };
    }
  }
  return { header: JOB_COLUMNS.map(([header]) => header), pages: pages() };
}
