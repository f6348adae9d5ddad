/**
 * A full disk (ENOSPC, EDQUOT, SQLITE_FULL) is "try again later", never a failure of what was
 * being done: nothing is moved to failed/, no job fails for it, and the user sees one sentence
 * naming the full place and roughly what is needed. Everything resumes once space comes back.
 */
import { existsSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { ServiceError } from '../../common/errors.js';

export { isDiskFull } from '../../common/disk-full.js';

/** Free bytes for an unprivileged writer on the file system holding `path` (or its nearest existing parent). */
export function freeBytes(path: string): number | undefined {
  let p = path;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  try {
    const s = statfsSync(p);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The one message for a full disk: which place, how much is free, about how much is needed. */
export function diskFullError(path: string, neededBytes?: number, cause?: unknown): ServiceError {
  const free = freeBytes(path);
  const need = neededBytes !== undefined ? `; about ${formatBytes(neededBytes)} more is needed` : '';
  return new ServiceError(
    'try_again_later',
    `The disk holding ${path} is full (${free === undefined ? 'no' : formatBytes(free)} free${need}). Nothing was lost: free some space and try again — the same command resumes where it stopped.`,
    { cause },
  );
}
