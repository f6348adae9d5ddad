/**
 * The bringing-in handlers on a real engine and the real task runner: a cancelled create keeps its
 * per-row results; the detail of a credential shows its whole record (links both ways) and its
 * state; unscheduling the last hold deletes it, as the spec says.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StagingCreateRow } from '../../../common/ipc/staging.js';
import type { TaskInfo } from '../../../common/tasks.js';
import { makeTempDir, openEngineWithPartner, type EngineFixture, type TestPartner } from '../../../test/support/engine-fixture.js';
import { taskEnded } from '../../../test/support/task-ended.js';
import { createAppContext, type AppContext } from '../app-context.js';
import { createIpcHandlers, type IpcHandlers } from '../ipc-handlers.js';

let fixture: EngineFixture;
let partner: TestPartner;
let ctx: AppContext;
let handlers: IpcHandlers;

beforeEach(() => {
  ({ fixture, partner } = openEngineWithPartner());
  ctx = createAppContext({ engine: fixture.engine, partner: { id: partner.id, name: partner.name } });
  handlers = createIpcHandlers(ctx);
});
afterEach(() => fixture.close());

function finished(taskId: string): Promise<TaskInfo> {
  return taskEnded(ctx.events, ctx.tasks, taskId);
}

describe('staging handlers', () => {
  it('names the task after the work and keeps per-row results after a cancel', async () => {
    const dir = makeTempDir('proofdesk-handlers-');
    const rows: StagingCreateRow[] = Array.from({ length: 40 }, (_, i) => {
      const path = join(dir, `f${i}.pdf`);
      writeFileSync(path, `file ${i}`);
      return { key: path, file: { path, file_hash: '' }, title: `File ${i}`, metadata: {}, tags: [], expiry_date: null, links: [] };
    });
    const task = await handlers['staging:create']({ rows, engine: 'local', allow_duplicates: false });
    expect(task.label).toBe('Creating and scheduling 40 credentials');
    const done = finished(task.id);
    await handlers['tasks:cancel'](task.id);
    const end = await done;
    expect(end.state).toBe('cancelled');

    const outcome = await handlers['staging:outcome'](task.id);
    expect(outcome!.outcomes).toHaveLength(40);
    const created = outcome!.outcomes.filter((o) => o.status === 'created').length;
    expect(outcome!.outcomes.filter((o) => o.status === 'not_created').length).toBe(40 - created);
    expect((await partner.service.listCredentials({ per_page: 1 })).total_items).toBe(created);
    expect(await handlers['staging:outcome']('no-such-task')).toBeNull();
  });
});

describe('CSV import handlers', () => {
  it('imports, answers the outcome of the task (also after a cancel), and retries the refused from the corrected file', async () => {
    const dir = makeTempDir('proofdesk-csv-handlers-');
    const path = join(dir, 'results.csv');
    writeFileSync(path, 'title,key,link,grade\nTranscript,t1,,A\nResult,r1,t1,B\nBad,b1,t1,\n');
    const preview = await handlers['csvImport:preview'](path, null, []);
    expect([preview.total_rows, preview.valid_rows, preview.rows.filter((r) => r.errors.length > 0).map((r) => r.errors[0]!.id)]).toEqual([3, 2, ['missing_file_and_metadata']]);

    const task = await handlers['csvImport:run'](path, preview.mapping, { engine: 'local', rows: null, edits: [] });
    expect(task.label).toBe('Importing 3 credentials from results.csv');
    const end = await finished(task.id);
    const result = end.result as { created: { row: number }[]; refused: { row: number }[] };
    expect([result.created.map((c) => c.row), result.refused.map((r) => r.row)]).toEqual([[1, 2], [3]]);
    expect(await handlers['csvImport:outcome'](task.id)).toEqual(result);

    // The corrected file, uploaded anew under another path: row 3 links to t1, created the first time.
    const fixedDir = makeTempDir('proofdesk-csv-handlers-');
    const fixed = join(fixedDir, 'results.csv');
    writeFileSync(fixed, 'title,key,link,grade\nTranscript,t1,,A\nResult,r1,t1,B\nBad,b1,t1,C\n');
    const retry = await handlers['csvImport:run'](fixed, preview.mapping, { engine: null, rows: [3], edits: [] });
    const again = (await finished(retry.id)).result as { created: { uid: string }[]; refused: unknown[] };
    expect(again.refused).toEqual([]);
    const bad = await partner.service.getCredential(again.created[0]!.uid);
    const transcript = (await partner.service.listCredentials({ per_page: 0 })).items.find((c) => c.title === 'Transcript')!;
    expect(bad.credentials.map((c) => c.uid)).toEqual([transcript.uid]);
    expect((await partner.service.listCredentials({ per_page: 1 })).total_items).toBe(3);

    const cancelled = await handlers['csvImport:run'](fixed, preview.mapping, { engine: null, rows: null, edits: [] });
    const stop = finished(cancelled.id);
    await handlers['tasks:cancel'](cancelled.id);
    expect((await stop).state).toBe('cancelled');
    const outcome = await handlers['csvImport:outcome'](cancelled.id);
    expect(outcome!.created.length + outcome!.refused.length + outcome!.not_created.length).toBe(3);
    for (const row of outcome!.not_created) expect(row.reason).toMatch(/Cancelled|not created/);
  });
});

describe('CSV import with cells fixed in the dialog', () => {
  it('re-checks with the edits, imports the rows that then pass, and never writes the file', async () => {
    const path = join(makeTempDir('proofdesk-csv-edits-'), 'grades.csv');
    const text = 'title,expiry_date,link,grade\nAda,,,A\n,,,B\nCy,31.12.2030,,C\nDi,,018f0000-0000-7000-8000-00000000dead,D\n';
    writeFileSync(path, text);
    const before = await handlers['csvImport:preview'](path, null, []);
    expect(before.valid_rows).toBe(1);
    expect(before.rows.map((r) => r.errors.map((e) => [e.column, e.reason]))).toEqual([[], [['title', 'title_missing']], [['expiry_date', 'date_invalid']], [['link', 'link_unknown']]]);

    const edits = [
      { row: 2, column: 'title', value: 'Bo' },
      { row: 3, column: 'expiry_date', value: '2030-12-31' },
    ];
    const after = await handlers['csvImport:preview'](path, before.mapping, edits);
    expect(after.valid_rows).toBe(3);
    expect(after.rows[1]!.cells).toEqual(['Bo', '', '', 'B']);
    await expect(handlers['csvImport:preview'](path, before.mapping, [{ row: 9, column: 'title', value: 'x' }])).rejects.toMatchObject({ id: 'invalid_value' });
    await expect(handlers['csvImport:preview'](path, before.mapping, [{ row: 1, column: 'nope', value: 'x' }])).rejects.toMatchObject({ id: 'invalid_value' });

    const count = (await partner.service.listCredentials({ per_page: 1 })).total_items;
    const task = await handlers['csvImport:run'](path, before.mapping, { engine: null, rows: null, edits });
    const result = (await finished(task.id)).result as { created: { row: number; title: string }[]; refused: { row: number; error: { id: string } }[] };
    expect(result.created.map((c) => [c.row, c.title])).toEqual([[1, 'Ada'], [2, 'Bo'], [3, 'Cy']]);
    expect(result.refused.map((r) => [r.row, r.error.id])).toEqual([[4, 'missing_credential']]);
    expect((await partner.service.listCredentials({ per_page: 1 })).total_items).toBe(count + 3);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});

describe('detail handlers', () => {
  it('shows the whole record both ways and the state on each engine; unscheduling the last hold deletes what nothing links to', async () => {
    const diploma = await partner.service.createCredential({ title: 'Diploma', metadata: { a: '1' } });
    const transcript = await partner.service.createCredential({ title: 'Transcript', metadata: { a: '2' }, credentials: [diploma.uid] });
    const result = await partner.service.createCredential({ title: 'Result', metadata: { a: '3' }, credentials: [transcript.uid] });
    await partner.service.scheduleCredentials({ engine: 'local', credentials: [transcript.uid] });

    const detail = await handlers['detail:get'](transcript.uid);
    expect(detail.record_size).toBe(3);
    expect(detail.record).toEqual([
      { uid: diploma.uid, title: 'Diploma', upload_date: diploma.upload_date, children: [{ uid: transcript.uid, title: 'Transcript', upload_date: transcript.upload_date, children: [{ uid: result.uid, title: 'Result', upload_date: result.upload_date, children: [] }] }] },
    ]);
    expect(Object.fromEntries(detail.engines.map((e) => [e.engine, e.state]))).toEqual({ local: 'scheduled', sepolia: 'not_scheduled' });

    await expect(handlers['detail:revoke'](transcript.uid, 'local')).rejects.toMatchObject({ id: 'missing_certificate_by_credential' });
    await expect(handlers['detail:unschedule'](diploma.uid, 'local')).rejects.toMatchObject({ id: 'credential_not_scheduled' });
    // Another credential links to it: it stays, not scheduled any more.
    const after = await handlers['detail:unschedule'](transcript.uid, 'local');
    expect(after!.engines.find((e) => e.engine === 'local')!.state).toBe('not_scheduled');
    // Nothing links to it and it is held nowhere else: the spec's unschedule deletes it.
    await partner.service.scheduleCredentials({ engine: 'local', credentials: [result.uid] });
    expect(await handlers['detail:unschedule'](result.uid, 'local')).toBeNull();
    await expect(handlers['detail:get'](result.uid)).rejects.toMatchObject({ id: 'missing_credential' });
  });
});
