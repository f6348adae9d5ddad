/**
 * A job's moves are each announced, in order, on both stores, even when they follow each other
 * within one turn of the process; and on PostgreSQL the change log the events are read from
 * loses no change committed out of the order it was made in, and keeps ten minutes of rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../main/engine/clock.js';
import { insertCredentials } from '../../main/engine/credentials.js';
import { parseCreateCredentialBody } from '../../main/engine/credential-input.js';
import type { Db } from '../../main/engine/database.js';
import { EngineCatalog } from '../../main/engine/engine-catalog.js';
import { engineEventsOf, type EngineEvent } from '../../main/engine/events/engine-events.js';
import { watchChanges } from '../../main/engine/events/watch-changes.js';
import { recordJobFinished, recordJobMined } from '../../main/engine/issuing/job-dates.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import { scheduleCredentials } from '../../main/engine/scheduling.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { PostgresDb } from '../../main/engine/store/postgres-db.js';
import { createEngineStore, STORES, type EngineStore, type StoreKind } from '../support/engine-stores.js';
import { createTestDatabase } from '../support/postgres-database.js';

/** A Partner's scope on a connection, with what job scheduling needs. */
function scopeOn(db: Db, partnerId: string): PartnerScope {
  return { db, partner: { id: partnerId, name: partnerId }, clock: systemClock, actor: 'tester', catalog: new EngineCatalog() } as unknown as PartnerScope;
}

/** Schedules a new credential of the Partner: its open job, created now; returns the job's id and uid. */
function newJob(db: Db, partnerId: string, title: string): { id: number; uid: string } {
  const scope = scopeOn(db, partnerId);
  const [credential] = insertCredentials(scope, [parseCreateCredentialBody({ title, metadata: { year: 2026 } })]);
  const id = scheduleCredentials(scope, { engine: 'local', credentials: [credential!.uid] });
  return { id, uid: db.prepare('SELECT uid FROM jobs WHERE id = ?').pluck().get(id) as string };
}

/** Starts a scheduled job, as the job issuer does. */
function startJob(db: Db, jobId: number): void {
  db.prepare("UPDATE jobs SET status = 'started', start_date = ? WHERE id = ? AND status = 'scheduled'").run(Date.now(), jobId);
}

