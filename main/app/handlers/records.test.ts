import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../../common/errors.js';
import type { AppEvent, TaskInfo } from '../../../common/tasks.js';
import { Engine } from '../../engine/index.js';
import { createAppContext, type AppContext } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler, type IpcHandlers } from '../ipc-handlers.js';
import { taskEnded } from '../../../test/support/task-ended.js';

let dir: string;
let engine: Engine;
let ctx: AppContext;
let handlers: IpcHandlers;
let events: AppEvent[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-app-handlers-'));
  engine = Engine.open({ dataDir: dir, sweepIntervalMs: false });
  const added = engine.partners.add({ name: 'Handlers U' });
  const partner = { id: added.partner_id, name: added.name };
  await engine.serviceFor(partner.id).createCredentials(Array.from({ length: 250 }, (_, i) => ({ title: `Record ${i}`, metadata: { n: i }, tags: [i < 120 ? 'group-a' : 'group-b'] })));
  ctx = createAppContext({ engine, partner });
  handlers = createIpcHandlers(ctx);
  events = [];
  ctx.events.subscribe((e) => events.push(e));
});

afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

function finished(task: TaskInfo): Promise<TaskInfo> {
  return taskEnded(ctx.events, ctx.tasks, task.id);
}

async function errorId(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'no error',
    (e: unknown) => (isServiceError(e) ? e.id : `not a ServiceError: ${String(e)}`),
  );
}

