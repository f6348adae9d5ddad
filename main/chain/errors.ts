/**
 * The chain layer's errors: one base class and one small subclass per failure a caller acts on
 * differently. Raw viem and transport errors never leave main/chain; they end up as the `cause`
 * of one of these (see normalize-error.ts).
 */
import type { Address, Hex } from 'viem';
import { formatEtherText, formatGweiText } from './format-units.js';

/** Stable identifiers, one per class, safe to carry across IPC or store in a database. */
export type ChainErrorCode =
  | 'chain_error'
  | 'chain_unreachable'
  | 'chain_mismatch'
  | 'insufficient_funds'
  | 'transaction_reverted'
  | 'nonce_conflict'
  | 'registry_not_found'
  | 'below_base_fee'
  | 'replacement_underpriced'
  | 'fee_above_cap'
  | 'rate_limited'
  | 'key_in_use_elsewhere';

export interface ChainErrorOptions {
  /** The underlying error (a viem error, a system error, ...). */
  cause?: unknown;
  /** A line of technical detail (the node's message, a URL, ...). */
  details?: string;
}

/** Base class: something went wrong talking to a chain or the local chain process. */
export class ChainError extends Error {
  override name = 'ChainError';
  readonly code: ChainErrorCode = 'chain_error';
  readonly details: string | undefined;

  constructor(message: string, options: ChainErrorOptions = {}) {
    super(options.details ? `${message}\n\nDetails: ${options.details}` : message, { cause: options.cause });
    this.details = options.details;
  }

  /** The message without the details line. */
  get shortMessage(): string {
    return this.message.split('\n\nDetails: ')[0] ?? this.message;
  }
}

/** The RPC endpoint refused the connection, timed out or answered with a transport error. */
export class ChainUnreachableError extends ChainError {
  override name = 'ChainUnreachableError';
  override readonly code = 'chain_unreachable';
  readonly rpcUrl: string;

  constructor(rpcUrl: string, options: ChainErrorOptions = {}) {
    super(`Chain RPC endpoint ${rpcUrl} is unreachable`, options);
    this.rpcUrl = rpcUrl;
  }
}

/** The node at the RPC URL serves another chain than the one configured. */
export class ChainMismatchError extends ChainError {
  override name = 'ChainMismatchError';
  override readonly code = 'chain_mismatch';
  readonly expected: number;
  readonly actual: number;

  constructor(rpcUrl: string, expected: number, actual: number, options: ChainErrorOptions = {}) {
    super(`Chain RPC endpoint ${rpcUrl} serves chain id ${actual}, expected ${expected}`, options);
    this.expected = expected;
    this.actual = actual;
  }
}

/** The sending account cannot pay for gas (and value). */
export class InsufficientFundsError extends ChainError {
  override name = 'InsufficientFundsError';
  override readonly code = 'insufficient_funds';
  readonly address: Address | undefined;
  /** Wei the transaction may cost (gas × max fee), when known. */
  readonly needed: bigint | undefined;
  /** The account's balance in wei, when known. */
  readonly balance: bigint | undefined;

  constructor(address: Address | undefined, options: ChainErrorOptions & { needed?: bigint; balance?: bigint } = {}) {
    const who = address ? `Account ${address}` : 'The account';
    const amounts =
      options.needed !== undefined ? `: it needs ${formatAmount(options.needed)} (gas × max fee)${options.balance !== undefined ? ` and holds ${formatAmount(options.balance)}` : ''}` : '';
    super(`${who} has insufficient funds to pay for the transaction${amounts}`, options);
    this.address = address;
    this.needed = options.needed;
    this.balance = options.balance;
  }
}

/** An amount of the chain's native coin, in whole units (18 decimals) and in wei. */
export function formatAmount(wei: bigint): string {
  return `${formatEtherText(wei)} (${wei} wei)`;
}

/** The transaction's max fee per gas is below the current block's base fee: the node will not take it now. */
export class BelowBaseFeeError extends ChainError {
  override name = 'BelowBaseFeeError';
  override readonly code = 'below_base_fee';

  constructor(options: ChainErrorOptions = {}) {
    super('The transaction offers a max fee per gas below the block base fee', options);
  }
}

