/**
 * The journal of file intake: its own SQLite file in the data directory (never the engine's
 * database — intake also works against a remote service). One row per file taken from a
 * watched folder or given to `issue`, written BEFORE each side effect, so that a restart
 * resumes every file where it stopped. See docs/intake.md for the states and the guarantees.
 *
 * A row belongs to a source (table `folders`): a watched folder, named by its absolute path,
 * or one `issue` command line, named `issue:` and the command line's fingerprint
 * (`runSource`).
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../process/is-process-alive.js';

export type JournalDb = Database.Database;

/** The journal's file inside a data directory, for folders issued through the embedded engine. */
export const JOURNAL_FILE = 'ingest.sqlite';

/**
 * The journal's file for folders issued through a remote service (`watch --remote`): one file
 * per service and client, so that a folder watched against two services never mixes their rows
 * (a row's credential and job uids mean something only to the service that made them).
 * The URL is normalised (`new URL`, no trailing slash) so that spellings of one address agree.
 */
export function remoteJournalFile(baseUrl: string, clientId: string): string {
  const url = new URL(baseUrl).href.replace(/\/+$/, '');
  const key = createHash('sha256').update(JSON.stringify([url, clientId])).digest('hex').slice(0, 16);
  return `ingest-remote-${key}.sqlite`;
}

/**
 * A file's way through the intake:
 * seen → hashed → uploading → created → scheduled → issued → moved, or failed / duplicate.
 * `uploading` is written before the create-and-schedule request is sent: its outcome is
 * unknown until `created` records the credential's uid.
 */
export const FILE_STATES = ['seen', 'hashed', 'uploading', 'created', 'scheduled', 'issued', 'moved', 'failed', 'duplicate'] as const;
export type FileState = (typeof FILE_STATES)[number];

/**
 * Versioned migrations (PRAGMA user_version), as in the engine: never edit one that shipped.
 * Dates are epoch milliseconds.
 */
export const JOURNAL_MIGRATIONS: readonly string[] = [
  /* 1: folders and files */ `
  CREATE TABLE folders (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    -- The process watching the folder now, and when it last said it is alive.
    owner_pid INTEGER,
    owner_token TEXT,
    owner_beat INTEGER
  );

  CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    folder_id INTEGER NOT NULL REFERENCES folders(id),
    rel_path TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('seen','hashed','uploading','created','scheduled','issued','moved','failed','duplicate')),
    -- Who it is issued for (partner and engine): duplicates are recognised within one target.
    target TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    sha256 TEXT,
    -- The credential_details sent (JSON), fixed when the file is hashed.
    details TEXT,
    -- The sidecar that gave its metadata (relative path), moved along with the file.
    sidecar TEXT,
    engine TEXT NOT NULL,
    -- When the create-and-schedule request was last sent (for finding its credential again).
    attempt_at INTEGER,
    credential_uid TEXT,
    job_uid TEXT,
    job_failures INTEGER NOT NULL DEFAULT 0,
    -- Chosen and recorded before the proof is written / the file is moved.
    proof_path TEXT,
    final_path TEXT,
    error_id TEXT,
    error_message TEXT,
    duplicate_of INTEGER REFERENCES files(id),
    seen_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    -- Set once nothing is left to do: the original is in done/, failed/ or duplicate/.
    closed_at INTEGER
  );
  CREATE UNIQUE INDEX files_open_path ON files (folder_id, rel_path) WHERE closed_at IS NULL;
  CREATE INDEX files_open ON files (folder_id) WHERE closed_at IS NULL;
  CREATE INDEX files_by_hash ON files (sha256, target) WHERE sha256 IS NOT NULL;
  CREATE INDEX files_by_credential ON files (credential_uid) WHERE credential_uid IS NOT NULL;
  `,
];

/** One journal row, as the intake keeps it in memory. */
export interface FileRow {
  id: number;
  folder_id: number;
  rel_path: string;
  state: FileState;
  target: string;
  size: number;
  mtime_ms: number;
  sha256: string | null;
  details: string | null;
  sidecar: string | null;
  engine: string;
  attempt_at: number | null;
  credential_uid: string | null;
  job_uid: string | null;
  job_failures: number;
  proof_path: string | null;
  final_path: string | null;
  error_id: string | null;
  error_message: string | null;
  duplicate_of: number | null;
  seen_at: number;
  updated_at: number;
  closed_at: number | null;
}

