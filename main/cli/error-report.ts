/**
 * What the CLI says when a command stops on an error: one sentence a person can act on and an exit
 * code, never a stack trace. Expected conditions (a full disk, no keychain, a file that cannot be
 * read, a chain or server that does not answer) are named as such; only a real bug is reported
 * as internal, and its stack is shown only with PROOFDESK_DEBUG=1.
 */
import { isServiceError } from '../../common/errors.js';
import { isWireFailure } from '../remote/wire.js';
import { UsageError } from './cli-error.js';

/** Exit codes (also in the usage text). */
export const EXIT = {
  ok: 0,
  /** The service refused the call, or a proof is not ok. */
  refused: 1,
  usage: 2,
  /** Something around the command stopped it (disk full, no keychain, a chain or server away): fix it and run again. */
  environment: 3,
  /** A bug in Proofdesk. */
  internal: 70,
} as const;

export interface ErrorReport {
  message: string;
  code: number;
}

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function where(error: unknown): string {
  const path = (error as { path?: unknown; dest?: unknown }).path ?? (error as { dest?: unknown }).dest;
  return typeof path === 'string' ? ` (${path})` : '';
}

/** The report of any thrown value. */
export function reportError(error: unknown, env: NodeJS.ProcessEnv = process.env): ErrorReport {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError || code?.startsWith('ERR_PARSE_ARGS')) {
    return { message: `${message}\n(npm run cli -- help for every command)`, code: EXIT.usage };
  }
  if (isServiceError(error)) {
    // A remote service that gave no answer (connection refused, timed out) did not refuse
    // anything: it is away, as a chain that does not answer is.
    const away = error.id === 'try_again_later' && isWireFailure(error.cause);
    return { message: `error ${error.id} (${error.status}): ${error.message}`, code: away ? EXIT.environment : EXIT.refused };
  }
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'DatabaseUrlError') return { message: `${message}\n(npm run cli -- help for every command)`, code: EXIT.usage };
  if (name === 'DatabaseUnavailableError') return { message: `${message}.`, code: EXIT.environment };
  if (name === 'SecretStoreUnavailableError' || name === 'SecretStoreCorruptError') {
    return { message: `The Partners' keys cannot be opened: ${message}`, code: EXIT.environment };
  }
  if (typeof name === 'string' && /^(Chain|InsufficientFunds|TransactionReverted|NonceConflict|RegistryNotFound)\w*Error$/.test(name)) {
    return { message: `The chain could not do it: ${(error as { shortMessage?: string }).shortMessage ?? message}`, code: EXIT.environment };
  }
  if (code !== undefined && DISK_FULL.has(code)) {
    return { message: `The disk is full${where(error)}: free some space and run the command again; nothing was lost (${code}).`, code: EXIT.environment };
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN') {
    return { message: `Permission denied${where(error)}: check that you may write there, or choose another --data directory (${code}: ${message}).`, code: EXIT.environment };
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return { message: `The database is busy in another Proofdesk process: run the command again in a moment (${code}).`, code: EXIT.environment };
  }
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return { message: `The database is damaged (${code}: ${message}): restore the data directory from a backup.`, code: EXIT.environment };
  }
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
    return { message: `No such file or directory${where(error)}: ${message}`, code: EXIT.environment };
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'ECONNRESET' || code === 'EHOSTUNREACH') {
    return { message: `Could not reach the other side (${code}): ${message}. Check the URL and that it is running, then try again.`, code: EXIT.environment };
  }
  const stack = env.PROOFDESK_DEBUG ? `\n${(error as Error)?.stack ?? ''}` : '\n(Run again with PROOFDESK_DEBUG=1 to see where it happened, and please report it.)';
  return { message: `Internal error, a bug in Proofdesk: ${message}${stack}`, code: EXIT.internal };
}
