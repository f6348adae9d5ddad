/**
 * Events for what other processes write to a SQLite database. Several processes may share a data
 * directory (the app beside `watch`, `issue` or `serve`, which may run the scheduler); their
 * writes fire no trigger here. SQLite's `data_version` moves with every commit of another
 * connection, so while someone listens it is read once a second — one pragma, no table — and
 * only when it moved are the jobs read and compared with what was known: a job another process
 * moved twice within the second is announced in its last state. On PostgreSQL the change log
 * (change-log.ts) announces every node's writes instead.
 */
import type { JobStatus } from '../../../common/wire-types.js';
import type { SqliteDb } from '../database.js';
import type { EngineEvents } from './engine-events.js';

const EVERY_MS = 1000;

interface KnownJob {
  partnerId: string;
  engine: string;
  status: JobStatus;
}

/** Starts watching while the channel has listeners; returns the function that stops it for good. */
export function watchOtherWriters(db: SqliteDb, events: EngineEvents, everyMs = EVERY_MS): () => void {
  let timer: NodeJS.Timeout | undefined;
  let version: number | undefined;
  let known = new Map<string, KnownJob>();
  const dataVersion = () => db.pragma('data_version', { simple: true }) as number;

  const readJobs = () =>
    new Map(
      (db.prepare('SELECT uid, partner_id, engine, status FROM jobs').all() as { uid: string; partner_id: string; engine: string; status: JobStatus }[]).map((r) => [
        r.uid,
        { partnerId: r.partner_id, engine: r.engine, status: r.status },
      ]),
    );
  const look = () => {
    if (!db.open || db.inTransaction) return;
    const now = dataVersion();
    if (now === version) return;
    version = now;
    const next = readJobs();
    const moved = new Set<string>();
    for (const [uid, job] of next) {
      const before = known.get(uid);
      if (before?.status === job.status) continue;
      events.deliver({ type: 'job-state', partnerId: job.partnerId, jobUid: uid, engine: job.engine, from: before?.status ?? null, to: job.status });
      moved.add(job.partnerId);
    }
    for (const [uid, job] of known) if (!next.has(uid)) moved.add(job.partnerId);
    for (const partnerId of moved) events.deliver({ type: 'counts', partnerId, of: 'jobs' });
    known = next;
  };
  // This process's own moves keep the picture current, so they are not reported twice.
  const unsubscribeOwn = events.tap((event) => {
    if (event.type !== 'job-state') return;
    known.set(event.jobUid, { partnerId: event.partnerId, engine: event.engine, status: event.to });
  });
  const start = () => {
    if (timer || !db.open) return;
    version = dataVersion();
    known = readJobs();
    timer = setInterval(() => {
      try {
        look();
      } catch {
        // The database is closing: nothing to report.
      }
    }, everyMs);
    timer.unref();
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const stopHook = events.onListeners((count) => (count > 0 ? start() : stop()));
  if (events.size > 0) start();
  return () => {
    stopHook();
    unsubscribeOwn();
    stop();
  };
}
