/**
 * The local chain's files in its state directory, and the care they need.
 *
 * Two complete copies of the chain's state are kept: anvil's own `--state` file (dumped on exit
 * and on anvil's interval, written in place, so a crash during a dump can truncate it) and our
 * snapshot (written atomically within seconds of each change, see anvil-snapshots.ts). At start
 * the newer complete one is loaded.
 */
import { chmodSync, copyFileSync, existsSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { LOCK_FILE_NAME } from './anvil-lock.js';

/** Chain state is private to the user, like everything in the data directory. */
const PRIVATE_FILE_MODE = 0o600;

export interface AnvilStatePaths {
  /** anvil's `--state` file: loaded at start, dumped on anvil's interval and on exit. */
  stateFile: string;
  /** Our atomic snapshot of the state, refreshed after each change while running. */
  snapshotFile: string;
  /** `--cache-path`: where anvil would spill per-block states (kept empty by --prune-history). */
  cacheDir: string;
  /** Which process runs the chain on this directory (see anvil-lock.ts). */
  lockFile: string;
  /** anvil's output of the current run (the previous run's is kept as anvil.log.previous). */
  logFile: string;
}

/** How the chain's state came about at start. */
export type AnvilStateOrigin =
  /** No state yet: a new chain. */
  | 'new'
  /** anvil's state file, as it was. */
  | 'loaded'
  /** The snapshot: the state file was missing, damaged or older. */
  | 'restored'
  /** The state file was damaged and there was no snapshot: a new chain (the damaged file is kept beside). */
  | 'reset';

/**
 * Throws a TypeError unless `path` is an absolute path. Every write of chain state goes through
 * this: a target built from an undefined value (or any relative one) would land in whatever the
 * current directory is — it once did, as `undefined.tmp-<pid>` at the repository's root, a
 * complete state dump left behind when the rename to `undefined` then threw.
 */
export function assertStatePath(path: unknown, what = 'A chain state path'): asserts path is string {
  if (typeof path !== 'string' || path.length === 0 || !isAbsolute(path)) {
    throw new TypeError(`${what} must be an absolute path, got ${typeof path === 'string' ? JSON.stringify(path) : String(path)}`);
  }
}

/** The files of a state directory (an absolute path). */
export function anvilStatePaths(stateDir: string): AnvilStatePaths {
  assertStatePath(stateDir, 'The chain state directory');
  return {
    stateFile: join(stateDir, 'state.json'),
    snapshotFile: join(stateDir, 'state.snapshot.json'),
    cacheDir: join(stateDir, 'anvil-cache'),
    lockFile: join(stateDir, LOCK_FILE_NAME),
    logFile: join(stateDir, 'anvil.log'),
  };
}

export interface StateFileInfo {
  /** The head block number in the dump. */
  height: number;
  /** When the file was last written. */
  mtimeMs: number;
}

/** Height and age of the complete anvil state dump in `file`; undefined when it is missing or damaged. */
export function stateFileInfo(file: string): StateFileInfo | undefined {
  try {
    if (!existsSync(file)) return undefined;
    const { size, mtimeMs } = statSync(file);
    if (size === 0) return undefined;
    const state = JSON.parse(readFileSync(file, 'utf8')) as { accounts?: unknown; block?: { number?: unknown }; best_block_number?: unknown } | null;
    if (typeof state !== 'object' || state === null || typeof state.accounts !== 'object' || typeof state.block !== 'object' || state.block === null) return undefined;
    const height = Number(state.best_block_number ?? state.block.number ?? 0);
    return { height: Number.isSafeInteger(height) ? height : 0, mtimeMs };
  } catch {
    return undefined;
  }
}

/** Whether dump `a` is at least as recent as dump `b`: higher block first, then the later write. */
function isAtLeastAsRecent(a: StateFileInfo, b: StateFileInfo | undefined): boolean {
  return b === undefined || a.height > b.height || (a.height === b.height && a.mtimeMs >= b.mtimeMs);
}

/**
 * Writes `data` to `file` (an absolute path) atomically: a temporary file beside it, then a
 * rename. The file is created 0600 (the data directory's rule); no temporary file outlives a
 * failure.
 */
export function writeFileAtomically(file: string, data: string | Uint8Array): void {
  assertStatePath(file);
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, data, { mode: PRIVATE_FILE_MODE });
    chmodSync(tmp, PRIVATE_FILE_MODE);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Copies `from` over `to` atomically, keeping its modification time (which orders dumps). */
function copyAtomically(from: string, to: string): void {
  assertStatePath(from);
  assertStatePath(to);
  const tmp = `${to}.tmp-${process.pid}`;
  try {
    const { atime, mtime } = statSync(from);
    copyFileSync(from, tmp);
    chmodSync(tmp, PRIVATE_FILE_MODE);
    utimesSync(tmp, atime, mtime);
    renameSync(tmp, to);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** `name`, or `name-2`, `name-3`, ... whichever does not exist yet. */
function freeName(name: string): string {
  let candidate = name;
  for (let n = 2; existsSync(candidate); n++) candidate = `${name}-${n}`;
  return candidate;
}

/** After a clean stop: makes the snapshot a copy of anvil's final dump, unless the snapshot is newer. */
export function syncSnapshotWithStateFile(paths: AnvilStatePaths): void {
  const state = stateFileInfo(paths.stateFile);
  if (state && isAtLeastAsRecent(state, stateFileInfo(paths.snapshotFile))) copyAtomically(paths.stateFile, paths.snapshotFile);
}

/**
 * Puts the most recent complete state where anvil loads it (the state file) before anvil starts,
 * and leaves a copy in the snapshot. A damaged state file is moved aside, never deleted.
 */
export function prepareStateFile(paths: AnvilStatePaths): AnvilStateOrigin {
  const exists = existsSync(paths.stateFile);
  const state = stateFileInfo(paths.stateFile);
  const snapshot = stateFileInfo(paths.snapshotFile);
  if (state && isAtLeastAsRecent(state, snapshot)) {
    copyAtomically(paths.stateFile, paths.snapshotFile);
    return 'loaded';
  }
  if (exists && !state) renameSync(paths.stateFile, freeName(`${paths.stateFile}.damaged-${Date.now()}`));
  if (snapshot) {
    copyAtomically(paths.snapshotFile, paths.stateFile);
    return 'restored';
  }
  return exists ? 'reset' : 'new';
}

/** Removes anvil's per-block state cache (anvil never removes it itself when it exits). */
export function clearStateCache(paths: AnvilStatePaths): void {
  rmSync(paths.cacheDir, { recursive: true, force: true });
}
