/**
 * List exports through the app's handlers on a real SQLite engine: 100,000 records exported to
 * CSV and to an Excel workbook, read back with real parsers (csv-parse, exceljs's reader) —
 * every row, the view's columns in its order, a filtered export holding only the matching rows,
 * awkward values kept exactly and formula-looking text defused; the Jobs list; cancel; bad
 * requests; the activity log. The OS save dialog is a stand-in answering a path (Electron's
 * dialog cannot run here); the browser bridge's download is in test/e2e/list-export.e2e.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../common/errors.js';
import type { ListExportRequest, ListExportResult } from '../../common/ipc/list-export.js';
import type { TaskInfo } from '../../common/tasks.js';
import { Engine } from '../../main/engine/index.js';
import { createAppContext, type AppContext, type FileDialogRequest } from '../../main/app/app-context.js';
import { createIpcHandlers, invokeIpcHandler, type IpcHandlers } from '../../main/app/ipc-handlers.js';
import { taskEnded } from '../support/task-ended.js';

const COUNT = 100_000;
const AWKWARD = 'Smith, "Junior"\nÉcole polytechnique — Zürich ✓';
const FORMULA = '=SUM(1)';
const COLUMNS = ['uid', 'title', 'tags', 'files', 'linked', 'upload_date', 'expiry', 'state:local'];
const HEADER = ['uid', 'title', 'tags', 'files', 'linked_uids', 'linked_from_count', 'upload_date', 'expiry_date', 'state_local'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let dir: string;
let out: string;
let engine: Engine;
let ctx: AppContext;
let handlers: IpcHandlers;
/** What the stand-in save dialog answers next (null: cancelled), and what it was asked. */
let answer: string | null = null;
const asked: FileDialogRequest[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-list-export-'));
  out = join(dir, 'out');
  engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false });
  const added = engine.partners.add({ name: 'Export U' });
  const partner = { id: added.partner_id, name: added.name };
  const service = engine.serviceFor(partner.id);
  // The engine's batch create, 10,000 a call (as bench/workspace.bench.ts seeds).
  for (let start = 0; start < COUNT; start += 10_000) {
    await service.createCredentials(Array.from({ length: 10_000 }, (_, k) => ({ title: `Record ${start + k}`, metadata: { n: start + k }, tags: [(start + k) % 10 === 0 ? 'tenth' : 'other'] })));
  }
  await service.createCredentials([
    { title: AWKWARD, metadata: { n: -1 }, tags: ['special', 'tenth'] },
    { title: FORMULA, metadata: { n: -2 }, tags: ['special'] },
  ]);
  ctx = createAppContext({
    engine,
    partner,
    chooseFile: async (request) => {
      asked.push(request);
      return answer;
    },
  });
  handlers = createIpcHandlers(ctx);
  mkdirSync(out);
}, 300_000);

afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function exported(request: ListExportRequest, path: string): Promise<TaskInfo<ListExportResult>> {
  answer = path;
  const task = await invokeIpcHandler(handlers, 'listExport:start', [request]);
  expect(task).not.toBeNull();
  return (await taskEnded(ctx.events, ctx.tasks, task!.id)) as TaskInfo<ListExportResult>;
}

function readCsv(path: string): string[][] {
  const bytes = readFileSync(path);
  // Excel needs the byte order mark to read UTF-8.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(bytes, { bom: true, relax_column_count: false }) as string[][];
}

/** Every row of the first sheet, through exceljs's streaming reader, as arrays of cell values. */
async function readXlsx(path: string): Promise<{ values: unknown[]; types: number[] }[]> {
  const rows: { values: unknown[]; types: number[] }[] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', entries: 'ignore' });
  for await (const sheet of reader) {
    for await (const row of sheet) {
      const values = (row.values as unknown[]).slice(1);
      const types: number[] = [];
      row.eachCell({ includeEmpty: true }, (cell) => types.push(cell.type));
      rows.push({ values, types });
    }
  }
  return rows;
}

const everything = (format: 'csv' | 'xlsx'): Extract<ListExportRequest, { list: 'records' }> => ({ list: 'records', format, filter: {}, sort: { by: 'upload_date', order: 'asc' }, columns: COLUMNS });

