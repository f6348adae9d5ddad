/**
 * The data directory is private to its user: the directory and every directory in it 0700,
 * every file 0600, whatever existed before (a directory made by hand with 0755, files copied in
 * under a 022 umask). Modes are set explicitly — at creation, and by chmod for what exists —
 * never through the process umask, which belongs to whoever embeds the engine.
 * No-ops on Windows, where modes do not protect files (the profile's ACLs do).
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const POSIX = process.platform !== 'win32';

/** Creates `dir` (and missing parents' last part) 0700, and makes it 0700 if it existed. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (POSIX) chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Creates `file` empty with mode 0600 unless it exists, and makes it 0600 either way. */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  if (POSIX) chmodSync(file, PRIVATE_FILE_MODE);
}

/**
 * Makes `dir` 0700 (creating it) and everything below it private: directories 0700, files 0600.
 * Symbolic links are neither followed nor changed (chmod would follow them out of the tree).
 * Things that vanish meanwhile (another process's temporary files) are skipped.
 *
 * The tree is walked only when `dir` was not 0700 already (made by hand, or opened up since):
 * below a 0700 directory nothing is within other users' reach, whatever its own mode, and a
 * data directory holds a file per stored upload, too many to stat each time it is opened.
 */
export function makeTreePrivate(dir: string): void {
  const wasPrivate = ((statSync(dir, { throwIfNoEntry: false })?.mode ?? 0) & 0o777) === PRIVATE_DIR_MODE;
  ensurePrivateDir(dir);
  if (!POSIX || wasPrivate) return;
  const walk = (at: string): void => {
    let names: string[];
    try {
      names = readdirSync(at);
    } catch (error) {
      if (isGone(error)) return;
      throw error;
    }
    for (const name of names) {
      const path = join(at, name);
      try {
        const stat = lstatSync(path);
        if (stat.isSymbolicLink()) continue;
        const wanted = stat.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
        if ((stat.mode & 0o777) !== wanted) chmodSync(path, wanted);
        if (stat.isDirectory()) walk(path);
      } catch (error) {
        if (!isGone(error)) throw error;
      }
    }
  };
  walk(dir);
}

function isGone(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
