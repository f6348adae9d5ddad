/** Where a transaction stands: known to the node, mined, how deep. Addresses come back checksummed. */
import { BaseError, BlockNotFoundError, RpcRequestError, TransactionNotFoundError, TransactionReceiptNotFoundError, getAddress, type Address, type Hex } from 'viem';
import type { ChainContext } from './chain-context.js';

export interface TransactionReceiptSummary {
  status: 'success' | 'reverted';
  blockNumber: bigint;
  blockHash: Hex;
  /** The deployed contract's address for a contract creation, else null. */
  contractAddress: Address | null;
  gasUsed: bigint;
}

/** The receipt of a mined transaction, or null while it is not mined (pending, dropped or unknown). */
export async function getTransactionReceipt(ctx: ChainContext, hash: Hex): Promise<TransactionReceiptSummary | null> {
  try {
    const receipt = await ctx.client.getTransactionReceipt({ hash });
    return { status: receipt.status, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, contractAddress: receipt.contractAddress ? getAddress(receipt.contractAddress) : null, gasUsed: receipt.gasUsed };
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

/** How many blocks include the transaction: 1 in its own block, 0 when not mined. */
export async function getConfirmations(ctx: ChainContext, hash: Hex): Promise<number> {
  const receipt = await getTransactionReceipt(ctx, hash);
  if (!receipt) return 0;
  const head = await ctx.client.getBlockNumber({ cacheTime: 0 });
  return head < receipt.blockNumber ? 0 : Number(head - receipt.blockNumber + 1n);
}

export interface TransactionSummary {
  from: Address;
  /** Recipient; null for a contract creation. */
  to: Address | null;
  /** Calldata (creation code for a contract creation). */
  input: Hex;
  nonce: number;
  /** The block that includes it; null while pending. */
  blockNumber: bigint | null;
}

/** The transaction as the node knows it (pending or mined), or null when it does not. */
export async function getTransaction(ctx: ChainContext, hash: Hex): Promise<TransactionSummary | null> {
  try {
    const tx = await ctx.client.getTransaction({ hash });
    return { from: getAddress(tx.from), to: tx.to ? getAddress(tx.to) : null, input: tx.input, nonce: tx.nonce, blockNumber: tx.blockNumber ?? null };
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return null;
    throw error;
  }
}

/** Whether the node knows the transaction: in its pool or mined. */
export async function isTransactionKnown(ctx: ChainContext, hash: Hex): Promise<boolean> {
  try {
    await ctx.client.getTransaction({ hash });
    return true;
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return false;
    throw error;
  }
}

/** The timestamp of a block. */
export async function getBlockTimestamp(ctx: ChainContext, blockNumber: bigint): Promise<Date> {
  const block = await ctx.client.getBlock({ blockNumber });
  return new Date(Number(block.timestamp) * 1000);
}

/**
 * The number of the chain's latest final block (the `finalized` block tag), or null when the node
 * does not serve that tag (an older node, a chain without a finality gadget). A node that cannot
 * be reached throws as any other call does: only a JSON-RPC answer refusing the tag means null.
 */
export async function getFinalizedBlockNumber(ctx: ChainContext): Promise<bigint | null> {
  try {
    const block = await ctx.client.getBlock({ blockTag: 'finalized' });
    return block.number ?? null;
  } catch (error) {
    // viem wraps the node's JSON-RPC error answer (RpcRequestError) in a class per error code.
    if (error instanceof BlockNotFoundError || (error instanceof BaseError && error.walk((e) => e instanceof RpcRequestError))) return null;
    throw error;
  }
}
