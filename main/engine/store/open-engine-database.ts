/**
 * Opens the engine's database where the operator put it: SQLite in the data directory (the
 * default), or PostgreSQL when a database URL is given (PROOFDESK_DATABASE_URL or --database).
 */
import { openDatabase, type Db } from '../database.js';
import { PostgresDb } from './postgres-db.js';
import { openPostgresDatabase } from './open-postgres.js';

/** The database named cannot be used now (unreachable, or a store this engine cannot run on yet). */
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

/** What only tests pass to openEngineDatabase. */
export interface EngineDatabaseTestOptions {
  /**
   * TESTS ONLY: open the whole engine on the PostgreSQL database at `databaseUrl` instead of
   * refusing it, so the behaviour suite can show what still differs from SQLite. Users and
   * operators never reach this: the CLI, the app and `serve` do not pass it.
   */
  testOnlyAllowPostgres?: boolean;
}

/**
 * The engine's database: SQLite in `dataDir`, or the PostgreSQL database at `databaseUrl`.
 * PostgreSQL is reached first (an unreachable database says so in one sentence), then refused
 * while the engine does not run on it in full: half an engine would be worse than none.
 */
export function openEngineDatabase(dataDir: string, databaseUrl?: string, testOptions: EngineDatabaseTestOptions = {}): Db {
  if (databaseUrl === undefined || databaseUrl === '') return openDatabase(dataDir);
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new DatabaseUrlError(`The database URL must start with postgres:// (PROOFDESK_DATABASE_URL or --database); leave it out to use SQLite in the data directory`);
  }
  if (testOptions.testOnlyAllowPostgres) return openPostgresDatabase(databaseUrl);
  const where = describeDatabaseUrl(databaseUrl);
  let db: PostgresDb;
  try {
    db = PostgresDb.connect(databaseUrl);
  } catch (error) {
    throw new DatabaseUnavailableError(`The database ${where} cannot be reached: ${(error as Error).message.replace(/^Cannot connect to PostgreSQL: /, '')}`);
  }
  db.close();
  throw new DatabaseUnavailableError(
    `The database ${where} answers, but this Proofdesk does not yet offer its engine on PostgreSQL (it is tested there, but the local chain is still one per node and several nodes sharing one database are not yet supported): leave out --database and PROOFDESK_DATABASE_URL to use SQLite in the data directory`,
  );
}
