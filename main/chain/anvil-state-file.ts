/**
 * The local chain's files in its state directory, and the care they need.
 *
 * Two complete copies of the chain's state are kept: anvil's own `--state` file (dumped on exit
 * and on anvil's interval, written in place, so a crash during a dump can truncate it) and our
 * snapshot (written atomically within seconds of each change, see anvil-snapshots.ts). At start
 * the newer complete one is loaded.
 */
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE_NAME } from './anvil-lock.js';

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

/** The files of a state directory. */
export function anvilStatePaths(stateDir: string): AnvilStatePaths {
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

/** Writes `data` to `file` atomically (a temporary file beside it, then a rename). */
export function writeFileAtomically(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** Copies `from` over `to` atomically, keeping its modification time (which orders dumps). */
function copyAtomically(from: string, to: string): void {
  const tmp = `${to}.tmp-${process.pid}`;
  const { atime, mtime } = statSync(from);
  copyFileSync(from, tmp);
  utimesSync(tmp, atime, mtime);
  renameSync(tmp, to);
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
