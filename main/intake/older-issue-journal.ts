/**
 * Runs an older Proofdesk left unfinished in the journal `issue` used to keep apart
 * (`DATA/issue-journal.sqlite`): the same command line takes its run over into the intake
 * journal and resumes it, instead of sending its files again.
 */
import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newFileRow, type FileState, type Journal } from './journal.js';

/** The older journal's file inside the data directory. */
export const OLDER_ISSUE_JOURNAL_FILE = 'issue-journal.sqlite';

/** The older item states and the intake journal's states they mean. */
const STATES: Record<string, FileState> = { uploading: 'uploading', created: 'scheduled', done: 'issued', skipped: 'duplicate' };

interface OlderItem {
  idx: number;
  path: string;
  sha256: string;
  state: string;
  attempt_at: number | null;
  credential_uid: string | null;
  proof: string | null;
}

/**
 * Takes the older journal's unfinished run of `runKey` (if any) over as the rows of the source
 * `sourceId`, then marks it done there; true when there was one. The rows are committed before
 * the older run is marked, so a crash in between leaves the run open here, which is resumed
 * first next time.
 */
export function resumeOlderIssueRun(dataDir: string, runKey: string, journal: Journal, sourceId: number, run: { target: string; engine: string }, now: number): boolean {
  const file = join(dataDir, OLDER_ISSUE_JOURNAL_FILE);
  if (!existsSync(file)) return false;
  const older = new Database(file, { fileMustExist: true });
  try {
    older.pragma('busy_timeout = 10000');
    const runId = older.prepare('SELECT id FROM runs WHERE run_key = ? AND done = 0 ORDER BY id DESC LIMIT 1').pluck().get(runKey) as number | undefined;
    if (runId === undefined) return false;
    const items = older.prepare('SELECT idx, path, sha256, state, attempt_at, credential_uid, proof FROM items WHERE run_id = ?').all(runId) as OlderItem[];
    journal.transaction(() => {
      for (const item of items) {
        // The run's fingerprint holds each file's size and time, so they are as the older run saw them.
        const info = statSync(item.path, { throwIfNoEntry: false });
        const fields = { folder_id: sourceId, rel_path: String(item.idx), state: STATES[item.state]!, target: run.target, size: info?.size ?? -1, mtime_ms: info?.mtimeMs ?? -1, engine: run.engine };
        const row = journal.insert(newFileRow(fields, now));
        journal.save({ ...row, sha256: item.sha256, attempt_at: item.attempt_at, credential_uid: item.credential_uid, proof_path: item.proof });
      }
    });
    older.prepare('UPDATE runs SET done = 1 WHERE id = ?').run(runId);
    return true;
  } finally {
    older.close();
  }
}
