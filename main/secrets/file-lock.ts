import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { SecretStoreUnavailableError } from './errors.js';
import { isProcessAlive } from '../process/is-process-alive.js';

export interface FileLockOptions {
  /** Give up waiting for a live holder after this long. */
  timeoutMs: number;
  /** A lock file older than this is left over from a crash and is taken over. */
  staleMs: number;
}

/** What a lock file holds: who took it, so a dead holder on this host is noticed at once. */
interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

/**
 * Runs `fn` while holding `lockPath`, a lock file created with O_EXCL (works across processes,
 * and on network file systems where flock() does not). A lock whose holder died is taken over:
 * at once when its pid on this host no longer exists, otherwise once its file is `staleMs` old.
 */
export async function withFileLock<T>(lockPath: string, options: FileLockOptions, fn: () => Promise<T>): Promise<T> {
  const token = await acquire(lockPath, options);
  try {
    return await fn();
  } finally {
    await release(lockPath, token);
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<string> {
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(12).toString('hex') };
  const deadline = Date.now() + options.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify(owner));
      } finally {
        await handle.close();
      }
      return owner.token;
    } catch (error) {
      if (!isCode(error, 'EEXIST')) throw error;
    }
    const holder = await inspect(lockPath, options.staleMs);
    if (holder === 'gone') continue;
    if ('stale' in holder) {
      await takeOver(lockPath, holder.stale);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new SecretStoreUnavailableError(
        `${lockPath} is held by another process${holder.pid ? ` (pid ${holder.pid} on ${holder.host})` : ''} ` +
          `and was not released within ${options.timeoutMs} ms. If no other Proofdesk process is running, delete that file.`,
      );
    }
    // Writes hold the lock for milliseconds: poll briefly, with jitter so waiters do not march in step.
    await sleep(Math.min(20 + attempt * 10, 200) + Math.random() * 20);
  }
}

/** A lock file as seen at one moment: its content and age identify it. */
interface LockSnapshot {
  text: string;
  mtimeMs: number;
}

/** The holder of an existing lock, `{ stale }` when it is dead, 'gone' when the file vanished meanwhile. */
async function inspect(lockPath: string, staleMs: number): Promise<Partial<LockOwner> | { stale: LockSnapshot } | 'gone'> {
  const seen = await snapshot(lockPath);
  if (!seen) return 'gone';
  if (Date.now() - seen.mtimeMs > staleMs) return { stale: seen };
  let holder: Partial<LockOwner>;
  try {
    holder = JSON.parse(seen.text) as Partial<LockOwner>;
  } catch {
    // Empty or half-written: its holder is between open() and write(); only age can tell.
    return {};
  }
  if (holder.host === hostname() && typeof holder.pid === 'number' && !isProcessAlive(holder.pid)) return { stale: seen };
  return holder;
}

async function snapshot(path: string): Promise<LockSnapshot | undefined> {
  try {
    const [text, { mtimeMs }] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { text, mtimeMs };
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/**
 * Removes a dead holder's lock. Renamed away first, so that of several processes seeing the
 * same stale lock only one removes it; the others find it gone and race for a fresh one. If
 * what we renamed is not the lock we judged dead (another process took over in between and
 * made a fresh one), it is linked back, which fails harmlessly if yet another lock exists.
 */
async function takeOver(lockPath: string, judged: LockSnapshot): Promise<void> {
  const aside = `${lockPath}.stale-${randomBytes(6).toString('hex')}`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return;
    throw error;
  }
  const moved = await snapshot(aside).catch(() => undefined);
  if (moved && (moved.text !== judged.text || moved.mtimeMs !== judged.mtimeMs)) {
    await link(aside, lockPath).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

/** Deletes the lock if it is still ours (after a takeover it may be someone else's). */
async function release(lockPath: string, token: string): Promise<void> {
  try {
    const holder = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockOwner>;
    if (holder.token === token) await unlink(lockPath);
  } catch {
    // Gone or replaced: nothing of ours to release.
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
