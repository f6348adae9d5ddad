/**
 * The app's views hear of job moves from the engine's events, not from reading jobs: a job
 * issued on the local anvil reaches the event bus as `job` events in order, for the active
 * Partner only, and nothing of the engine reaches it once the app has closed its watch; with the
 * engine's data on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../common/tasks.js';
import { createAppContext } from '../../main/app/app-context.js';
import { STORES } from '../support/engine-stores.js';
import { addIssuingPartner, createAndSchedule, openIssuingEngine, removeTempDirs, tickUntil, type IssuingFixture } from '../support/issuing-fixture.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';

describe.each(STORES)("the app's job events on %s", (kind) => {
  let fx: IssuingFixture;
  let database: TestDatabase | undefined;

  beforeAll(() => {
    database = kind === 'postgres' ? createTestDatabase() : undefined;
    fx = openIssuingEngine({ databaseUrl: database?.url });
  });

  afterAll(async () => {
    await fx?.close();
    database?.drop();
    removeTempDirs();
  });

  it("forwards the active Partner's job moves in order, and no other Partner's", async () => {
    const active = await addIssuingPartner(fx.engine, 'Active University');
    const other = await addIssuingPartner(fx.engine, 'Other College');
    const ctx = createAppContext({ engine: fx.engine, partner: { id: active.id, name: active.name } });
    const events: AppEvent[] = [];
    let finished: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const unsubscribe = ctx.events.subscribe((event) => {
      events.push(event);
      if (event.type === 'job' && event.status === 'finished') finished();
    });
    try {
      const { job: elsewhere } = await createAndSchedule(other.service, 'local', 1, 'Elsewhere');
      const { job } = await createAndSchedule(active.service, 'local', 2, 'Here');
      await active.service.issueJobNow({ engine: 'local' });
      await tickUntil(fx.engine, active.service, job.uid, 'finished');
      await done;
      const jobs = events.filter((e): e is Extract<AppEvent, { type: 'job' }> => e.type === 'job');
      expect(jobs.map((e) => [e.job_uid, e.status])).toEqual([
        [job.uid, 'scheduled'],
        [job.uid, 'started'],
        [job.uid, 'unconfirmed'],
        [job.uid, 'finished'],
      ]);
      expect(jobs.some((e) => e.job_uid === elsewhere.uid)).toBe(false);
      expect(events).toContainEqual({ type: 'counts', scopes: ['jobs', 'credentials'] });
    } finally {
      unsubscribe();
      ctx.close();
    }
    // Closed: the engine has no listener of the app's left.
    expect(fx.engine.events.size).toBe(0);
  });
});
