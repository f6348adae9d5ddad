import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../engine/index.js';
import { createAppContext } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler, type IpcHandlers } from '../ipc-handlers.js';

let dir: string;
let engine: Engine;
let handlers: IpcHandlers;
let jobUid: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-activity-jobs-'));
  engine = Engine.open({ dataDir: dir, sweepIntervalMs: false });
  const added = engine.partners.add({ name: 'Activity U' });
  const partner = { id: added.partner_id, name: added.name };
  const service = engine.serviceFor(partner.id);
  const created = await service.createCredentials(['Diploma — Ada Lovelace', 'Diploma — Grace Hopper', 'Diploma — Alan Turing'].map((title) => ({ title, metadata: { programme: 'BSc' } })));
  await service.scheduleCredentials({ engine: 'local', credentials: created.map((c) => c.uid) });
  jobUid = (await service.listJobs({})).items[0]!.uid;
  handlers = createIpcHandlers(createAppContext({ engine, partner }));
});

afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the Activity view\'s page (real SQLite)', () => {
  it('carries each credential\'s title and, once per job of the page, what the Jobs view names the job by', async () => {
    const page = await invokeIpcHandler(handlers, 'activity:list', [{ kind: 'scheduled', page: 1, per_page: 100 }]);
    expect(page.items.map((e) => [e.credential_title, e.job_uid])).toEqual([
      ['Diploma — Ada Lovelace', jobUid],
      ['Diploma — Grace Hopper', jobUid],
      ['Diploma — Alan Turing', jobUid],
    ]);
    expect(page.jobs).toEqual({ [jobUid]: { tags: [], summary: { credentials: 3, titles: ['Diploma — Ada Lovelace', 'Diploma — Grace Hopper'], finality: null } } });
  });

  it('names no job for a page whose entries name none', async () => {
    const page = await invokeIpcHandler(handlers, 'activity:list', [{ kind: 'created', page: 1, per_page: 100 }]);
    expect(page.items).toHaveLength(3);
    expect(page.jobs).toEqual({});
  });
});
