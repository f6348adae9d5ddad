import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Db, Transaction } from './store/db.js';
import { MIGRATIONS } from './migrations.js';
import { compressPayload } from './proofs/payload-codec.js';
import { ensurePrivateDir, ensurePrivateFile } from './private-files.js';

export type { Db, RunResult, Statement } from './store/db.js';

/** The engine's database on SQLite: better-sqlite3's own Database, which is a Db as it is. */
export type SqliteDb = Database.Database;

/** The database file inside a data directory. */
export const DATABASE_FILE = 'proofdesk.sqlite';

/** Page size of a database this version creates, bytes. */
export const PAGE_SIZE = 8192;

/**
 * Opens (creating if needed) the engine's SQLite database in `dataDir`: WAL journal,
 * foreign keys on, and every pending migration applied in one transaction each.
 */
export function openDatabase(dataDir: string): SqliteDb {
  ensurePrivateDir(dataDir);
  // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm files the mode of the
  // database file, so they are private from their first byte too.
  ensurePrivateFile(join(dataDir, DATABASE_FILE));
  const db = new Database(join(dataDir, DATABASE_FILE));
  // A credential's row is ~1 KB of metadata and more: 4 KiB pages hold three and leave a
  // quarter empty, 8 KiB pages hold seven. Only a new, empty file takes it (before WAL fixes
  // the page size); an existing database keeps the page size it was made with.
  db.pragma(`page_size = ${PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash or power
  // loss can roll back the last transactions, never corrupt the file.
  db.pragma('synchronous = NORMAL');
  // In WAL mode the fsyncs happen at checkpoints, which run inside the commit that crosses the
  // threshold. 2,000 pages (SQLite's default is 1,000) keeps that stall short for a request
  // queued behind it, while credentials created one by one checkpoint half as often.
  db.pragma('wal_autocheckpoint = 2000');
  db.pragma('journal_size_limit = 67108864');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/** One transaction wrapper per database, since building better-sqlite3's costs as much as a small insert. */
const runners = new WeakMap<Db, Transaction>();

function runnerOf(db: Db): Transaction {
  let run = runners.get(db);
  if (!run) runners.set(db, (run = db.transaction((f: () => unknown) => f())));
  return run;
}

/** Runs `fn` in one transaction (nested calls become savepoints): all of its writes, or none. */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return runnerOf(db)(fn) as T;
}

/**
 * Like inTransaction, but takes SQLite's write lock at once (BEGIN IMMEDIATE). Work that
 * must not interleave with other processes sharing the data directory — moving stored bytes
 * in or out — runs under it.
 */
export function inWriteLock<T>(db: Db, fn: () => T): T {
  return runnerOf(db).immediate(fn) as T;
}

function migrate(db: SqliteDb): void {
  // Migration 4 compresses stored certificate payloads the way the issuer now writes them.
  db.function('proofdesk_compress_payload', { deterministic: true }, (text, dictionary) => compressPayload(text as string, dictionary as Buffer));
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`This data directory was written by a newer Proofdesk (schema ${current}, this one knows ${MIGRATIONS.length}). Upgrade Proofdesk.`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
