/**
 * The journal of `issue`: a small SQLite file of its own in the data directory
 * (`issue-journal.sqlite`; the watch folder's journal is the ingester's). One run per command
 * line, one item per file, written BEFORE each side effect, so that running the same command
 * again after a crash resumes: it takes the credentials it created, waits for their job and
 * writes the proofs still missing, instead of issuing every file a second time.
 *
 * Item states: uploading (the create request may have gone out) → created (its credential is
 * known) → done (its proof is on disk), or skipped (content uploaded before, not issued again).
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const ISSUE_JOURNAL_FILE = 'issue-journal.sqlite';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    -- The command line's fingerprint: target, files and their content, options.
    run_key TEXT NOT NULL,
    -- Who issues where: the service (data directory or remote URL), Partner and engine.
    target TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS items (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('uploading', 'created', 'done', 'skipped')),
    attempt_at INTEGER,
    credential_uid TEXT,
    proof TEXT,
    PRIMARY KEY (run_id, idx)
  );
  CREATE INDEX IF NOT EXISTS items_by_content ON items (sha256);
`;

export interface JournalItem {
  idx: number;
  path: string;
  sha256: string;
  state: 'uploading' | 'created' | 'done' | 'skipped';
  attempt_at: number | null;
  credential_uid: string | null;
  proof: string | null;
}

export class IssueJournal {
  /** Prepared once per statement: preparing one per call is a large share of `issue`'s main thread. */
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(private readonly db: Database.Database) {}

  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  static open(dataDir: string): IssueJournal {
    mkdirSync(dataDir, { recursive: true });
    const db = new Database(join(dataDir, ISSUE_JOURNAL_FILE));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 10000');
    db.exec(SCHEMA);
    return new IssueJournal(db);
  }

  /** The unfinished run of the same command line, or a new one. Returns its id and whether it resumes. */
  openRun(runKey: string, target: string, now: number): { id: number; resumed: boolean } {
    const open = this.sql('SELECT id FROM runs WHERE run_key = ? AND done = 0 ORDER BY id DESC LIMIT 1').pluck().get(runKey) as number | undefined;
    if (open !== undefined) return { id: open, resumed: true };
    return { id: Number(this.sql('INSERT INTO runs (run_key, target, created_at) VALUES (?, ?, ?)').run(runKey, target, now).lastInsertRowid), resumed: false };
  }

  item(runId: number, idx: number): JournalItem | undefined {
    return this.sql('SELECT idx, path, sha256, state, attempt_at, credential_uid, proof FROM items WHERE run_id = ? AND idx = ?').get(runId, idx) as JournalItem | undefined;
  }

  /** A credential this journal already holds for the content on the target (any run): issuing it again would be a duplicate. */
  issuedContent(target: string, sha256: string): string | undefined {
    return this
      .sql(
        "SELECT i.credential_uid FROM items i JOIN runs r ON r.id = i.run_id WHERE r.target = ? AND i.sha256 = ? AND i.credential_uid IS NOT NULL AND i.state IN ('created', 'done') ORDER BY r.id LIMIT 1",
      )
      .pluck()
      .get(target, sha256) as string | undefined;
  }

  /** Whether a credential is already claimed by an item (so a recovery never takes it twice). */
  claimed(credentialUid: string): boolean {
    return this.sql('SELECT 1 FROM items WHERE credential_uid = ?').get(credentialUid) !== undefined;
  }

  uploading(runId: number, idx: number, path: string, sha256: string, now: number): void {
    this
      .sql("INSERT INTO items (run_id, idx, path, sha256, state, attempt_at) VALUES (?, ?, ?, ?, 'uploading', ?) ON CONFLICT (run_id, idx) DO UPDATE SET state = 'uploading', attempt_at = excluded.attempt_at")
      .run(runId, idx, path, sha256, now);
  }

  created(runId: number, idx: number, path: string, sha256: string, credentialUid: string): void {
    this
      .sql(
        "INSERT INTO items (run_id, idx, path, sha256, state, credential_uid) VALUES (?, ?, ?, ?, 'created', ?) ON CONFLICT (run_id, idx) DO UPDATE SET state = 'created', credential_uid = excluded.credential_uid",
      )
      .run(runId, idx, path, sha256, credentialUid);
  }

  skipped(runId: number, idx: number, path: string, sha256: string): void {
    this
      .sql("INSERT INTO items (run_id, idx, path, sha256, state) VALUES (?, ?, ?, ?, 'skipped') ON CONFLICT (run_id, idx) DO UPDATE SET state = 'skipped'")
      .run(runId, idx, path, sha256);
  }

  done(runId: number, idx: number, proof: string): void {
    this.sql("UPDATE items SET state = 'done', proof = ? WHERE run_id = ? AND idx = ?").run(proof, runId, idx);
  }

  /** Runs `fn`'s writes in one transaction (one commit for a whole chunk of items). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  finishRun(runId: number): void {
    this.sql('UPDATE runs SET done = 1 WHERE id = ?').run(runId);
  }

  close(): void {
    this.db.close();
  }
}
