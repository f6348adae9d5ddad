/**
 * A full disk (ENOSPC, EDQUOT, SQLITE_FULL) is "try again later" everywhere, never a failure of
 * what was being done (DESIGN.md's durability rules). This tells it from other errors — also
 * when a cause carries it, or when it arrived as the service's own sentence (over REST the
 * cause is gone, only the message is left).
 */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const FULL_TEXT = /\b(ENOSPC|EDQUOT|SQLITE_FULL)\b|no space left on device|disk quota exceeded|database or disk is full|the disk holding .+ is full/i;

/** Whether `error` (or one of its causes) says a disk or a quota is full. */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && FULL_CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && FULL_TEXT.test(message)) return true;
  }
  return false;
}
