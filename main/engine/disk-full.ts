/**
 * A full disk (ENOSPC, EDQUOT, SQLITE_FULL) is "try again later", never a failure of what was
 * being done: nothing is moved to failed/, no job fails for it, and the user sees one sentence
 * naming the full place and roughly what is needed. Everything resumes once space comes back.
 */
import { ServiceError } from '../../common/errors.js';
import { formatBytes, freeBytes } from '../durable/free-space.js';

export { isDiskFull } from '../../common/disk-full.js';

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