describe('list exports (real SQLite, real parsers)', () => {
  it('exports 100,000 records to CSV: every row, the columns in order, ISO dates, plain numbers', async () => {
    const path = join(out, 'all.csv');
    const events: number[] = [];
    const off = ctx.events.subscribe((e) => e.type === 'task' && e.task.kind === 'export-list' && e.task.state === 'running' && events.push(e.task.done));
    const done = await exported(everything('csv'), path);
    off();
    expect(done.state).toBe('done');
    expect(done.label).toBe('Exporting 100,002 credentials to CSV');
    expect(done.result).toMatchObject({ rows: COUNT + 2, path, download: null, list: 'records', format: 'csv' });
    expect(asked.at(-1)).toMatchObject({ kind: 'save', defaultName: expect.stringMatching(/^records-\d{4}-\d{2}-\d{2}\.csv$/), extensions: ['csv'], filterName: 'native.filter.csv' });
    // Progress came as rows written of the total, more than once on the way.
    expect(events.filter((n) => n > 0 && n < COUNT).length).toBeGreaterThan(0);
    const rows = readCsv(path);
    expect(rows).toHaveLength(COUNT + 3);
    expect(rows[0]).toEqual(HEADER);
    expect(rows[1]!.slice(1, 4)).toEqual(['Record 0', 'tenth', '0']);
    expect(rows[1]![6]).toMatch(ISO);
    expect(rows[1]![8]).toBe('not_scheduled');
    expect(rows[COUNT]![1]).toBe(`Record ${COUNT - 1}`);
    // Nothing but the file is left in the folder (the partial file was renamed onto it).
    expect(readdirSync(out)).toEqual(['all.csv']);
  }, 300_000);

  it('exports 100,000 records to an Excel workbook, streamed, read back with exceljs', async () => {
    const path = join(out, 'all.xlsx');
    const done = await exported(everything('xlsx'), path);
    expect(done.state).toBe('done');
    expect(done.label).toBe('Exporting 100,002 credentials to an Excel workbook');
    const rows = await readXlsx(path);
    expect(rows).toHaveLength(COUNT + 3);
    expect(rows[0]!.values).toEqual(HEADER);
    expect(rows[1]!.values.slice(1, 4)).toEqual(['Record 0', 'tenth', 0]);
    expect(rows[1]!.values[6]).toMatch(ISO);
    expect(rows[COUNT]!.values[1]).toBe(`Record ${COUNT - 1}`);
  }, 300_000);

  it('exports only the rows the filter matches, sorted as asked, with awkward and formula-looking values safe', async () => {
    const filtered: ListExportRequest = { list: 'records', format: 'csv', filter: { andTags: ['special'] }, sort: { by: 'title', order: 'asc' }, columns: ['title', 'tags', 'uid'] };
    const csv = await exported(filtered, join(out, 'special')); // no extension typed: .csv is added
    expect(csv.result?.path).toBe(join(out, 'special.csv'));
    const rows = readCsv(join(out, 'special.csv'));
    // The title sort puts `=SUM(1)` before `Smith…`; its text is kept, but defused with a leading ' (OWASP).
    expect(rows.map((r) => r.slice(0, 2))).toEqual([
      ['title', 'tags'],
      [`'${FORMULA}`, 'special'],
      [AWKWARD, 'special, tenth'],
    ]);
    const text = readFileSync(join(out, 'special.csv'), 'utf8');
    expect(text).toContain(`"Smith, ""Junior""\nÉcole polytechnique — Zürich ✓"`);
    expect(text).not.toMatch(/(^|,)=SUM/m);

    const xlsx = await exported({ ...filtered, format: 'xlsx' }, join(out, 'special.xlsx'));
    expect(xlsx.result?.rows).toBe(2);
    const sheet = await readXlsx(join(out, 'special.xlsx'));
    expect(sheet.map((r) => r.values.slice(0, 2))).toEqual([
      ['title', 'tags'],
      [FORMULA, 'special'],
      [AWKWARD, 'special, tenth'],
    ]);
    // In the workbook `=SUM(1)` is a text cell, never a formula: Excel shows it and runs nothing.
    expect(sheet[1]!.types[0]).toBe(ExcelJS.ValueType.String);
    expect(sheet.flatMap((r) => r.types)).not.toContain(ExcelJS.ValueType.Formula);

    // A search and a tag filter: exactly the tenth records.
    const tenth = await exported({ ...everything('csv'), filter: { andTags: ['tenth'] } }, join(out, 'tenth.csv'));
    expect(tenth.result?.rows).toBe(COUNT / 10 + 1);
    expect(readCsv(join(out, 'tenth.csv')).slice(1).every((r) => r[2]!.split(', ').includes('tenth'))).toBe(true);
  }, 120_000);

  it('exports the Jobs list of a status, and logs every export as `exported`', async () => {
    const service = engine.serviceFor(ctx.partner()!.id);
    const uids = (await service.listCredentials({ and_tags: 'special', per_page: 10 })).items.map((c) => c.uid);
    const job = await service.scheduleCredentials({ engine: 'local', credentials: uids });
    const done = await exported({ list: 'jobs', format: 'csv', status: 'scheduled' }, join(out, 'jobs.csv'));
    expect(done.label).toBe('Exporting 1 scheduled job to CSV');
    const rows = readCsv(join(out, 'jobs.csv'));
    expect(rows[0]).toEqual(['status', 'engine', 'uid', 'tags', 'created_date', 'scheduled_date', 'start_date', 'issued_date', 'finished_date', 'failed_date', 'failure_reason', 'transaction']);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([['scheduled', 'local', job.uid]]);
    expect(rows[1]![4]).toMatch(ISO);
    expect((await exported({ list: 'jobs', format: 'xlsx', status: 'failed' }, join(out, 'failed.xlsx'))).result?.rows).toBe(0);

    const log = await service.listActivity!({ kind: 'exported', per_page: 100 });
    const lists = log.items.filter((e) => e.detail?.list !== undefined).map((e) => [e.detail!.list, e.detail!.format, e.detail!.rows]);
    expect(lists).toEqual(
      expect.arrayContaining([
        ['records', 'csv', COUNT + 2],
        ['records', 'xlsx', COUNT + 2],
        ['records', 'csv', 2],
        ['jobs', 'csv', 1],
        ['jobs', 'xlsx', 0],
      ]),
    );
  }, 60_000);

  it('stops on cancel and leaves no file behind; a cancelled dialog writes nothing', async () => {
    const before = readdirSync(out).sort();
    answer = join(out, 'cancelled.xlsx');
    const task = await invokeIpcHandler(handlers, 'listExport:start', [everything('xlsx')]);
    const ended = taskEnded(ctx.events, ctx.tasks, task!.id);
    expect(ctx.tasks.cancel(task!.id)).toBe(true);
    expect((await ended).state).toBe('cancelled');
    expect(readdirSync(out).sort()).toEqual(before);

    answer = null;
    expect(await invokeIpcHandler(handlers, 'listExport:start', [everything('csv')])).toBeNull();
    expect(readdirSync(out).sort()).toEqual(before);
  }, 60_000);

  it('refuses bad requests and bad places with the spec error id, writing nothing', async () => {
    const errorId = (call: Promise<unknown>) =>
      call.then(
        () => 'no error',
        (e: unknown) => (isServiceError(e) ? e.id : String(e)),
      );
    const before = readdirSync(out).sort();
    answer = join(out, 'bad.csv');
    const start = (request: unknown) => errorId(invokeIpcHandler(handlers, 'listExport:start', [request]));
    expect(await start({ ...everything('csv'), columns: ['uid', 'password'] })).toBe('invalid_value');
    expect(await start({ ...everything('csv'), columns: ['uid', 'uid'] })).toBe('invalid_value');
    expect(await start({ ...everything('csv'), columns: [] })).toBe('invalid_value');
    expect(await start({ ...everything('csv'), format: 'pdf' })).toBe('invalid_value');
    expect(await start({ ...everything('csv'), filter: { andTags: ['x'] } })).toBe('invalid_tag');
    expect(await start({ list: 'jobs', format: 'csv', status: 'lost' })).toBe('invalid_value');
    expect(await start({ ...everything('csv'), columns: ['state:nowhere'] })).toBe('wrong_blockchain_engine');
    answer = join(out, 'no-such-folder', 'x.csv');
    expect(await start(everything('csv'))).toBe('invalid_value');
    answer = 'relative.csv';
    expect(await start(everything('csv'))).toBe('invalid_value');
    const folder = join(dir, 'a-folder.csv');
    mkdirSync(folder);
    answer = folder; // a folder, not a file
    expect(await start(everything('csv'))).toBe('invalid_value');
    expect(readdirSync(out).sort()).toEqual(before);
    expect(readdirSync(folder)).toEqual([]);
  }, 60_000);
});