describe('records handlers (real SQLite)', () => {
  it('answers windows of rows with the total, never more than asked', async () => {
    const window = await invokeIpcHandler(handlers, 'records:window', [{ filter: { andTags: ['group-a'] }, sort: { by: 'title', order: 'asc' }, offset: 100, limit: 50 }]);
    expect(window.total).toBe(120);
    expect(window.rows).toHaveLength(20);
    expect(window.engines).toContain('local');
  });

  it('tags every record matching a filter as a task, names the count, and tells the views', async () => {
    const task = await invokeIpcHandler(handlers, 'records:editTags', [{ kind: 'filter', filter: { andTags: ['group-a'] } }, { mode: 'add', tags: ['bulk-tag'] }]);
    expect(task.state).toBe('running');
    expect(task.label).toBe('Adding tags to 120 credentials');
    const done = await finished(task);
    expect(done.state).toBe('done');
    expect(done.result).toMatchObject({ selected: 120, changed: 120 });
    expect(await invokeIpcHandler(handlers, 'records:total', [{ andTags: ['bulk-tag'] }])).toBe(120);
    expect(await invokeIpcHandler(handlers, 'records:total', [{ andTags: ['bulk-tag', 'group-b'] }])).toBe(0);
    expect(events.some((e) => e.type === 'counts' && e.scopes.includes('credentials'))).toBe(true);
    expect(events.filter((e) => e.type === 'task' && e.task.id === task.id).at(-1)).toMatchObject({ task: { state: 'done' } });
  });

  it('undoes a bulk tag change: every credential gets back exactly the tags it had, once, and a later change is kept', async () => {
    const service = engine.serviceFor(ctx.require().partner.id);
    const tagsByUid = async () => new Map((await service.listCredentials({ per_page: 0 })).items.map((c) => [c.uid, c.tags]));
    const before = await tagsByUid();
    const replaced = await finished(await invokeIpcHandler(handlers, 'records:editTags', [{ kind: 'filter', filter: { andTags: ['group-a'] } }, { mode: 'replace', tags: ['term-2026', 'group-a', 'honours'] }]));
    const result = replaced.result as { changed: number; undo: string };
    expect(result.changed).toBe(120);
    expect(typeof result.undo).toBe('string');
    // One of them changes again before the undo: its later tags stand.
    const later = [...before.keys()][0]!;
    await service.deleteCredentialTag(later, 'honours');

    const undone = await finished(await invokeIpcHandler(handlers, 'records:undoTags', [result.undo]));
    expect(undone.state).toBe('done');
    expect(undone.result).toEqual({ restored: 119, skipped: 1 });
    const after = await tagsByUid();
    for (const [uid, tags] of before) expect(after.get(uid)).toEqual(uid === later ? ['term-2026', 'group-a'] : tags);
    expect(events.filter((e) => e.type === 'counts').length).toBeGreaterThanOrEqual(2);

    // Each change is undone once.
    const again = await finished(await invokeIpcHandler(handlers, 'records:undoTags', [result.undo]));
    expect(again.state).toBe('failed');
    expect(again.error?.id).toBe('invalid_value');
    expect(await tagsByUid()).toEqual(after);
  });

  it('refuses an unknown engine before any task starts, and schedules on a known one', async () => {
    const selection = { kind: 'filter' as const, filter: { andTags: ['group-b'] } };
    expect(await errorId(invokeIpcHandler(handlers, 'records:schedule', [selection, ['no-such-engine']]))).toBe('wrong_blockchain_engine');
    expect(ctx.tasks.list()).toEqual([]);
    const done = await finished(await invokeIpcHandler(handlers, 'records:schedule', [selection, ['local']]));
    expect(done.result).toMatchObject({ selected: 130, engines: [{ engine: 'local', scheduled: 130 }] });
    const next = await invokeIpcHandler(handlers, 'jobs:nextIssuing', []);
    expect(next.intervalSeconds).toBe(24 * 3600);
    expect(Date.parse(next.nextIssuingDate!)).toBeGreaterThan(Date.now());
    const jobs = await invokeIpcHandler(handlers, 'jobs:list', [{ status: 'scheduled', offset: 0, limit: 10 }]);
    expect(jobs.total).toBe(1);
    expect(jobs.counts.scheduled).toBe(1);
  });

  it('switches Partners, and refuses one that is not in the data directory', async () => {
    const other = engine.partners.add({ name: 'Other U' });
    const status = await invokeIpcHandler(handlers, 'app:switchPartner', [other.partner_id]);
    expect(status.partner?.name).toBe('Other U');
    expect(status.partners.map((p) => p.name).sort()).toEqual(['Handlers U', 'Other U']);
    expect((await invokeIpcHandler(handlers, 'records:window', [{ filter: {}, offset: 0, limit: 10 }])).total).toBe(0);
    expect(await errorId(invokeIpcHandler(handlers, 'app:switchPartner', ['nobody']))).toBe('not_found');
    expect(events.some((e) => e.type === 'partner')).toBe(true);
  });

  it('offers one OS folder picker, titled by each caller, only where main has one (not in the browser bridge)', async () => {
    expect(await invokeIpcHandler(handlers, 'app:chooseFolder', ['Export'])).toBeNull();
    expect((await invokeIpcHandler(handlers, 'app:status', [])).canChooseFolder).toBe(false);
    // Stands in for Electron's dialog, which cannot run here (no Electron binary).
    const titles: string[] = [];
    const withPicker = createIpcHandlers(createAppContext({ engine, partner: ctx.partner(), chooseFolder: async (title) => (titles.push(title), `/chosen/for/${title}`) }));
    expect((await invokeIpcHandler(withPicker, 'app:status', [])).canChooseFolder).toBe(true);
    // The export dialog and Add watch folder ask the same channel, each with its own title.
    expect(await invokeIpcHandler(withPicker, 'app:chooseFolder', ['Export the proofs into'])).toBe('/chosen/for/Export the proofs into');
    expect(await invokeIpcHandler(withPicker, 'app:chooseFolder', ['Choose a folder to watch'])).toBe('/chosen/for/Choose a folder to watch');
    expect(titles).toEqual(['Export the proofs into', 'Choose a folder to watch']);
    expect(Object.keys(withPicker).filter((channel) => /folder/i.test(channel) && /pick|choose/i.test(channel))).toEqual(['app:chooseFolder']);
    // A missing, empty or overlong title is refused before any dialog opens.
    for (const args of [[], [''], ['x'.repeat(201)], [42]]) expect(await errorId(invokeIpcHandler(withPicker, 'app:chooseFolder', args as [string]))).toBe('invalid_value');
    expect(titles).toHaveLength(2);
  });

  it('over a service alone (remote mode) pages through GET /credentials and refuses a word search with the reason', async () => {
    // Remote mode: the embedded service stands in for the remote one (same IssuingService).
    const service = engine.serviceFor(engine.partners.list()[0]!.id);
    const remote = createIpcHandlers(createAppContext({ partner: { id: 'p', name: 'Remote' }, service }));
    const total = (await service.listCredentials({ per_page: 1 })).total_items;
    const window = await invokeIpcHandler(remote, 'records:window', [{ filter: {}, offset: 0, limit: 10 }]);
    expect(window.total).toBe(total);
    expect(window.rows.length).toBe(Math.min(10, total));
    expect(window.engines).toEqual([]);
    expect(await errorId(invokeIpcHandler(remote, 'records:window', [{ filter: { search: 'diploma' }, offset: 0, limit: 10 }]))).toBe('invalid_value');
  });
});
