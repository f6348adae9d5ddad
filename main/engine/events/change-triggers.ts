/**
 * Turns this connection's writes to jobs and revocations into engine events, wherever in the
 * engine they are made (the scheduler, reconciliation, unscheduling): temporary triggers, which
 * live only on this connection, call back into the process. Another process writing the same
 * database has none of them; other-writers.ts covers it.
 */
import type { JobStatus } from '../../../common/wire-types.js';
import type { SqliteDb } from '../database.js';
import type { EngineEvents } from './engine-events.js';

/**
 * Installs the callbacks and triggers on the connection (SQLite). PostgreSQL has no trigger that
 * calls into this process, and its LISTEN/NOTIFY is no way round that here: pg-native reads
 * notifications only through its asynchronous reader, which cannot run on the connection the
 * engine's synchronous calls use. There the triggers of the change log write each change to a
 * table that change-log.ts reads, this process's changes as well.
 */
export function announceChanges(db: SqliteDb, events: EngineEvents): void {
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
