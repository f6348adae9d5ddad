/**
 * When and where each Partner's keys were last backed up to a file main wrote itself (the
 * desktop app's save dialog), kept in the data directory's key-backups.json (0600, replaced
 * atomically), so Settings can say "Backed up" truly after a restart. A download in the browser
 * is not recorded: main cannot know the browser saved it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../secrets/encrypted-file-store.js';

export const BACKUPS_FILE = 'key-backups.json';

/** A backup main wrote: when (ISO 8601) and the file's path. */
export interface KeyBackupRecord {
  at: string;
  path: string;
}

function readAll(dataDir: string): Record<string, KeyBackupRecord> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dataDir, BACKUPS_FILE), 'utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, KeyBackupRecord>) : {};
  } catch {
    // No backup yet (or a damaged file): nothing is claimed.
    return {};
  }
}

/** The Partner's last recorded backup, or null. */
export function lastBackup(dataDir: string, partnerId: string): KeyBackupRecord | null {
  const record = readAll(dataDir)[partnerId];
  return record && typeof record.at === 'string' && typeof record.path === 'string' ? record : null;
}

/** Records a backup main has just finished writing; answers the record. */
export async function recordBackup(dataDir: string, partnerId: string, path: string, now = new Date()): Promise<KeyBackupRecord> {
  const record = { at: now.toISOString(), path };
  await writeFileAtomic(join(dataDir, BACKUPS_FILE), `${JSON.stringify({ ...readAll(dataDir), [partnerId]: record }, null, 2)}\n`);
  return record;
}
