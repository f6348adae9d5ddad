/**
 * The app's watch folders, kept in the data directory (`watch-folders.json`, 0600) so that they
 * are watched again when the app starts. Written atomically (a temporary file renamed over the
 * old one): a crash mid-write leaves the old list, never half a file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WatchFolderInput } from '../../../common/ipc/watch-folders.js';
import { isPlainObject } from '../../../common/validate.js';
import { writeFileDurably } from '../../durable/write-file-durably.js';

export const WATCH_FOLDERS_FILE = 'watch-folders.json';

/** One saved folder: what the admin gave, who it issues for, and whether it is paused. */
export interface SavedWatchFolder extends WatchFolderInput {
  id: string;
  /** The Partner its files are issued for (the active one when it was added). */
  partnerId: string;
  paused: boolean;
}

/** The saved folders; an empty list when there is no file yet. Throws a sentence for a damaged file. */
export function readWatchFolders(dataDir: string): SavedWatchFolder[] {
  const file = join(dataDir, WATCH_FOLDERS_FILE);
  if (!existsSync(file)) return [];
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`The list of watch folders (${file}) cannot be read (${(error as Error).message}); fix or delete it, then start Proofdesk again.`);
  }
  const folders = isPlainObject(value) ? value.folders : undefined;
  if (!Array.isArray(folders)) throw new Error(`The list of watch folders (${file}) is damaged: expected {"folders": [...]}; fix or delete it, then start Proofdesk again.`);
  return folders.filter((f): f is SavedWatchFolder => isPlainObject(f) && typeof f.id === 'string' && typeof f.path === 'string' && typeof f.partnerId === 'string');
}

/** Replaces the saved list atomically; the file is private to the user (0600). */
export function writeWatchFolders(dataDir: string, folders: SavedWatchFolder[]): void {
  writeFileDurably(join(dataDir, WATCH_FOLDERS_FILE), `${JSON.stringify({ folders }, null, 2)}\n`);
}
