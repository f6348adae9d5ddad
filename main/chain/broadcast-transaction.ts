/**
 * Sends a signed transaction, idempotently: sending one the node already has (in its pool or
 * mined) is success, so the engine can re-broadcast a stored transaction after a crash without
 * knowing whether the first attempt got through.
 */
import { keccak256, parseTransaction, recoverTransactionAddress, type Address, type Hex, type TransactionSerialized } from 'viem';
import type { ChainContext } from './chain-context.js';
import { ChainError, NonceConflictError, ReplacementUnderpricedError } from './errors.js';
import { ALREADY_KNOWN, NONCE_TOO_LOW, REPLACEMENT_UNDERPRICED, isTransportFailure, nodeMessages, toChainError } from './normalize-error.js';
import { isTransactionKnown } from './transaction-status.js';

/**
 * Broadcasts `raw` and returns its hash. Throws NonceConflictError when another transaction took
 * its nonce, ReplacementUnderpricedError when a pending one holds it and pays as much,
 * BelowBaseFeeError when its max fee is below the base fee now, InsufficientFundsError when the sender cannot pay, ChainUnreachableError when the
 * node cannot be reached (then nothing is known: broadcast again later).
 */
export async function broadcastTransaction(ctx: ChainContext, raw: Hex): Promise<Hex> {
  const hash = keccak256(raw);
  try {
    const returned = await ctx.client.sendRawTransaction({ serializedTransaction: raw });
    if (returned.toLowerCase() !== hash.toLowerCase()) throw new ChainError(`The node returned hash ${returned} for transaction ${hash}`);
    return hash;
  } catch (error) {
    if (error instanceof ChainError) throw error;
    const sender = await senderOf(raw);
    if (isTransportFailure(error)) throw toChainError(error, { rpcUrl: ctx.rpcUrl, from: sender.from, hash });
    const message = nodeMessages(error);
    // The node has exactly this transaction (same hash) in its pool.
    if (ALREADY_KNOWN.test(message)) return hash;
    // "nonce too low" and friends: fine if it is this very transaction that used the nonce.
    if (await isTransactionKnown(ctx, hash)) return hash;
    // A pending competitor at our nonce that pays as much: wait for it to settle, never fail for it.
    if (REPLACEMENT_UNDERPRICED.test(message)) throw new ReplacementUnderpricedError(hash, { cause: error, details: message.slice(0, 500) });
    if (NONCE_TOO_LOW.test(message)) throw new NonceConflictError(hash, { ...sender, cause: error, details: message.slice(0, 500) });
    throw toChainError(error, { rpcUrl: ctx.rpcUrl, from: sender.from, hash });
  }
}

/** Nonce and sender of a signed transaction, as far as they can be read from it. */
async function senderOf(raw: Hex): Promise<{ nonce?: number; from?: Address }> {
  try {
    const tx = parseTransaction(raw);
    const from = await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized });
    return { nonce: tx.nonce, from };
  } catch {
    return {};
  }
}
