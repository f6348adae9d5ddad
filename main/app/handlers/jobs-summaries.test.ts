import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine, jobSummaries } from '../../engine/index.js';
import { createAppContext } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler, type IpcHandlers } from '../ipc-handlers.js';

let dir: string;
let engine: Engine;
let handlers: IpcHandlers;
let otherPartner: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-job-summaries-'));
  engine = Engine.open({ dataDir: dir, sweepIntervalMs: false });
  const added = engine.partners.add({ name: 'Summaries U' });
  const partner = { id: added.partner_id, name: added.name };
  const service = engine.serviceFor(partner.id);
  const created = await service.createCredentials(Array.from({ length: 12 }, (_, i) => ({ title: `Diploma ${String(i).padStart(3, '0')}`, metadata: { n: i } })));
  await service.scheduleCredentials({ engine: 'local', credentials: created.map((c) => c.uid) });
  // Another Partner's job must never show through.
  const other = engine.partners.add({ name: 'Other U' });
  otherPartner = other.partner_id;
  const theirs = await engine.serviceFor(other.partner_id).createCredentials([{ title: 'Not yours', metadata: { n: 1 } }]);
  await engine.serviceFor(other.partner_id).scheduleCredentials({ engine: 'local', credentials: theirs.map((c) => c.uid) });
  handlers = createIpcHandlers(createAppContext({ engine, partner }));
});

afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the Jobs table summaries (real SQLite)', () => {
  it("gives each job its credential count and first titles in creation order, the Partner's jobs only", async () => {
    const window = await invokeIpcHandler(handlers, 'jobs:list', [{ offset: 0, limit: 50 }]);
    expect(window.rows).toHaveLength(1);
    const job = window.rows[0]!;
    expect(window.summaries).toEqual({ [job.uid]: { credentials: 12, titles: ['Diploma 000', 'Diploma 001'], finality: null } });
  });

  it("leaves out another Partner's job even when asked for its uid", async () => {
    const theirs = (await engine.serviceFor(otherPartner).listJobs({})).items[0]!.uid;
    const mine = (await invokeIpcHandler(handlers, 'jobs:list', [{ offset: 0, limit: 50 }])).rows[0]!.uid;
    const scope = engine.scopeFor(otherPartner);
    expect(Object.keys(jobSummaries(scope, [theirs, mine]))).toEqual([theirs]);
  });
});
