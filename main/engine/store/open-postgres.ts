/**
 * Opens the engine's database on PostgreSQL and brings its schema up to date. Several `serve`
 * nodes may start at once: the migrations run under a session advisory lock, so one node
 * migrates and the others wait for it, then find nothing left to do.
 */
import { inTransaction } from '../database.js';
import { PostgresDb } from './postgres-db.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';

/** The advisory lock key that serialises migrations ("pdmigrat" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x70646d6967726174n;

/** Connects to `url` and applies every pending PostgreSQL migration, each in one transaction. */
export function openPostgresDatabase(url: string): PostgresDb {
  return migrateOpened(PostgresDb.connect(url));
}

/** Applies every pending migration to a connected database; closes it if they fail. */
export function migrateOpened(db: PostgresDb): PostgresDb {
  try {
    migratePostgres(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Applies the pending migrations of `migrations` (the engine's list unless a test gives one). */
export function migratePostgres(db: PostgresDb, migrations: readonly string[] = POSTGRES_MIGRATIONS): void {
  db.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  try {
    db.exec('CREATE TABLE IF NOT EXISTS proofdesk_schema (version bigint PRIMARY KEY, applied_date bigint NOT NULL)');
    const current = db.schemaVersion();
    if (current > migrations.length) {
      throw new Error(`This database was written by a newer Proofdesk (schema ${current}, this one knows ${migrations.length}). Upgrade Proofdesk.`);
    }
    for (let version = current; version < migrations.length; version++) {
      inTransaction(db, () => {
        db.exec(migrations[version]!);
        db.prepare('INSERT INTO proofdesk_schema (version, applied_date) VALUES (?, ?)').run(version + 1, Date.now());
      });
    }
  } finally {
    db.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
  }
}
