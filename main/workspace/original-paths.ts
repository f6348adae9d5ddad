/**
 * Where the originals of files dropped on the desktop app lie on this computer, so "Open the
 * original file" opens the very file the admin dropped rather than a copy. The engine keeps
 * files by hash without names or paths (and a remote service keeps nothing of this machine), so
 * the app keeps its own small list in the data directory: DATA/original-paths.sqlite (0600),
 * credential uid + file hash → absolute path, written once per create task. Only the desktop
 * app writes it: the browser bridge's paths are its own temporary uploads.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ensurePrivateFile } from '../engine/private-files.js';

export interface OriginalPath {
  uid: string;
  hash: string;
  path: string;
}

function open(dataDir: string): Database.Database {
  const file = join(dataDir, 'original-paths.sqlite');
  // Created 0600 before SQLite opens it: its -wal and -shm files take the database file's mode.
  ensurePrivateFile(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS original_paths (credential_uid TEXT NOT NULL, file_hash TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (credential_uid, file_hash)) WITHOUT ROWID');
  return db;
}

/** Records where the files of newly created credentials came from (one transaction). */
export function rememberOriginalPaths(dataDir: string, entries: readonly OriginalPath[]): void {
  if (entries.length === 0) return;
  const db = open(dataDir);
  try {
    const insert = db.prepare('INSERT OR REPLACE INTO original_paths (credential_uid, file_hash, path) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (const e of entries) insert.run(e.uid.toLowerCase(), e.hash.toLowerCase(), e.path);
    })();
  } finally {
    db.close();
  }
}

/** The path a credential's file was dropped from on this computer, if the desktop app recorded one. */
export function originalPathOf(dataDir: string, uid: string, hash: string): string | null {
  const db = open(dataDir);
  try {
    const path = db.prepare('SELECT path FROM original_paths WHERE credential_uid = ? AND file_hash = ?').pluck().get(uid.toLowerCase(), hash.toLowerCase());
    return typeof path === 'string' ? path : null;
  } finally {
    db.close();
  }
}
