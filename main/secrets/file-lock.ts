import lockfile from 'proper-lockfile';
import { SecretStoreUnavailableError } from './errors.js';

export interface FileLockOptions {
  /** Give up waiting for a live holder after this long. */
  timeoutMs: number;
  /** A lock not refreshed for this long is left over from a crash and is taken over (at least 2 s). */
  staleMs: number;
}

/**
 * Runs `fn` while holding the lock of `path` (proper-lockfile: a `PATH.lock` directory made with
 * mkdir, atomic across processes and on network file systems, its time refreshed while held).
 * A holder that died leaves a lock that stops being refreshed: it is taken over once `staleMs` old.
 */
export async function withFileLock<T>(path: string, options: FileLockOptions, fn: () => Promise<T>): Promise<T> {
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      stale: options.staleMs,
      // Writes hold the lock for milliseconds: poll briefly, randomized so waiters do not march in step.
      // (the retry count only bounds the schedule node-retry builds up front; maxRetryTime ends the wait)
      retries: { retries: Math.ceil(options.timeoutMs / 20), minTimeout: 20, maxTimeout: 200, randomize: true, maxRetryTime: options.timeoutMs },
      onCompromised: () => {
        // Only when the lock was taken over while held (this process blocked for over staleMs):
        // the write still ends in an atomic rename, so nothing half-written is ever read, though
        // a set made meanwhile by the other process may be overwritten.
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new SecretStoreUnavailableError(
      `${path}.lock is held by another process and was not released within ${options.timeoutMs} ms. ` +
        'If no other Proofdesk process is running, delete that folder.',
    );
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}
