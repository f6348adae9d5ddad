/**
 * Maps whatever viem, fetch or the node threw onto the chain layer's error classes, so callers
 * branch on `instanceof ChainUnreachableError` instead of parsing node-specific messages.
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError,
  decodeErrorResult,
  type Address,
  type Hex,
} from 'viem';
import { BelowBaseFeeError, ChainError, ChainUnreachableError, InsufficientFundsError, RateLimitedError, ReplacementUnderpricedError, TransactionRevertedError } from './errors.js';
import { REGISTRY_ABI } from './registry-artifact.js';

/** What the failing call was about, to put into the normalised error. */
export interface NormalizeErrorContext {
  rpcUrl: string;
  /** The account that was paying, if any. */
  from?: Address | undefined;
  /** The transaction concerned, if any. */
  hash?: Hex | undefined;
}

/** System error codes that mean the endpoint cannot be reached. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Node messages for an account that cannot pay (geth, anvil, erigon, nethermind, besu). */
const INSUFFICIENT_FUNDS = /insufficient funds|exceeds transaction sender account balance|outoffunds|sender doesn't have enough funds/i;
/** Node messages for a nonce already used by a mined transaction. */
export const NONCE_TOO_LOW = /nonce too low|nonce is too low|oldnonce|invalid transaction nonce/i;
/** Node messages for a nonce taken by another pending transaction. */
export const REPLACEMENT_UNDERPRICED = /replacement transaction underpriced|replacement fee too low|already exists with the same nonce/i;
/** Node messages for exactly this transaction being known already. */
export const ALREADY_KNOWN = /already known|transaction already imported|known transaction|already in (the )?(mem)?pool/i;
const REVERTED = /execution reverted|reverted|revert/i;
/** Node messages for a max fee per gas below the block's base fee (geth, anvil, erigon, nethermind). */
export const BELOW_BASE_FEE = /max fee per gas less than block base fee|fee cap less than block base fee|maxfeepergas .*(below|less than).*base ?fee|feecap.*basefee|fee too low/i;
/** JSON-RPC code of "limit exceeded" (EIP-1474), which providers use for rate limits. */
const LIMIT_EXCEEDED = -32005;

/** Every error in the cause chain, outermost first. */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 20 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** The node's own words for each error in the chain, joined: what message regexes run against. */
export function nodeMessages(error: unknown): string {
  return causeChain(error)
    .map((e) => {
      if (e instanceof BaseError) return e.details || e.shortMessage;
      if (e instanceof Error) return e.message;
      if (typeof e === 'object' && e && 'message' in e) return String((e as { message: unknown }).message);
      return String(e);
    })
    .join(' | ');
}

/** Whether the error means the endpoint could not be reached or did not answer in time. */
export function isTransportFailure(error: unknown): boolean {
  return causeChain(error).some(
    (e) =>
      e instanceof HttpRequestError ||
      e instanceof TimeoutError ||
      e instanceof WebSocketRequestError ||
      e instanceof SocketClosedError ||
      (typeof e === 'object' && e !== null && NETWORK_CODES.has(String((e as { code?: unknown }).code))),
  );
}

/** The revert reason in a reverted call's error, or undefined when it carries none. */
export function revertReason(error: unknown): string | undefined {
  for (const e of causeChain(error)) {
    if (e instanceof ContractFunctionRevertedError && e.reason) return e.reason;
    const data = (e as { data?: unknown } | null)?.data;
    const hex = typeof data === 'string' ? data : typeof data === 'object' && data && typeof (data as { data?: unknown }).data === 'string' ? (data as { data: string }).data : undefined;
    if (hex && /^0x[0-9a-f]{8,}$/i.test(hex)) {
      try {
        const decoded = decodeErrorResult({ abi: REGISTRY_ABI, data: hex as Hex });
        if (decoded.errorName === 'Error') return String(decoded.args?.[0]);
        if (decoded.errorName === 'Panic') return `panic ${String(decoded.args?.[0])}`;
      } catch {
        // not an Error(string) or Panic(uint256) payload: fall back to the message
      }
    }
  }
  const match = /execution reverted:\s*([^|\n]+)/i.exec(nodeMessages(error));
  const reason = match?.[1]?.trim();
  return reason && !/^0x/i.test(reason) ? reason : undefined;
}

/** Whether the error says a call or transaction reverted. */
export function isRevert(error: unknown): boolean {
  return causeChain(error).some((e) => e instanceof ContractFunctionRevertedError || (e as { code?: unknown } | null)?.code === 3) || REVERTED.test(nodeMessages(error));
}

/**
 * Whether the endpoint asked us to slow down (HTTP 429, or JSON-RPC -32005), and for how long
 * when it said so (Retry-After, in seconds or as an HTTP date).
 */
export function rateLimit(error: unknown): { retryAfterMs?: number } | undefined {
  // viem keeps the HTTP status and headers on an HttpRequestError, or on an RpcRequestError when
  // the 429 came with a JSON-RPC body, and wraps either in errors of its own.
  const chain = causeChain(error) as ({ status?: unknown; code?: unknown; headers?: { get?: (name: string) => string | null } } | null)[];
  if (!chain.some((e) => e?.status === 429 || e?.code === LIMIT_EXCEEDED)) return undefined;
  for (const e of chain) {
    const header = typeof e?.headers?.get === 'function' ? e.headers.get('retry-after') : null;
    if (header !== null && header !== undefined) return retryAfterMs(header);
  }
  return {};
}

/** A Retry-After header's wait in ms; nothing for a value that is neither seconds nor a date. */
function retryAfterMs(header: string): { retryAfterMs?: number } {
  if (/^\s*\d+\s*$/.test(header)) return { retryAfterMs: Number(header) * 1000 };
  const date = Date.parse(header);
  return Number.isNaN(date) ? {} : { retryAfterMs: Math.max(0, date - Date.now()) };
}

/** Normalises any error from a chain call into a ChainError subclass. */
export function toChainError(error: unknown, context: NormalizeErrorContext): ChainError {
  if (error instanceof ChainError) return error;
  const details = nodeMessages(error).slice(0, 500);
  const limited = rateLimit(error);
  if (limited) return new RateLimitedError(context.rpcUrl, { cause: error, details, ...limited });
  if (isTransportFailure(error)) return new ChainUnreachableError(context.rpcUrl, { cause: error, details });
  if (BELOW_BASE_FEE.test(details)) return new BelowBaseFeeError({ cause: error, details });
  if (REPLACEMENT_UNDERPRICED.test(details)) return new ReplacementUnderpricedError(context.hash, { cause: error, details });
  if (INSUFFICIENT_FUNDS.test(details)) return new InsufficientFundsError(context.from, { cause: error, details });
  if (isRevert(error)) return new TransactionRevertedError(revertReason(error), { cause: error, details, hash: context.hash });
  return new ChainError('Chain request failed', { cause: error, details });
}