/** A row of another file with the same content, as far as telling duplicates needs. */
export type SameContentRow = Pick<FileRow, 'id' | 'state' | 'credential_uid' | 'folder_id' | 'rel_path' | 'final_path' | 'proof_path'>;

/** A new row: `fields`, seen `now`, and nothing else known yet. Journal.insert() writes it. */
export function newFileRow(fields: Pick<FileRow, 'folder_id' | 'rel_path' | 'state' | 'target' | 'size' | 'mtime_ms' | 'engine'>, now: number): Omit<FileRow, 'id'> {
  return {
    ...fields,
    sha256: null,
    details: null,
    sidecar: null,
    attempt_at: null,
    credential_uid: null,
    job_uid: null,
    job_failures: 0,
    proof_path: null,
    final_path: null,
    error_id: null,
    error_message: null,
    duplicate_of: null,
    seen_at: now,
    updated_at: now,
    closed_at: null,
  };
}

const MUTABLE = [
  'state',
  'size',
  'mtime_ms',
  'sha256',
  'details',
  'sidecar',
  'attempt_at',
  'credential_uid',
  'job_uid',
  'job_failures',
  'proof_path',
  'final_path',
  'error_id',
  'error_message',
  'duplicate_of',
  'updated_at',
  'closed_at',
] as const satisfies readonly (keyof FileRow)[];

const MUTABLE_SET: ReadonlySet<string> = new Set(MUTABLE);

/** The prefix of a source that is an `issue` command line rather than a folder (paths are absolute, so never start with it). */
const RUN_SOURCE_PREFIX = 'issue:';

/** How long a folder's owner may stay silent before its claim counts as abandoned. */
export const OWNER_STALE_MS = 30_000;

/** The journal of one data directory. */
export class Journal {
  private readonly db: JournalDb;
  private readonly statements: {
    insert: Database.Statement;
    update: Database.Statement;
    remove: Database.Statement;
    sameContent: Database.Statement;
    claimed: Database.Statement;
  };
  private readonly tx: (fn: () => unknown) => unknown;

  private constructor(db: JournalDb) {
    this.db = db;
    this.statements = {
      insert: db.prepare(
        `INSERT INTO files (folder_id, rel_path, state, target, size, mtime_ms, engine, seen_at, updated_at)
         VALUES (@folder_id, @rel_path, @state, @target, @size, @mtime_ms, @engine, @seen_at, @updated_at)`,
      ),
      update: db.prepare(`UPDATE files SET ${MUTABLE.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`),
      remove: db.prepare('DELETE FROM files WHERE id = ?'),
      sameContent: db.prepare(
        `SELECT id, state, credential_uid, folder_id, rel_path, final_path, proof_path FROM files
         WHERE sha256 = ? AND target = ? AND id <> ? AND state NOT IN ('failed', 'duplicate', 'seen') ORDER BY id`,
      ),
      claimed: db.prepare('SELECT 1 FROM files WHERE credential_uid = ?'),
    };
    this.tx = db.transaction((fn: () => unknown) => fn());
  }

