/**
 * The Jobs table over a remote service: the app (its IPC handlers on an AppContext holding the
 * real RemoteService) against a real `serve` on loopback, counting the requests the server
 * answered for a page of 100 jobs. Summaries cost a request each, so they are asked only for the
 * rows on screen and kept for jobs whose credentials can no longer change.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppContext } from '../../main/app/app-context.js';
import { inTransaction } from '../../main/engine/database.js';
import { createIpcHandlers, invokeIpcHandler, type IpcHandlers } from '../../main/app/ipc-handlers.js';
import { serveEngine, type ServedEngine } from './remote-fixture.js';

const JOBS = 100;
const PER_JOB = 3;
/** The rows a 1280×800 window shows of the Jobs table. */
const ON_SCREEN = 20;

let served: ServedEngine;
let routes: string[];
let handlers: IpcHandlers;
let partnerId: string;

/** Jobs in the served database: finished ones of PER_JOB credentials each, written as the issuer leaves them. */
async function seedFinishedJobs(): Promise<void> {
  const service = served.engine.serviceFor(partnerId);
  const created = await service.createCredentials(Array.from({ length: JOBS * PER_JOB }, (_, i) => ({ title: `Diploma ${String(i).padStart(3, '0')}`, metadata: { n: i } })));
  const db = served.engine.scopeFor(partnerId).db;
  const idOf = db.prepare('SELECT id FROM credentials WHERE uid = ?').pluck();
  const addJob = db.prepare(
    "INSERT INTO jobs (uid, partner_id, engine, status, created_date, start_date, issued_date, finished_date) VALUES (?, ?, 'local', 'finished', ?, ?, ?, ?)",
  );
  const carry = db.prepare("INSERT INTO job_credentials (job_id, credential_id, engine) VALUES (?, ?, 'local')");
  const base = Date.UTC(2026, 0, 1);
  inTransaction(db, () => {
    for (let j = 0; j < JOBS; j++) {
      const at = base + j * 60_000;
      const jobId = addJob.run(randomUUID(), partnerId, at, at, at, at).lastInsertRowid;
      for (let k = 0; k < PER_JOB; k++) carry.run(jobId, idOf.get(created[j * PER_JOB + k]!.uid));
    }
  });
}

/** The routes the server answered while `work` ran. */
async function requestsDuring(work: () => Promise<unknown>): Promise<string[]> {
  routes = [];
  await work();
  return routes;
}

const credentialRequests = (seen: string[]) => seen.filter((r) => /^GET \/api\/jobs\/[^/]+\/credentials$/.test(r)).length;

beforeEach(async () => {
  routes = [];
  served = await serveEngine({ onRequest: (line) => {
    const entry = JSON.parse(line) as { method: string; route: string | null };
    routes.push(`${entry.method} ${entry.route}`);
  } });
  const partner = await served.addPartner('Remote University');
  partnerId = partner.partnerId;
  await seedFinishedJobs();
  const remote = served.remote(partner);
  handlers = createIpcHandlers(createAppContext({ partner: { id: partner.partnerId, name: partner.name }, service: remote }));
});

afterEach(async () => {
  await served.close();
});

describe('Jobs summaries over a remote service (real serve on loopback, real RemoteService)', () => {
  it('lists a page of 100 jobs without a request per job, and asks summaries only for the rows on screen, once', async () => {
    let page!: Awaited<ReturnType<typeof invokeIpcHandler<'jobs:list'>>>;
    const listing = await requestsDuring(async () => (page = await invokeIpcHandler(handlers, 'jobs:list', [{ offset: 0, limit: JOBS }])));
    expect(page.rows).toHaveLength(JOBS);
    expect(page.total).toBe(JOBS);
    expect(credentialRequests(listing)).toBe(0);
    // The page itself and the five status counts; the token is asked once for the connection.
    expect(listing.filter((r) => r === 'GET /api/jobs').length).toBe(6);

    const shown = page.rows.slice(0, ON_SCREEN).map((j) => j.uid);
    let summaries: Record<string, { credentials: number; titles: string[] }> = {};
    const asked = await requestsDuring(async () => (summaries = await invokeIpcHandler(handlers, 'jobs:summaries', [shown])));
    expect(credentialRequests(asked)).toBe(ON_SCREEN);
    expect(Object.keys(summaries).sort()).toEqual([...shown].sort());
    // Newest first: the last job seeded carries the last three titles.
    expect(summaries[shown[0]!]).toMatchObject({ credentials: PER_JOB, titles: ['Diploma 297', 'Diploma 298'] });

    // A refresh (a job changed state, the window scrolled back): finished jobs' summaries are kept.
    let again!: typeof page;
    const refresh = await requestsDuring(async () => {
      again = await invokeIpcHandler(handlers, 'jobs:list', [{ offset: 0, limit: JOBS }]);
      await invokeIpcHandler(handlers, 'jobs:summaries', [shown]);
    });
    expect(credentialRequests(refresh)).toBe(0);
    expect(Object.keys(again.summaries)).toHaveLength(ON_SCREEN);
    expect(again.summaries[shown[0]!]?.credentials).toBe(PER_JOB);
  });

  it("asks a scheduled job's summary again each time: credentials still join it", async () => {
    const remote = served.remote(await served.addPartner('Scheduling College'));
    const ctx = createAppContext({ partner: { id: 'scheduling', name: 'Scheduling College' }, service: remote });
    const app = createIpcHandlers(ctx);
    const a = await remote.createCredential({ title: 'Thesis A', metadata: { n: 1 } });
    const b = await remote.createCredential({ title: 'Thesis B', metadata: { n: 2 } });
    const job = await remote.scheduleCredentials({ engine: 'local', credentials: [a.uid] });
    const page = await invokeIpcHandler(app, 'jobs:list', [{ offset: 0, limit: JOBS }]);
    expect(page.summaries).toEqual({});
    expect((await invokeIpcHandler(app, 'jobs:summaries', [[job.uid]]))[job.uid]).toMatchObject({ credentials: 1, titles: ['Thesis A'] });
    await remote.scheduleCredentials({ engine: 'local', credentials: [b.uid] });
    const again = await requestsDuring(async () => {
      await invokeIpcHandler(app, 'jobs:list', [{ offset: 0, limit: JOBS }]);
      expect((await invokeIpcHandler(app, 'jobs:summaries', [[job.uid]]))[job.uid]).toMatchObject({ credentials: 2, titles: ['Thesis A', 'Thesis B'] });
    });
    expect(credentialRequests(again)).toBe(1);
  });

  it("leaves out a job whose summary cannot be had, and still answers the others", async () => {
    const page = await invokeIpcHandler(handlers, 'jobs:list', [{ offset: 0, limit: JOBS }]);
    const shown = page.rows.slice(0, 3).map((j) => j.uid);
    const gone = randomUUID();
    const summaries = await invokeIpcHandler(handlers, 'jobs:summaries', [[shown[0]!, gone, shown[1]!, shown[2]!]]);
    expect(Object.keys(summaries).sort()).toEqual([...shown].sort());
    expect(summaries[gone]).toBeUndefined();
  });

  it('refuses more uids than a window holds, with invalid_value', async () => {
    const uids = Array.from({ length: 501 }, () => randomUUID());
    await expect(invokeIpcHandler(handlers, 'jobs:summaries', [uids])).rejects.toMatchObject({ id: 'invalid_value' });
  });
});
