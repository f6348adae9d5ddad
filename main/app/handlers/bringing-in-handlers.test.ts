/**
 * H6b's handlers on a real engine and the real task runner: a cancelled create keeps its
 * per-row results; the detail of a credential shows its whole record (links both ways) and its
 * state; unscheduling the last hold deletes it, as the spec says.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StagingCreateRow } from '../../../common/ipc/staging.js';
import type { TaskInfo } from '../../../common/tasks.js';
import { addPartner, makeTempDir, openEngine, type EngineFixture, type TestPartner } from '../../../test/support/engine-fixture.js';
import { createAppContext, type AppContext } from '../app-context.js';
import { createIpcHandlers, type IpcHandlers } from '../ipc-handlers.js';

let fixture: EngineFixture;
let partner: TestPartner;
let ctx: AppContext;
let handlers: IpcHandlers;

beforeEach(() => {
  fixture = openEngine();
  partner = addPartner(fixture.engine, 'University A');
  ctx = createAppContext({ engine: fixture.engine, partner: { id: partner.id, name: partner.name } });
  handlers = createIpcHandlers(ctx);
});
afterEach(() => fixture.close());

function finished(taskId: string): Promise<TaskInfo> {
  return new Promise((resolve) => {
    const off = ctx.events.subscribe((event) => {
      if (event.type === 'task' && event.task.id === taskId && event.task.state !== 'running') {
        off();
        resolve(event.task);
      }
    });
  });
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
