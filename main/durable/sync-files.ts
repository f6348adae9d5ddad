/**
 * Making many written files durable at once, for the engine's file store (staged uploads
 * before the transaction that names them) and the intake's proof rounds: one way for both.
 */
import pMap from 'p-map';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncFileSystems } from './syncfs.js';

/** Files synced at once when each is synced on its own. */
const SYNC_CONCURRENCY = 32;
/**
 * The fewest files synced with one syncfs rather than one fdatasync each: a syncfs flushes
 * everything the file system holds (other work's writes too), cheap for a round of hundreds of
 * files, dear for a few dozen. A long-lived helper runs it (main/durable/syncfs.ts), so that
 * this process is not forked for each.
 */
export const SYNCFS_FROM = 256;

/** An error of a write names no path (ENOSPC from write(2)): it is given the file's, to tell which disk is full. */
export function withPath(error: unknown, path: string): unknown {
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code === 'string' && e.path === undefined) e.path = path;
  return error;
}

let syncfsWorks = process.platform === 'linux';

/** Each file's fdatasync, SYNC_CONCURRENCY at once; a failure is noted in `errors`, never thrown. */
async function syncEach(paths: string[], errors: (unknown | undefined)[], indices: number[]): Promise<void> {
  await pMap(
    paths,
    async (path, n) => {
      try {
        const handle = await open(path, 'r+');
        try {
          await handle.datasync();
        } finally {
          await handle.close();
        }
      } catch (error) {
        errors[indices[n]!] = withPath(error, path);
      }
    },
    { concurrency: SYNC_CONCURRENCY },
  );
}

/**
 * Makes written files' data durable: for many files on Linux one syncfs per file system for
 * the whole round (one flush instead of a journal commit per file); for fewer, elsewhere, or if
 * that fails, each file's fdatasync (in the thread pool, side by side). A file whose sync failed gets its error in `errors`.
 */
export async function syncFiles(paths: string[], errors: (unknown | undefined)[] = [], indices: number[] = paths.map((_, i) => i)): Promise<void> {
  if (paths.length === 0) return;
  if (syncfsWorks && paths.length >= SYNCFS_FROM) {
    if (await syncFileSystems([...new Set(paths.map((p) => dirname(p)))])) return;
    syncfsWorks = false;
  }
  await syncEach(paths, errors, indices);
}

