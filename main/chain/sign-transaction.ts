/**
 * Signs a transaction offline with an explicit nonce. Nothing is sent: the caller stores the raw
 * transaction and its hash first, then broadcasts (broadcast-transaction.ts), so a crash can never
 * lead to a second transaction with another nonce for the same purpose.
 */
import { keccak256, parseTransaction, type Address, type Hex } from 'viem';
import { accountFromPrivateKey } from './accounts.js';
import type { ChainContext } from './chain-context.js';
import { FeeAboveCapError, InsufficientFundsError } from './errors.js';
import { toChainError } from './normalize-error.js';

export interface SignTransactionRequest {
  /** Recipient; omit to deploy a contract (data is then the creation code). */
  to?: Address | undefined;
  data: Hex;
  /** The nonce to use; see ChainClient.nextNonce. */
  nonce: number;
  /** Gas limit; estimated (plus headroom) when omitted. */
  gas?: bigint | undefined;
  /** The highest max fee per gas (wei) to offer; FeeAboveCapError when the chain needs more now. */
  maxFeeCap?: bigint | undefined;
  /** The fees of the stored variant this one replaces (same nonce): each is raised by at least REPLACEMENT_BUMP_PERCENT. */
  replaces?: TransactionFees | undefined;
}

/** What a transaction offers to pay per gas. */
export type TransactionFees = { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { type: 'legacy'; gasPrice: bigint };

export interface SignedTransaction {
  /** The signed, serialised transaction, ready for eth_sendRawTransaction. */
  raw: Hex;
  /** Its hash (keccak256 of raw): the transaction id on chain. */
  hash: Hex;
  nonce: number;
  from: Address;
  gas: bigint;
  fees: TransactionFees;
}

/** Gas estimates get this much extra, in percent: state can change between estimate and mining. */
export const GAS_HEADROOM_PERCENT = 25n;

/** Nodes take a replacement at the same nonce only when both fees rise by at least 10 % (geth's default). */
export const REPLACEMENT_BUMP_PERCENT = 10n;

/**
 * Current fees. EIP-1559: twice the latest base fee plus the node's suggested tip, which stays
 * valid through several full blocks of base-fee growth (a stuck transaction is replaced with
 * higher fees, see docs/chain.md). Chains without a base fee get a legacy gas price with 20 % on top.
 */
export async function currentFees(ctx: ChainContext): Promise<TransactionFees & { baseFeePerGas: bigint | null }> {
  const block = await ctx.client.getBlock({ blockTag: 'latest' });
  if (typeof block.baseFeePerGas === 'bigint') {
    const maxPriorityFeePerGas = await ctx.client.estimateMaxPriorityFeePerGas();
    return { type: 'eip1559', maxFeePerGas: block.baseFeePerGas * 2n + maxPriorityFeePerGas, maxPriorityFeePerGas, baseFeePerGas: block.baseFeePerGas };
  }
  const gasPrice = await ctx.client.getGasPrice();
  return { type: 'legacy', gasPrice: (gasPrice * 12n) / 10n, baseFeePerGas: null };
}

/** `value` raised by REPLACEMENT_BUMP_PERCENT, rounded up (a node compares in whole wei). */
function bumped(value: bigint): bigint {
  return value + (value * REPLACEMENT_BUMP_PERCENT + 99n) / 100n;
}

/**
 * The fees to sign with: the market's, at least a bump over the replaced variant's, and never
 * above `cap`. Throws FeeAboveCapError when the cap cannot buy a place in a block (the base fee
 * plus the tip above it) or a valid replacement.
 */
export function chooseFees(market: TransactionFees & { baseFeePerGas: bigint | null }, replaces: TransactionFees | undefined, cap: bigint | undefined): TransactionFees {
  if (market.type === 'legacy') {
    const floor = replaces ? bumped(replaces.type === 'legacy' ? replaces.gasPrice : replaces.maxFeePerGas) : 0n;
    const wanted = market.gasPrice > floor ? market.gasPrice : floor;
    if (cap !== undefined && wanted > cap) {
      if (floor > cap || (market.gasPrice * 10n) / 12n > cap) throw new FeeAboveCapError(cap, floor > market.gasPrice ? floor : (market.gasPrice * 10n) / 12n);
      return { type: 'legacy', gasPrice: cap };
    }
    return { type: 'legacy', gasPrice: wanted };
  }
  const oldTip = replaces ? (replaces.type === 'legacy' ? replaces.gasPrice : replaces.maxPriorityFeePerGas) : 0n;
  const oldMax = replaces ? (replaces.type === 'legacy' ? replaces.gasPrice : replaces.maxFeePerGas) : 0n;
  const tip = replaces && bumped(oldTip) > market.maxPriorityFeePerGas ? bumped(oldTip) : market.maxPriorityFeePerGas;
  const base = market.baseFeePerGas ?? 0n;
  let maxFee = base * 2n + tip;
  if (replaces && bumped(oldMax) > maxFee) maxFee = bumped(oldMax);
  if (cap !== undefined && maxFee > cap) {
    // Capped: still worth signing when it is in a block now (base fee + tip) and a valid replacement.
    const needed = base + tip > (replaces ? bumped(oldMax) : 0n) ? base + tip : bumped(oldMax);
    if (needed > cap) throw new FeeAboveCapError(cap, needed);
    maxFee = cap;
  }
  return { type: 'eip1559', maxFeePerGas: maxFee, maxPriorityFeePerGas: tip };
}

/** The fees a signed transaction offers, read from its bytes. */
export function feesOf(raw: Hex): TransactionFees & { gas: bigint } {
  const tx = parseTransaction(raw);
  if (tx.type === 'eip1559' && tx.maxFeePerGas !== undefined && tx.maxPriorityFeePerGas !== undefined) {
    return { type: 'eip1559', maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas, gas: tx.gas ?? 0n };
  }
  return { type: 'legacy', gasPrice: tx.gasPrice ?? 0n, gas: tx.gas ?? 0n };
}

/** The most a transaction can cost: gas limit × max fee per gas (× gas price for legacy). */
export function maxCost(gas: bigint, fees: TransactionFees): bigint {
  return gas * (fees.type === 'eip1559' ? fees.maxFeePerGas : fees.gasPrice);
}

/** Estimates gas for the call from `from`, with GAS_HEADROOM_PERCENT on top. A revert throws TransactionRevertedError. */
export async function estimateGasWithHeadroom(ctx: ChainContext, from: Address, request: Pick<SignTransactionRequest, 'to' | 'data'>): Promise<bigint> {
  try {
    const gas = await ctx.client.estimateGas({ account: from, to: request.to, data: request.data, value: 0n });
    return gas + (gas * GAS_HEADROOM_PERCENT) / 100n;
  } catch (error) {
    throw toChainError(error, { rpcUrl: ctx.rpcUrl, from });
  }
}

/**
 * Signs `request` with `privateKey` for the context's chain; fetches fees (and gas) from the node.
 * Refuses before signing, with InsufficientFundsError naming the amount, when the account's
 * balance is below gas × max fee: such a transaction could sit unmined forever.
 */
export async function signTransaction(ctx: ChainContext, privateKey: Hex, request: SignTransactionRequest): Promise<SignedTransaction> {
  if (!Number.isSafeInteger(request.nonce) || request.nonce < 0) throw new TypeError(`nonce must be a non-negative integer, got ${request.nonce}`);
  const account = accountFromPrivateKey(privateKey);
  const [market, gas, balance] = await Promise.all([
    currentFees(ctx),
    request.gas ?? estimateGasWithHeadroom(ctx, account.address, request),
    ctx.client.getBalance({ address: account.address }),
  ]);
  const fees = chooseFees(market, request.replaces, request.maxFeeCap);
  const needed = maxCost(gas, fees);
  if (balance < needed) throw new InsufficientFundsError(account.address, { needed, balance });
  const base = { chainId: ctx.chainId, to: request.to ?? null, data: request.data, nonce: request.nonce, gas, value: 0n };
  const raw =
    fees.type === 'eip1559'
      ? await account.signTransaction({ ...base, type: 'eip1559', maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas })
      : await account.signTransaction({ ...base, type: 'legacy', gasPrice: fees.gasPrice });
  return { raw, hash: keccak256(raw), nonce: request.nonce, from: account.address, gas, fees };
}
