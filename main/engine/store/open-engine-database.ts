/**
 * Opens the engine's database where the operator put it: SQLite in the data directory (the
 * default), or PostgreSQL when a database URL is given (PROOFDESK_DATABASE_URL or --database).
 */
import { openDatabase, type Db } from '../database.js';
import { PostgresDb } from './postgres-db.js';
import { migrateOpened } from './open-postgres.js';

/** The database named cannot be reached. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/** A database URL that is not a PostgreSQL one. */
export class DatabaseUrlError extends Error {
  override readonly name = 'DatabaseUrlError';
}

/** The URL without its password, for messages. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'the database URL';
  }
}

/**
 * The engine's database: SQLite in `dataDir`, or the PostgreSQL database at `databaseUrl`
 * (migrated to this version's schema). An unreachable PostgreSQL database is one sentence
 * without its password.
 */
export function openEngineDatabase(dataDir: string, databaseUrl?: string): Db {
  if (databaseUrl === undefined || databaseUrl === '') return openDatabase(dataDir);
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new DatabaseUrlError(`The database URL must start with postgres:// (PROOFDESK_DATABASE_URL or --database); leave it out to use SQLite in the data directory`);
  }
  let db: PostgresDb;
  try {
    db = PostgresDb.connect(databaseUrl);
  } catch (error) {
    throw new DatabaseUnavailableError(`The database ${describeDatabaseUrl(databaseUrl)} cannot be reached: ${(error as Error).message.replace(/^Cannot connect to PostgreSQL: /, '')}`);
  }
  return migrateOpened(db);
}
