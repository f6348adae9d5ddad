/**
 * The engine says what changed, on both stores: a job issued on the local anvil announces each
 * of its moves in order, revocations and credential changes are announced, and a write by another
 * connection to the same database (another process on the data directory, another node on the
 * PostgreSQL database) is announced too. On PostgreSQL every node hears every move another node
 * makes, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobStatus } from '../../common/wire-types.js';
import { inTransaction } from '../../main/engine/database.js';
import { Engine, type EngineEvent } from '../../main/engine/index.js';
import { openScheduledJob } from '../../main/engine/jobs.js';
import { STORES } from '../support/engine-stores.js';
import { addIssuingPartner, createAndSchedule, openIssuingEngine, removeTempDirs, tickUntil, type IssuingFixture } from '../support/issuing-fixture.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';

/** The moves a job makes when issued on the local chain, from its creation on. */
const LOCAL_MOVES = [
  [null, 'scheduled'],
  ['scheduled', 'started'],
  ['started', 'unconfirmed'],
  ['unconfirmed', 'finished'],
] satisfies [JobStatus | null, JobStatus][];

/** The moves of one job among events, as [from, to]. */
function movesOf(events: EngineEvent[], jobUid: string): Extract<EngineEvent, { type: 'job-state' }>[] {
  return events.filter((e): e is Extract<EngineEvent, { type: 'job-state' }> => e.type === 'job-state' && e.jobUid === jobUid);
}

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

describe.each(STORES)('engine events on %s', (kind) => {
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

  it('announces a job issued on the local chain move by move, in order, after each is committed', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Events University');
    const seen = record(fx.engine);
    try {
      const { job } = await createAndSchedule(partner.service, 'local', 3, 'Events');
      await partner.service.issueJobNow({ engine: 'local' });
      await tickUntil(fx.engine, partner.service, job.uid, 'finished');
      await seen.next((e) => e.type === 'job-state' && e.jobUid === job.uid && e.to === 'finished');

      // Issuing on the local chain moves the job several times within a second: every move is announced.
      const moves = movesOf(seen.events, job.uid);
      expect(moves.map((m) => [m.from, m.to])).toEqual(LOCAL_MOVES);
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

  it("announces another connection's writes to the same database (another process, another node)", async () => {
    const partner = await addIssuingPartner(fx.engine, 'Elsewhere Institute');
    const seen = record(fx.engine);
    // A second engine with a connection of its own: another process on the data directory (the
    // home of the database's `local` chain on PostgreSQL; nodes of their own data directories
    // are the next describe's).
    const other = Engine.open({
      dataDir: fx.dataDir,
      databaseUrl: database?.url,
      sweepIntervalMs: false,
      secrets: fx.secrets,
      issuing: { onError: () => undefined },
    });
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

describe('engine events of two nodes on one PostgreSQL database', () => {
  let database: TestDatabase;
  let nodeA: IssuingFixture;
  let nodeB: IssuingFixture;

  beforeAll(() => {
    database = createTestDatabase();
    nodeA = openIssuingEngine({ databaseUrl: database.url });
    nodeB = openIssuingEngine({ databaseUrl: database.url, secrets: nodeA.secrets });
  });

  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    database?.drop();
    removeTempDirs();
  });

  it("node B hears every move of a job node A issues on its local chain, in order, and node A's revocation", async () => {
    const partner = await addIssuingPartner(nodeA.engine, 'Two Nodes University');
    const heardOnB = record(nodeB.engine);
    try {
      const { job } = await createAndSchedule(partner.service, 'local', 2, 'Across');
      await partner.service.issueJobNow({ engine: 'local' });
      await tickUntil(nodeA.engine, partner.service, job.uid, 'finished');
      await heardOnB.next((e) => e.type === 'job-state' && e.jobUid === job.uid && e.to === 'finished');

      const moves = movesOf(heardOnB.events, job.uid);
      expect(moves.map((m) => [m.from, m.to])).toEqual(LOCAL_MOVES);
      expect(moves.every((m) => m.partnerId === partner.id && m.engine === 'local')).toBe(true);
      expect(heardOnB.events).toContainEqual({ type: 'counts', partnerId: partner.id, of: 'jobs' });

      const certificate = (await partner.service.listJobCertificates(job.uid)).items[0]!.certificate;
      await partner.service.revokeCertificate(certificate.uid);
      expect(await heardOnB.next((e) => e.type === 'certificate-revoked')).toEqual({ type: 'certificate-revoked', partnerId: partner.id, certificateUid: certificate.uid, engine: 'local' });
    } finally {
      heardOnB.stop();
    }
  });
});
