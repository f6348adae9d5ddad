import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readWatchFolders, WATCH_FOLDERS_FILE, writeWatchFolders, type SavedWatchFolder } from './watch-folder-list.js';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proofdesk-watch-list-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const FOLDER: SavedWatchFolder = { id: 'a', path: '/srv/inbox', partnerId: 'p1', paused: false, tags: ['cs2026'], metadata: { course: 'CS' }, recursive: false };

describe('the saved list of watch folders', () => {
  it('is empty without a file, and reads back what was written, private to the user', () => {
    const dir = dataDir();
    expect(readWatchFolders(dir)).toEqual([]);
    writeWatchFolders(dir, [FOLDER]);
    expect(readWatchFolders(dir)).toEqual([FOLDER]);
    if (process.platform !== 'win32') expect(statSync(join(dir, WATCH_FOLDERS_FILE)).mode & 0o777).toBe(0o600);
    // Atomic: no temporary file is left beside it.
    expect(readdirSync(dir)).toEqual([WATCH_FOLDERS_FILE]);
  });

  it('says how to fix a damaged file instead of starting with none', () => {
    const dir = dataDir();
    writeFileSync(join(dir, WATCH_FOLDERS_FILE), '{"folders": [');
    expect(() => readWatchFolders(dir)).toThrow(/cannot be read.*fix or delete it/);
    writeFileSync(join(dir, WATCH_FOLDERS_FILE), '[]');
    expect(() => readWatchFolders(dir)).toThrow(/damaged/);
  });
});