/** What a connection's engine events deliver, and a way to await them. */
function listen(db: Db, everyMs: number): { heard: EngineEvent[]; until(match: (heard: EngineEvent[]) => boolean): Promise<void>; stop(): void } {
  const events = engineEventsOf(db);
  const stopWatching = watchChanges(db, events, everyMs);
  const heard: EngineEvent[] = [];
  const waiters = new Set<() => void>();
  const unsubscribe = events.subscribe((event) => {
    heard.push(event);
    for (const waiter of [...waiters]) waiter();
  });
  return {
    heard,
    until: (match) =>
      new Promise((resolve) => {
        const check = () => {
          if (!match(heard)) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    stop() {
      unsubscribe();
      stopWatching();
    },
  };
}

/** The [from, to] moves of one job among the events heard. */
function movesOf(heard: EngineEvent[], jobUid: string): [string | null, string][] {
  return heard.flatMap((e) => (e.type === 'job-state' && e.jobUid === jobUid ? [[e.from, e.to] as [string | null, string]] : []));
}

/** Waits for the four moves of a job taken from new to finished, and checks they came in order. */
async function expectEveryMove(seen: ReturnType<typeof listen>, jobUid: string): Promise<void> {
  await seen.until((heard) => movesOf(heard, jobUid).length === 4);
  expect(movesOf(seen.heard, jobUid)).toEqual([
    [null, 'scheduled'],
    ['scheduled', 'started'],
    ['started', 'unconfirmed'],
    ['unconfirmed', 'finished'],
  ]);
}

/** One turn of the event loop: what was scheduled for after this connection's commits has run. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe.each(STORES)('change events on %s', (kind: StoreKind) => {
  let store: EngineStore;
  let db: Db;
  let partnerId: string;

  beforeAll(() => {
    store = createEngineStore(kind);
    db = store.connect();
    partnerId = new PartnerRegistry(db, systemClock).add({ name: 'Moves' }).partner_id;
  });

  afterAll(() => store?.remove());

  it('a job moved three times in one turn by this connection is announced in every state, in order, long before the next poll', async () => {
    // A poll a minute away: what is heard comes from the commits themselves.
    const seen = listen(db, 60_000);
    try {
      const job = newJob(db, partnerId, 'Quick');
      startJob(db, job.id);
      recordJobMined(db, job.id, Date.now());
      recordJobFinished(db, job.id, Date.now());
      await expectEveryMove(seen, job.uid);
      expect(seen.heard).toContainEqual({ type: 'counts', partnerId, of: 'jobs' });
    } finally {
      seen.stop();
    }
  });
});

describe('the change log on postgres', () => {
  let store: EngineStore;
  let reader: Db;
  let writer: Db;
  let partnerId: string;
  let otherPartnerId: string;

  beforeAll(() => {
    store = createEngineStore('postgres');
    reader = store.connect();
    writer = store.connect();
    partnerId = new PartnerRegistry(reader, systemClock).add({ name: 'Log' }).partner_id;
    otherPartnerId = new PartnerRegistry(reader, systemClock).add({ name: 'Other log' }).partner_id;
  });

  afterAll(() => store?.remove());

  it("another node's job moved three times between two polls is announced in every state, in order", async () => {
    const seen = listen(reader, 50);
    try {
      const job = newJob(writer, partnerId, 'Elsewhere');
      startJob(writer, job.id);
      recordJobMined(writer, job.id, Date.now());
      recordJobFinished(writer, job.id, Date.now());
      await expectEveryMove(seen, job.uid);
    } finally {
      seen.stop();
    }
  });

  it('a move that commits after a later one, which was read first, is still announced, in the order made', async () => {
    const early = newJob(writer, partnerId, 'Early');
    const seen = listen(reader, 50);
    try {
      // The writer's transaction logs its move first, then stays open...
      writer.exec('BEGIN');
      startJob(writer, early.id);
      // ...while the reader's node makes a move of its own, which draws a later position and
      // commits, and the reader looks right after that commit.
      const late = newJob(reader, otherPartnerId, 'Late');
      await nextTurn();
      writer.exec('COMMIT');
      await seen.until((heard) => movesOf(heard, early.uid).length === 1 && movesOf(heard, late.uid).length === 1);
      const moves = seen.heard.flatMap((e) => (e.type === 'job-state' ? [[e.jobUid, e.from, e.to]] : []));
      expect(moves).toEqual([
        [early.uid, 'scheduled', 'started'],
        [late.uid, null, 'scheduled'],
      ]);
    } finally {
      seen.stop();
    }
  });

  it('a write transaction left open in another database of the cluster holds no event of this one back', async () => {
    const elsewhere = createTestDatabase();
    const other = PostgresDb.connect(elsewhere.url);
    // A poll a minute away: the job's moves are heard from this connection's own commits.
    const seen = listen(writer, 60_000);
    try {
      other.exec('BEGIN');
      other.query('SELECT pg_current_xact_id()'); // it now holds a transaction id, as a write does
      const job = newJob(writer, partnerId, 'Beside a long transaction');
      startJob(writer, job.id);
      recordJobMined(writer, job.id, Date.now());
      recordJobFinished(writer, job.id, Date.now());
      await expectEveryMove(seen, job.uid);
    } finally {
      seen.stop();
      other.exec('ROLLBACK');
      other.close();
      elsewhere.drop();
    }
  });

  it('keeps the rows of the last ten minutes: every thousandth row deletes the older ones', () => {
    const count = () => reader.prepare('SELECT count(*) FROM change_events').pluck().get() as number;
    const job = newJob(writer, partnerId, 'Pruned');
    writer.prepare("UPDATE change_events SET made_at = now() - interval '11 minutes'").run();
    startJob(writer, job.id);
    const before = count();
    expect(before).toBeGreaterThan(1);
    // The next row is the thousandth: its job move deletes every row older than ten minutes.
    const last = reader.prepare('SELECT max(position) FROM change_events').pluck().get() as number;
    reader.prepare("SELECT setval(pg_get_serial_sequence('change_events', 'position'), ?)").get(Math.ceil((last + 1) / 1000) * 1000 - 1);
    recordJobMined(writer, job.id, Date.now());
    expect(reader.prepare('SELECT kind, from_status, to_status FROM change_events ORDER BY position').all()).toEqual([
      { kind: 'job-state', from_status: 'scheduled', to_status: 'started' },
      { kind: 'job-state', from_status: 'started', to_status: 'unconfirmed' },
    ]);
  });
});
