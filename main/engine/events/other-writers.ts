/**
 * Events for what other processes write. Several processes may share a data directory (the
 * app beside `watch`, `issue` or `serve`, which may run the scheduler); their writes fire no
 * trigger here. SQLite's `data_version` moves with every commit of another connection, so
 * while someone listens it is read once a second — one pragma, no table — and only when it
 * moved are the jobs read and compared with what was known. This is the engine's one poller.
 * On PostgreSQL it reports this process's own writes too (no trigger there calls into the
 * process: change-triggers.ts), its revocations included.
 */
import type { JobStatus } from '../../../common/wire-types.js';
import type { Db } from '../database.js';
import { othersCommitMark, postgresOf } from '../store/dialect.js';
import type { EngineEvents } from './engine-events.js';

const EVERY_MS = 1000;

interface KnownJob {
  partnerId: string;
  engine: string;
  status: JobStatus;
}

/** Starts watching while the channel has listeners; returns the function that stops it for good. */
export function watchOtherWriters(db: Db, events: EngineEvents, everyMs = EVERY_MS): () => void {
  let timer: NodeJS.Timeout | undefined;
  let version: number | string | undefined;
  let known = new Map<string, KnownJob>();
  const watchRevocations = postgresOf(db) !== undefined;
  let revoked = new Map<string, { partnerId: string; engine: string }>();

  const readJobs = () =>
    new Map(
      (db.prepare('SELECT uid, partner_id, engine, status FROM jobs').all() as { uid: string; partner_id: string; engine: string; status: JobStatus }[]).map((r) => [
        r.uid,
        { partnerId: r.partner_id, engine: r.engine, status: r.status },
      ]),
    );
  const readRevoked = () =>
    new Map(
      watchRevocations
        ? (db.prepare('SELECT uid, partner_id, engine FROM certificates WHERE revoked_date IS NOT NULL').all() as { uid: string; partner_id: string; engine: string }[]).map((r) => [
            r.uid,
            { partnerId: r.partner_id, engine: r.engine },
          ])
        : [],
    );
  const look = () => {
    if (!db.open || db.inTransaction) return;
    const now = othersCommitMark(db);
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
    if (!watchRevocations) return;
    const nowRevoked = readRevoked();
    for (const [uid, certificate] of nowRevoked) {
      if (!revoked.has(uid)) events.deliver({ type: 'certificate-revoked', partnerId: certificate.partnerId, certificateUid: uid, engine: certificate.engine });
    }
    revoked = nowRevoked;
  };
  // This process's own moves keep the picture current, so they are not reported twice.
  const unsubscribeOwn = events.tap((event) => {
    if (event.type !== 'job-state') return;
    known.set(event.jobUid, { partnerId: event.partnerId, engine: event.engine, status: event.to });
  });
  const start = () => {
    if (timer || !db.open) return;
    version = othersCommitMark(db);
    known = readJobs();
    revoked = readRevoked();
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