  /**
   * Opens (creating if needed) `<dataDir>/<file>` (default `ingest.sqlite`) and applies pending
   * migrations. `fullSync` makes every commit of this connection an fsync (survives an OS crash,
   * not only a killed process): for callers that commit a few large transactions.
   */
  static open(dataDir: string, file: string = JOURNAL_FILE, options: { fullSync?: boolean } = {}): Journal {
    mkdirSync(dataDir, { recursive: true });
    const db = new Database(join(dataDir, file));
    try {
      db.pragma('journal_mode = WAL');
      // Durable across process crashes (what the journal is for); only an OS crash can lose
      // the last transactions, never corrupt the file.
      db.pragma(options.fullSync ? 'synchronous = FULL' : 'synchronous = NORMAL');
      // As in the engine's database: checkpoints (the only fsyncs in WAL mode) every 20,000
      // pages instead of 1,000 make the many one-row transactions much cheaper.
      db.pragma('wal_autocheckpoint = 20000');
      db.pragma('journal_size_limit = 67108864');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      migrate(db);
      return new Journal(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T {
    return this.tx(fn) as T;
  }

  /**
   * Claims folders for this process (`token` tells our claim from a reused pid). A folder
   * watched by another live process is refused: two folder intakes on one folder would race.
   */
  claimFolders(paths: string[], token: string, now: number): Map<string, number> {
    return this.transaction(() => {
      const ids = new Map<string, number>();
      for (const path of paths) {
        this.db.prepare('INSERT OR IGNORE INTO folders (path) VALUES (?)').run(path);
        const row = this.db.prepare('SELECT id, owner_pid, owner_token, owner_beat FROM folders WHERE path = ?').get(path) as {
          id: number;
          owner_pid: number | null;
          owner_token: string | null;
          owner_beat: number | null;
        };
        const ours = row.owner_token === token;
        const live = row.owner_pid !== null && isProcessAlive(row.owner_pid) && row.owner_beat !== null && now - row.owner_beat < OWNER_STALE_MS;
        if (!ours && live) throw new FolderBusyError(path, row.owner_pid!);
        this.db.prepare('UPDATE folders SET owner_pid = ?, owner_token = ?, owner_beat = ? WHERE id = ?').run(process.pid, token, now, row.id);
        ids.set(path, row.id);
      }
      return ids;
    });
  }

  /**
   * The source of one `issue` command line (`runKey`, its fingerprint), made if new. Its open
   * rows are the unfinished run of that command line; `closeSource` ends the run.
   */
  runSource(runKey: string): number {
    const path = `${RUN_SOURCE_PREFIX}${runKey}`;
    this.db.prepare('INSERT OR IGNORE INTO folders (path) VALUES (?)').run(path);
    return this.db.prepare('SELECT id FROM folders WHERE path = ?').pluck().get(path) as number;
  }

  /** Closes every open row of a source: nothing is left to do for them. */
  closeSource(folderId: number, now: number): void {
    this.db.prepare('UPDATE files SET closed_at = ?, updated_at = ? WHERE folder_id = ? AND closed_at IS NULL').run(now, now, folderId);
  }

  /** Says the claim is still held. */
  heartbeat(token: string, now: number): void {
    this.db.prepare('UPDATE folders SET owner_beat = ? WHERE owner_token = ?').run(now, token);
  }

  /** Gives the folders up. */
  releaseFolders(token: string): void {
    this.db.prepare('UPDATE folders SET owner_pid = NULL, owner_token = NULL, owner_beat = NULL WHERE owner_token = ?').run(token);
  }

  /** The open rows (not closed) of some folders. */
  openRows(folderIds: number[]): FileRow[] {
    return this.db
      .prepare('SELECT * FROM files WHERE closed_at IS NULL AND folder_id IN (SELECT value FROM json_each(?)) ORDER BY id')
      .all(JSON.stringify(folderIds)) as FileRow[];
  }

  /** Files filed under failed/ (closed), newest first. */
  failedRows(folderIds: number[], limit: number): FileRow[] {
    return this.db
      .prepare("SELECT * FROM files WHERE state = 'failed' AND closed_at IS NOT NULL AND folder_id IN (SELECT value FROM json_each(?)) ORDER BY id DESC LIMIT ?")
      .all(JSON.stringify(folderIds), limit) as FileRow[];
  }

  /** The paths of a folder's files that ever failed (open or closed): those that may have a note in failed/. */
  failedPaths(folderId: number): string[] {
    return this.db.prepare("SELECT DISTINCT rel_path FROM files WHERE folder_id = ? AND state = 'failed'").pluck().all(folderId) as string[];
  }

  insert(row: Omit<FileRow, 'id'>): FileRow {
    const id = this.statements.insert.run(row).lastInsertRowid as number;
    return { ...row, id };
  }

  /** Writes every mutable column of the row. */
  save(row: FileRow): void {
    this.statements.update.run(row);
  }

  /** Group commits made by flush() and the row writes they carried (how well writes are batched). */
  readonly stats = { commits: 0, rowWrites: 0 };
  /** Rows with columns to write at the next flush (the row object holds the values). */
  private readonly pending = new Map<number, { row: FileRow; columns: Set<string> | 'all' }>();
  /** Told when a background flush fails (a full disk): the writes are kept and tried again with the next. */
  onFlushError?: (error: unknown) => void;
  private batch: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;

  /**
   * Queues a row's columns (or all of them) for the next flush: every write queued while the
   * event loop is busy goes into one transaction. Await `flushed()` before a side effect that
   * the write must precede.
   */
  queue(row: FileRow, columns: string[] | 'all'): void {
    const entry = this.pending.get(row.id);
    if (entry === undefined) this.pending.set(row.id, { row, columns: columns === 'all' ? 'all' : new Set(columns) });
    else if (columns === 'all') entry.columns = 'all';
    else if (entry.columns !== 'all') for (const c of columns) entry.columns.add(c);
    if (!this.batch) {
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      promise.catch(() => undefined);
      this.batch = { promise, resolve, reject };
      setImmediate(() => {
        try {
          this.flush();
        } catch (error) {
          // The writes stay queued for the next flush; whoever awaited them was told.
          this.onFlushError?.(error);
        }
      });
    }
  }

  /** Resolves once every write queued so far is committed. */
  flushed(): Promise<void> {
    return this.batch?.promise ?? Promise.resolve();
  }

  /** Commits the queued writes now. */
  flush(): void {
    const batch = this.batch;
    this.batch = undefined;
    if (this.pending.size === 0 || !this.db.open) {
      batch?.resolve();
      return;
    }
    const entries = [...this.pending.values()];
    this.pending.clear();
    try {
      this.transaction(() => {
        for (const { row, columns } of entries) {
          if (columns === 'all') this.save(row);
          else this.updateColumns(row, columns);
        }
      });
      this.stats.commits++;
      this.stats.rowWrites += entries.length;
      batch?.resolve();
    } catch (error) {
      // Kept for the next flush (a busy database, a full disk); whoever waited is told.
      for (const entry of entries) if (!this.pending.has(entry.row.id)) this.pending.set(entry.row.id, entry);
      batch?.reject(error);
      throw error;
    }
  }

  /**
   * Writes the named columns of a row from the row itself (a flush's writes). Only the columns
   * named are in the UPDATE, so indexes on the others are left alone (SQLite rewrites an index
   * whenever its column is assigned).
   */
  private updateColumns(row: FileRow, named: Set<string>): void {
    const columns: string[] = [];
    for (const c of named) if (MUTABLE_SET.has(c)) columns.push(c);
    if (columns.length === 0) return;
    const key = columns.join(',');
    let statement = this.positional.get(key);
    if (!statement) {
      statement = this.db.prepare(`UPDATE files SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`);
      this.positional.set(key, statement);
    }
    const values: unknown[] = new Array(columns.length + 1);
    for (let i = 0; i < columns.length; i++) values[i] = (row as unknown as Record<string, unknown>)[columns[i]!];
    values[columns.length] = row.id;
    statement.run(values);
  }

  private readonly positional = new Map<string, Database.Statement>();

  remove(id: number): void {
    this.statements.remove.run(id);
  }

  /** Rows with the same content and target in a live state (anything but failed / duplicate), oldest first. */
  sameContent(sha256: string, target: string, exceptId: number): SameContentRow[] {
    return this.statements.sameContent.all(sha256, target, exceptId) as SameContentRow[];
  }

  /** Whether any row holds this credential uid. */
  credentialClaimed(uid: string): boolean {
    return this.statements.claimed.get(uid) !== undefined;
  }

  folderPath(id: number): string | undefined {
    return (this.db.prepare('SELECT path FROM folders WHERE id = ?').get(id) as { path: string } | undefined)?.path;
  }

  /**
   * Commits what is queued and closes. Writes that cannot be committed (a full disk) are
   * dropped: no side effect was made on them (each waits for its write), so the journal stays
   * consistent and the next start redoes that step.
   */
  close(): void {
    try {
      if (this.db.open) this.flush();
    } catch (error) {
      this.onFlushError?.(error);
    } finally {
      if (this.db.open) this.db.close();
    }
  }
}

/** Another live process watches this folder. */
export class FolderBusyError extends Error {
  override readonly name = 'FolderBusyError';
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(`${folder} is already watched by process ${pid} (with the same data directory); stop that one first`);
  }
}

function migrate(db: JournalDb): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > JOURNAL_MIGRATIONS.length) {
    throw new Error(`The intake journal was written by a newer Proofdesk (schema ${current}, this one knows ${JOURNAL_MIGRATIONS.length}). Upgrade Proofdesk.`);
  }
  for (let version = current; version < JOURNAL_MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(JOURNAL_MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
