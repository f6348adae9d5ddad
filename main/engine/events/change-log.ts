/**
 * Events on PostgreSQL, from every node sharing the database, this one's included: triggers
 * write each change that is an event to the change log (`change_events`, PostgreSQL migration
 * 2), and while someone listens this reader reads the rows it has not read yet, in the order
 * they were made, once a second and soon after each commit of this node. So a job that moves
 * twice between two looks is announced in both states, in order, on every node.
 */
import type { JobStatus } from '../../../common/wire-types.js';
import { cached } from '../list-query.js';
import type { PostgresDb } from '../store/postgres-db.js';
import type { EngineEvents } from './engine-events.js';

const EVERY_MS = 1000;

/**
 * The oldest transaction that may still add rows to this database's change log, as the
 * statement's snapshot sees it: the oldest of the snapshot's transactions in progress, leaving
 * out those pg_stat_activity shows running in another database of the cluster (a long write
 * there must not hold this database's events back), else the snapshot's end. A transaction
 * that ended since the snapshot was taken is in neither view's other database, so it is kept:
 * its rows, invisible to this snapshot, are read by the next look. Where the role may not see
 * other sessions' transactions (pg_read_all_stats), none is left out.
 */
const HORIZON_OF = (snapshot: string) => `COALESCE(
    (SELECT min(x) FROM pg_snapshot_xip(${snapshot}) AS x
      WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity AS a WHERE a.backend_xid = CAST(x AS xid) AND a.datname IS DISTINCT FROM current_database())),
    pg_snapshot_xmax(${snapshot}))`;

const HORIZON = `SELECT CAST(${HORIZON_OF('s.snapshot')} AS text) FROM (SELECT pg_current_snapshot() AS snapshot) AS s`;

/**
 * The rows written by transactions from the last look's horizon up to this one's, in the order
 * they were made, and the new horizon (on every row; on a row of NULLs when there are none).
 *
 * Why not simply the rows after the last position read: a position is drawn when the row is
 * written, not when its transaction commits, so a transaction that drew a lower position can
 * commit after one that drew a higher one, and a reader that had moved past the higher one
 * would never see the lower. Every transaction of this database older than the horizon
 * (HORIZON_OF the statement's own snapshot) has ended, committed or rolled back, so the rows of transactions
 * between two horizons are all there is of them, and each row is read exactly once. A
 * transaction still in progress holds the horizon back: rows after it wait (they are not
 * lost) until it ends. A job's moves are in order whichever transactions made them, since a
 * move waits for the row lock of the one before it and so draws a higher position.
 */
const READ = `
  SELECT CAST(h.horizon AS text) AS horizon, h.held, e.kind, e.partner_id, e.uid, e.engine, e.from_status, e.to_status
  FROM (
    SELECT s.horizon, EXISTS (SELECT 1 FROM change_events AS w WHERE w.xid >= s.horizon) AS held
    FROM (SELECT ${HORIZON_OF('c.snapshot')} AS horizon FROM (SELECT pg_current_snapshot() AS snapshot) AS c) AS s
  ) AS h
  LEFT JOIN change_events AS e ON e.xid >= CAST(? AS xid8) AND e.xid < h.horizon
  ORDER BY e.position`;

/** The first wait before looking again at rows held back by a transaction in progress; it doubles up to the tick. */
const HELD_RETRY_MS = 10;

interface LogRow {
  horizon: string;
  /** Rows are there that a transaction still in progress holds back (they are read once it ends). */
  held: boolean | number;
  kind: 'job-state' | 'job-gone' | 'certificate-revoked' | null;
  partner_id: string;
  uid: string;
  engine: string;
  from_status: JobStatus | null;
  to_status: JobStatus | null;
}

/** Reads the change log while the channel has listeners; returns the function that stops it for good. */
export function readChangeLog(db: PostgresDb, events: EngineEvents, everyMs = EVERY_MS): () => void {
  let timer: NodeJS.Timeout | undefined;
  /** Where the next look starts (a transaction id); undefined while nobody listens. */
  let horizon: string | undefined;
  let lookSoon = false;
  /** The look again at rows held back, and its wait (doubling while they stay held). */
  let retry: NodeJS.Timeout | undefined;
  let retryMs = HELD_RETRY_MS;

  const look = () => {
    if (horizon === undefined || !db.open || db.inTransaction) return;
    const rows = cached(db, READ).all(horizon) as LogRow[];
    horizon = rows[0]!.horizon;
    // Rows held back are read as soon as their transaction ends, not a tick later: looked at
    // again after a short wait, which grows while the transaction holding them goes on.
    if (rows[0]!.held && retry === undefined && timer !== undefined) {
      retry = setTimeout(() => {
        retry = undefined;
        safeLook();
      }, retryMs);
      retry.unref();
      retryMs = Math.min(retryMs * 2, everyMs);
    } else if (!rows[0]!.held) {
      retryMs = HELD_RETRY_MS;
    }
    for (const row of rows) {
      switch (row.kind) {
        case 'job-state':
          events.deliver({ type: 'job-state', partnerId: row.partner_id, jobUid: row.uid, engine: row.engine, from: row.from_status, to: row.to_status! });
          if (row.from_status === null) events.deliver({ type: 'counts', partnerId: row.partner_id, of: 'jobs' });
          break;
        case 'job-gone':
          events.deliver({ type: 'counts', partnerId: row.partner_id, of: 'jobs' });
          break;
        case 'certificate-revoked':
          events.deliver({ type: 'certificate-revoked', partnerId: row.partner_id, certificateUid: row.uid, engine: row.engine });
          break;
        case null:
          // No rows between the horizons: the row that carries the new horizon alone.
          break;
      }
    }
  };
  const safeLook = () => {
    try {
      look();
    } catch {
      // The database is closing or does not answer: the next look reads from the same horizon.
    }
  };
  // This node's own writes are announced soon after their commit, not only at the next tick.
  const stopHearingCommits = db.onCommit(() => {
    if (timer === undefined || lookSoon) return;
    lookSoon = true;
    setImmediate(() => {
      lookSoon = false;
      safeLook();
    });
  });
  const start = () => {
    if (timer || !db.open) return;
    horizon = cached(db, HORIZON).pluck().get() as string;
    timer = setInterval(safeLook, everyMs);
    timer.unref();
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    if (retry) clearTimeout(retry);
    timer = undefined;
    retry = undefined;
    horizon = undefined;
  };
  const stopHook = events.onListeners((count) => (count > 0 ? start() : stop()));
  if (events.size > 0) start();
  return () => {
    stopHook();
    stopHearingCommits();
    stop();
  };
}
