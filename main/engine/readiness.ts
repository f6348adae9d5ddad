/**
 * Whether the engine can serve requests now: its database answers, its schema is the one this
 * Proofdesk knows, and issuing runs somewhere for the data directory. What a load balancer's
 * readiness check (`serve`'s `/readyz`) asks.
 */
import type { Db } from './database.js';
import { knownSchemaVersion, schemaVersion } from './store/dialect.js';

/**
 * Where the scheduler of a data directory runs: this process, another live one, none yet but this
 * process takes the free lease at its next tick (`standby`: a hand-over under way), or none.
 */
export type SchedulerPlace = 'here' | 'elsewhere' | 'standby' | 'nowhere';

export interface Readiness {
  ready: boolean;
  /** Why not, in one sentence; absent when ready. */
  reason?: string;
  database: 'ok' | 'unavailable';
  /** `current`, or `behind` / `ahead` of what this Proofdesk knows. */
  migrations: 'current' | 'behind' | 'ahead' | 'unknown';
  scheduler: SchedulerPlace;
  /** The node that issues (holds the issuing lease), by its name; null when none does. */
  leader: string | null;
}

/**
 * Asks the database a trivial question and its schema version, then where the scheduler runs
 * (the issuing lease is in the database too); never throws.
 */
export function checkReadiness(db: Db, issuingPlace: () => Pick<Readiness, 'scheduler' | 'leader'>): Readiness {
  let version: number;
  let scheduler: SchedulerPlace;
  let leader: string | null;
  try {
    db.prepare('SELECT 1').pluck().get();
    version = schemaVersion(db);
    ({ scheduler, leader } = issuingPlace());
  } catch (error) {
    return { ready: false, reason: `The database does not answer: ${(error as Error).message}`, database: 'unavailable', migrations: 'unknown', scheduler: 'nowhere', leader: null };
  }
  const known = knownSchemaVersion(db);
  const migrations = version === known ? 'current' : version < known ? 'behind' : 'ahead';
  if (migrations !== 'current') {
    return { ready: false, reason: `The database schema is version ${version}, this Proofdesk needs ${known}`, database: 'ok', migrations, scheduler, leader };
  }
  if (scheduler === 'nowhere') {
    return { ready: false, reason: 'No process runs the issuing scheduler for this data directory', database: 'ok', migrations, scheduler, leader };
  }
  return { ready: true, database: 'ok', migrations, scheduler, leader };
}