/** Another pending transaction holds the nonce and this one does not pay enough more to replace it. */
export class ReplacementUnderpricedError extends ChainError {
  override name = 'ReplacementUnderpricedError';
  override readonly code = 'replacement_underpriced';
  readonly hash: Hex | undefined;

  constructor(hash: Hex | undefined, options: ChainErrorOptions = {}) {
    super(`A pending transaction holds the nonce${hash ? ` of ${hash}` : ''} and pays at least as much`, options);
    this.hash = hash;
  }
}

/** The fee the chain asks for now is above the engine's fee cap: nothing is signed until it falls. */
export class FeeAboveCapError extends ChainError {
  override name = 'FeeAboveCapError';
  override readonly code = 'fee_above_cap';
  /** The cap (max fee per gas, wei). */
  readonly cap: bigint;
  /** The fee per gas the chain needs now (wei): the base fee plus the tip, or a replacement's minimum. */
  readonly current: bigint;

  constructor(cap: bigint, current: bigint, options: ChainErrorOptions = {}) {
    super(`waiting for fees below ${formatGweiText(cap)} gwei (now ${formatGweiText(current)})`, options);
    this.cap = cap;
    this.current = current;
  }
}

/** The endpoint asks us to slow down (HTTP 429, JSON-RPC -32005); `retryAfterMs` when it says how long. */
export class RateLimitedError extends ChainError {
  override name = 'RateLimitedError';
  override readonly code = 'rate_limited';
  readonly rpcUrl: string;
  readonly retryAfterMs: number | undefined;

  constructor(rpcUrl: string, options: ChainErrorOptions & { retryAfterMs?: number } = {}) {
    super(`Chain RPC endpoint ${rpcUrl} is rate limiting requests${options.retryAfterMs !== undefined ? ` (retry after ${Math.ceil(options.retryAfterMs / 1000)} s)` : ''}`, options);
    this.rpcUrl = rpcUrl;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The transaction (or its gas estimate) reverted; `reason` is the revert string when there is one. */
export class TransactionRevertedError extends ChainError {
  override name = 'TransactionRevertedError';
  override readonly code = 'transaction_reverted';
  readonly reason: string | undefined;
  readonly hash: Hex | undefined;

  constructor(reason: string | undefined, options: ChainErrorOptions & { hash?: Hex } = {}) {
    super(reason ? `Transaction reverted: ${reason}` : 'Transaction reverted', options);
    this.reason = reason;
    this.hash = options.hash;
  }
}

/** Another transaction already uses (or replaces) this transaction's nonce. */
export class NonceConflictError extends ChainError {
  override name = 'NonceConflictError';
  override readonly code = 'nonce_conflict';
  readonly hash: Hex;
  readonly nonce: number | undefined;
  readonly from: Address | undefined;

  constructor(hash: Hex, options: ChainErrorOptions & { nonce?: number; from?: Address } = {}) {
    super(`Transaction ${hash} conflicts with another transaction using nonce ${options.nonce ?? '?'}${options.from ? ` of ${options.from}` : ''}`, options);
    this.hash = hash;
    this.nonce = options.nonce;
    this.from = options.from;
  }
}

/**
 * A transaction this data directory did not sign holds the nonce of one of its transactions: another
 * Proofdesk (another data directory with the same restored key) is issuing from the account.
 */
export class KeyInUseElsewhereError extends ChainError {
  override name = 'KeyInUseElsewhereError';
  override readonly code = 'key_in_use_elsewhere';
  readonly address: Address;
  readonly nonce: number;
  /** The other transaction, when known (a pending one is known only by the node's refusal). */
  readonly hash: Hex | undefined;

  constructor(address: Address, nonce: number, hash: Hex | undefined, then: string, options: ChainErrorOptions = {}) {
    super(`another Proofdesk is using this key: ${hash ? `transaction ${hash}` : 'a pending transaction'}, not signed by this data directory, holds nonce ${nonce} of ${address}; ${then}`, options);
    this.address = address;
    this.nonce = nonce;
    this.hash = hash;
  }
}

/** No registry contract answers at the address (no code, or not a ProofdeskRegistry). */
export class RegistryNotFoundError extends ChainError {
  override name = 'RegistryNotFoundError';
  override readonly code = 'registry_not_found';
  readonly address: Address;

  constructor(address: Address, options: ChainErrorOptions = {}) {
    super(`No ProofdeskRegistry at ${address}`, options);
    this.address = address;
  }
}
