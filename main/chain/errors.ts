/**
 * The chain layer's errors: one base class and one small subclass per failure a caller acts on
 * differently. Raw viem and transport errors never leave main/chain; they end up as the `cause`
 * of one of these (see normalize-error.ts).
 */
import type { Address, Hex } from 'viem';

/** Stable identifiers, one per class, safe to carry across IPC or store in a database. */
export type ChainErrorCode =
  | 'chain_error'
  | 'chain_unreachable'
  | 'chain_mismatch'
  | 'insufficient_funds'
  | 'transaction_reverted'
  | 'nonce_conflict'
  | 'registry_not_found';

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

  constructor(address: Address | undefined, options: ChainErrorOptions = {}) {
    super(address ? `Account ${address} has insufficient funds to pay for the transaction` : 'The account has insufficient funds to pay for the transaction', options);
    this.address = address;
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
