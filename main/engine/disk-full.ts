/**
 * A full disk (ENOSPC, EDQUOT, SQLITE_FULL) is "try again later", never a failure of what was
 * being done: nothing is moved to failed/, no job fails for it, and the user sees one sentence
 * naming the full place and roughly what is needed. Everything resumes once space comes back.
 */
import { existsSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { ServiceError } from '../../common/errors.js';

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** Whether `error` (or one of its causes) says the disk or a quota is full. */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && /\b(ENOSPC|EDQUOT)\b|database or disk is full|no space left on device|disk quota exceeded/i.test(message)) return true;
  }
  return false;
}

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
