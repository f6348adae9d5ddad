/**
 * Which mined transaction holds an account's nonce: what an engine asks when the node says a
 * nonce is used ("nonce too low") and none of its own transactions answers by hash. Asked by block
 * number, never "latest" alone, so a load-balanced endpoint whose nodes disagree answers each
 * question about one block consistently (or fails), and a lagging node cannot pass for a lost one.
 */
import { getAddress, keccak256, serializeTransaction, type Address, type Hex } from 'viem';
import type { ChainContext } from './chain-context.js';

/** The mined transaction that used a nonce. */
export interface NonceHolder {
  hash: Hex;
  blockNumber: bigint;
  blockHash: Hex;
}

/** How many transactions of `address` are mined at block `blockNumber` (its next nonce there). */
function transactionCountAt(ctx: ChainContext, address: Address, blockNumber: bigint): Promise<number> {
  return ctx.client.getTransactionCount({ address, blockNumber });
}

/**
 * The mined transaction of `address` with `nonce`, found at or before block `head`: the first
 * block whose count passes the nonce is found by halving (the count only grows with the height),
 * from `near` (where the search starts looking, e.g. the block the engine sent its own
 * transaction at) outwards; then that block's transactions are read. Null when the nonce is not
 * mined at `head`. A node that cannot serve an old block's state fails the call (then the caller
 * waits): it never answers null for a nonce that is used.
 */
export async function findMinedByNonce(ctx: ChainContext, address: Address, nonce: number, head: bigint, near?: bigint): Promise<NonceHolder | null> {
  if ((await transactionCountAt(ctx, address, head)) <= nonce) return null;
  // hi: a block where the nonce is used; lo: one where it is not (or -1: before the genesis).
  let hi = head;
  let lo = -1n;
  let step = 1n;
  for (let probe = near !== undefined && near < head ? near : head - 1n; probe >= 0n; probe = hi - step, step *= 2n) {
    if ((await transactionCountAt(ctx, address, probe)) <= nonce) {
      lo = probe;
      break;
    }
    hi = probe;
  }
  while (hi - lo > 1n) {
    const mid = lo + (hi - lo) / 2n;
    if ((await transactionCountAt(ctx, address, mid)) > nonce) hi = mid;
    else lo = mid;
  }
  const block = await ctx.client.getBlock({ blockNumber: hi, includeTransactions: true });
  const sender = getAddress(address);
  const tx = block.transactions.find((t) => getAddress(t.from) === sender && t.nonce === nonce);
  if (!tx || !block.hash) return null;
  return { hash: tx.hash, blockNumber: hi, blockHash: block.hash };
}

/**
 * The signed bytes of a transaction the node knows, rebuilt from its fields and signature (to
 * keep a transaction another holder of the key sent as if signed here). Null when unknown.
 */
export async function signedBytesOf(ctx: ChainContext, hash: Hex): Promise<Hex | null> {
  const tx = await ctx.client.getTransaction({ hash }).catch(() => null);
  if (!tx) return null;
  const signature = { r: tx.r, s: tx.s, ...(tx.yParity !== undefined ? { yParity: tx.yParity } : { v: tx.v }) };
  const base = { chainId: tx.chainId ?? ctx.chainId, nonce: tx.nonce, to: tx.to ?? undefined, data: tx.input, value: tx.value, gas: tx.gas };
  const raw =
    tx.type === 'eip1559'
      ? serializeTransaction({ ...base, type: 'eip1559', maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas, accessList: tx.accessList }, signature)
      : serializeTransaction({ ...base, type: 'legacy', gasPrice: tx.gasPrice }, signature);
  // A type this does not rebuild exactly (blobs, authorisations) gives other bytes: not kept.
  return keccak256(raw) === hash ? raw : null;
}
