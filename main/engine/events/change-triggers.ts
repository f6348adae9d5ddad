/**
 * Turns this connection's writes to jobs and revocations into engine events, wherever in the
 * engine they are made (the scheduler, reconciliation, unscheduling): temporary triggers, which
 * live only on this connection, call back into the process. Another process writing the same
 * database has none of them; other-writers.ts covers it.
 */
import type { JobStatus } from '../../../common/wire-types.js';
import type { Db } from '../database.js';
import { sqliteOf } from '../store/dialect.js';
import type { EngineEvents } from './engine-events.js';

/**
 * Installs the callbacks and triggers on the connection (SQLite). PostgreSQL has no trigger that
 * calls into this process, and its LISTEN/NOTIFY is no way round that here: pg-native reads
 * notifications only through its asynchronous reader, which cannot run on the connection the
 * engine's synchronous calls use, so it would take a second connection per process. There the
 * poller of other-writers.ts, whose mark moves with this connection's commits too, reports
 * every write, this process's as well, within its interval.
 */
export function announceChanges(engineDb: Db, events: EngineEvents): void {
  const db = sqliteOf(engineDb);
  if (!db) return;
  db.function('proofdesk_job_state', { varargs: false }, (partnerId: unknown, uid: unknown, engine: unknown, from: unknown, to: unknown) => {
    events.emit({ type: 'job-state', partnerId: String(partnerId), jobUid: String(uid), engine: String(engine), from: (from ?? null) as JobStatus | null, to: to as JobStatus });
    if (from === null) events.emit({ type: 'counts', partnerId: String(partnerId), of: 'jobs' });
    return null;
  });
  db.function('proofdesk_job_gone', (partnerId: unknown) => {
    events.emit({ type: 'counts', partnerId: String(partnerId), of: 'jobs' });
    return null;
  });
  db.function('proofdesk_certificate_revoked', (partnerId: unknown, uid: unknown, engine: unknown) => {
    events.emit({ type: 'certificate-revoked', partnerId: String(partnerId), certificateUid: String(uid), engine: String(engine) });
    return null;
  });
  db.exec(`
    CREATE TEMP TRIGGER IF NOT EXISTS announce_job_created AFTER INSERT ON main.jobs
    BEGIN SELECT proofdesk_job_state(new.partner_id, new.uid, new.engine, NULL, new.status); END;
    CREATE TEMP TRIGGER IF NOT EXISTS announce_job_state AFTER UPDATE OF status ON main.jobs WHEN old.status IS NOT new.status
    BEGIN SELECT proofdesk_job_state(new.partner_id, new.uid, new.engine, old.status, new.status); END;
    CREATE TEMP TRIGGER IF NOT EXISTS announce_job_gone AFTER DELETE ON main.jobs
    BEGIN SELECT proofdesk_job_gone(old.partner_id); END;
    CREATE TEMP TRIGGER IF NOT EXISTS announce_certificate_revoked AFTER UPDATE OF revoked_date ON main.certificates
      WHEN old.revoked_date IS NULL AND new.revoked_date IS NOT NULL
    BEGIN SELECT proofdesk_certificate_revoked(new.partner_id, new.uid, new.engine); END;
  `);
}
