/**
 * Proof files in rounds, durably and cheaply: the one way `issue` and the watched folder
 * (main/intake/finish-round.ts) write proofs. A round of files (hundreds) is written with plain
 * writes to temporary names, their data made durable in one pass, renamed into place, and each
 * folder synced once for its renames.
 * A kill at any point leaves, for each file, either no file under its name or the whole of it
 * (a leftover temporary file has a fixed name per final name: the next try overwrites it).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { open, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncFiles, withPath } from '../durable/sync-files.js';
import pMap from 'p-map';

/**
 * Files written at once. Creating a file is mostly a wait in the kernel, and 64 in flight
 * keep the thread pool's 4 threads busy: several times the files per second of a synchronous
 * loop or of 16 at once.
 */
const WRITE_CONCURRENCY = 64;
/**
 * The temporary name of a file being written: a short dotfile named for a hash of the final
 * name, so it fits whatever the final name's length, and is the same on every try (a write cut
 * short by a crash is overwritten, not left behind, when the same file is written again).
 */
export function tempNameOf(path: string): string {
  return join(dirname(path), `.${createHash('sha256').update(basename(path)).digest('hex').slice(0, 16)}.writing`);
}

/** Removes a temporary file if it is there (its folder may be gone or not be a folder). */
function removeTemp(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing could have been written there either.
  }
}

/** Syncs each folder once (the renames into it live there). */
async function syncFolders(folders: Iterable<string>): Promise<void> {
  for (const folder of folders) {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

/** A hook between the steps of a round, for crash tests (a fault point). */
export type RoundStep = 'written' | 'synced' | 'renamed';

/**
 * Writes a round of files durably, each failing alone: plain writes to temporary names, one
 * sync pass for the round, renames, one sync per folder. Resolves with one error (or undefined)
 * per file; a file that failed leaves no temporary file. Folders are made as needed.
 */
export async function writeRound(
  files: readonly { path: string; text: string }[],
  options: { mode?: number; afterStep?: (step: RoundStep) => void } = {},
): Promise<(unknown | undefined)[]> {
  const errors: (unknown | undefined)[] = new Array(files.length).fill(undefined);
  const temps = files.map((f) => tempNameOf(f.path));
  const made = new Set<string>();
  await pMap(
    files,
    async (file, i) => {
      const dir = dirname(file.path);
      try {
        if (!made.has(dir)) {
          mkdirSync(dir, { recursive: true });
          made.add(dir);
        }
        await writeFile(temps[i]!, file.text, options.mode === undefined ? undefined : { mode: options.mode });
      } catch (error) {
        errors[i] = withPath(error, temps[i]!);
        removeTemp(temps[i]!);
      }
    },
    { concurrency: WRITE_CONCURRENCY },
  );
  options.afterStep?.('written');
  const written = files.flatMap((_, i) => (errors[i] === undefined ? [i] : []));
  await syncFiles(
    written.map((i) => temps[i]!),
    errors,
    written,
  );
  options.afterStep?.('synced');
  const folders = new Set<string>();
  await pMap(
    files,
    async (file, i) => {
      if (errors[i] !== undefined) return removeTemp(temps[i]!);
      try {
        await rename(temps[i]!, file.path);
        folders.add(dirname(file.path));
      } catch (error) {
        errors[i] = error;
        removeTemp(temps[i]!);
      }
    },
    { concurrency: WRITE_CONCURRENCY },
  );
  options.afterStep?.('renamed');
  await syncFolders(folders);
  return errors;
}
