/**
 * The engine says what changed: a job issued on the local anvil announces each of its moves in
 * order, revocations and credential changes are announced, and a write by another connection to
 * the same data directory (another process, as `watch` or `serve` beside the app) is announced too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobStatus } from '../../common/wire-types.js';
import { inTransaction } from '../../main/engine/database.js';
import { Engine, type EngineEvent } from '../../main/engine/index.js';
import { openScheduledJob } from '../../main/engine/jobs.js';
import { addIssuingPartner, createAndSchedule, openIssuingEngine, removeTempDirs, tickUntil, type IssuingFixture } from '../support/issuing-fixture.js';

/** Every event the engine delivers from now on, and a way to await one. */
function record(engine: Engine): { events: EngineEvent[]; next(match: (e: EngineEvent) => boolean): Promise<EngineEvent>; stop(): void } {
  const events: EngineEvent[] = [];
  const waiting: { match: (e: EngineEvent) => boolean; resolve: (e: EngineEvent) => void }[] = [];
  const stop = engine.events.subscribe((event) => {
    events.push(event);
    for (const w of [...waiting]) {
      if (!w.match(event)) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(event);
    }
  });
  return {
    events,
    stop,
    next: (match) => {
      const seen = events.find(match);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ match, resolve }));
    },
  };
}

describe('engine events', () => {
  let fx: IssuingFixture;

  beforeAll(() => {
    fx = openIssuingEngine();
  });

  afterAll(async () => {
    await fx?.close();
    removeTempDirs();
  });

  it('announces a job issued on the local chain move by move, in order, after each is committed', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Events University');
    const seen = record(fx.engine);
    try {
      const { job } = await createAndSchedule(partner.service, 'local', 3, 'Events');
      await partner.service.issueJobNow({ engine: 'local' });
      await tickUntil(fx.engine, partner.service, job.uid, 'finished');
      await seen.next((e) => e.type === 'job-state' && e.jobUid === job.uid && e.to === 'finished');

      const moves = seen.events.filter((e): e is Extract<EngineEvent, { type: 'job-state' }> => e.type === 'job-state' && e.jobUid === job.uid);
      expect(moves.map((m) => [m.from, m.to])).toEqual([
        [null, 'scheduled'],
        ['scheduled', 'started'],
        ['started', 'unconfirmed'],
        ['unconfirmed', 'finished'],
      ] satisfies [JobStatus | null, JobStatus][]);
      expect(moves.every((m) => m.partnerId === partner.id && m.engine === 'local')).toBe(true);
      // Each move was announced once it could be read back.
      expect(seen.events).toContainEqual({ type: 'credentials', partnerId: partner.id, change: 'created', count: 3 });
      expect(seen.events).toContainEqual({ type: 'credentials', partnerId: partner.id, change: 'scheduled', count: 3 });
      expect(seen.events).toContainEqual({ type: 'counts', partnerId: partner.id, of: 'jobs' });

      const certificate = (await partner.service.listJobCertificates(job.uid)).items[0]!.certificate;
      await partner.service.revokeCertificate(certificate.uid);
      expect(await seen.next((e) => e.type === 'certificate-revoked')).toEqual({ type: 'certificate-revoked', partnerId: partner.id, certificateUid: certificate.uid, engine: 'local' });
    } finally {
      seen.stop();
    }
  });

  it('announces nothing for a change that was rolled back', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Rollback College');
    const seen = record(fx.engine);
    try {
      // A job opened inside a transaction that then fails: the job never existed for anyone.
      const scope = fx.engine.scopeFor(partner.id);
      expect(() =>
        inTransaction(scope.db, () => {
          openScheduledJob(scope, 'local');
          throw new Error('undone');
        }),
      ).toThrow('undone');
      const { job } = await createAndSchedule(partner.service, 'local', 1, 'After');
      // The later, committed job is announced; nothing was announced for the refused call before it.
      const first = await seen.next((e) => e.type === 'job-state' && e.partnerId === partner.id);
      expect(first).toMatchObject({ jobUid: job.uid, from: null, to: 'scheduled' });
    } finally {
      seen.stop();
    }
  });

  it("announces another connection's writes to the same data directory (another process)", async () => {
    const partner = await addIssuingPartner(fx.engine, 'Elsewhere Institute');
    const seen = record(fx.engine);
    // A second engine on the same data directory: its own SQLite connection, as another process has.
    const other = Engine.open({ dataDir: fx.dataDir, sweepIntervalMs: false, secrets: fx.secrets, issuing: { onError: () => undefined } });
    try {
      const { job } = await createAndSchedule(other.serviceFor(partner.id), 'local', 2, 'Elsewhere');
      const announced = await seen.next((e) => e.type === 'job-state' && e.jobUid === job.uid);
      expect(announced).toEqual({ type: 'job-state', partnerId: partner.id, jobUid: job.uid, engine: 'local', from: null, to: 'scheduled' });
      expect(await seen.next((e) => e.type === 'counts' && e.partnerId === partner.id)).toEqual({ type: 'counts', partnerId: partner.id, of: 'jobs' });
    } finally {
      seen.stop();
      await other.close();
    }
  });
});
