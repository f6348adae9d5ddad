/**
 * One anvil per state directory. A lock file names the anvil and the process that owns it; at
 * start, an anvil left behind by a dead owner is stopped (it would otherwise keep dumping its
 * state over the new one's), and one owned by a live process is refused.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChainError } from './errors.js';
import { isProcessAlive } from '../process/is-process-alive.js';

export { isProcessAlive };

/** The lock file's name in a state directory. */
export const LOCK_FILE_NAME = 'anvil.lock.json';

export interface AnvilLockRecord {
  /** anvil's pid. */
  pid: number;
  /** The pid of the process that started it. */
  ownerPid: number;
  rpcUrl: string;
  startedAt: string;
}

/** Whether the process looks like an anvil (guards against a recycled pid). Unknown platforms: false. */
function looksLikeAnvil(pid: number): boolean {
  try {
    if (process.platform === 'linux') return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('anvil');
    if (process.platform === 'darwin') return execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }).includes('anvil');
  } catch {
    return false;
  }
  return false;
}

/** Sends SIGTERM, waits up to `graceMs` for the process to go, then SIGKILL. */
export async function terminateProcess(pid: number, graceMs: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const until = Date.now() + graceMs;
  while (isProcessAlive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  if (isProcessAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** The lock file's record, or undefined when there is none (or it is unreadable). */
export function readLock(lockFile: string): AnvilLockRecord | undefined {
  try {
    return JSON.parse(readFileSync(lockFile, 'utf8')) as AnvilLockRecord;
  } catch {
    return undefined;
  }
}

export function writeLock(lockFile: string, record: AnvilLockRecord): void {
  // 0600 like everything in the data directory; chmod too, for a file that existed before.
  writeFileSync(lockFile, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  if (process.platform !== 'win32') chmodSync(lockFile, 0o600);
}

/** Removes the lock file if it still names anvil `pid`. */
export function releaseLock(lockFile: string, pid: number): void {
  if (readLock(lockFile)?.pid === pid) rmSync(lockFile, { force: true });
}

/**
 * Clears the way for a new anvil on the directory: throws ChainError when a live process runs one
 * there, stops an orphaned one (its owner died without stopping it), drops a stale lock.
 */
export async function takeOverLock(lockFile: string, stateDir: string, graceMs: number): Promise<void> {
  const lock = readLock(lockFile);
  if (!lock) return;
  if (Number.isSafeInteger(lock.pid) && isProcessAlive(lock.pid) && looksLikeAnvil(lock.pid)) {
    if (lock.ownerPid !== process.pid && isProcessAlive(lock.ownerPid)) {
      throw new ChainError(`The local chain in ${stateDir} is already running (anvil pid ${lock.pid} at ${lock.rpcUrl}, started by process ${lock.ownerPid})`);
    }
    if (lock.ownerPid === process.pid) {
      throw new ChainError(`This process already runs the local chain in ${stateDir} (anvil pid ${lock.pid} at ${lock.rpcUrl}); stop it first`);
    }
    await terminateProcess(lock.pid, graceMs);
  }
  rmSync(lockFile, { force: true });
}

/**
 * The anvil another live process runs on `stateDir`, if any: connect to its `rpcUrl` instead of
 * starting one (startAnvil would refuse). Undefined when there is none, or it is this process's.
 */
export function findRunningAnvil(stateDir: string): AnvilLockRecord | undefined {
  const lock = readLock(join(stateDir, LOCK_FILE_NAME));
  if (!lock || lock.ownerPid === process.pid) return undefined;
  return isProcessAlive(lock.ownerPid) && isProcessAlive(lock.pid) && looksLikeAnvil(lock.pid) ? lock : undefined;
}
