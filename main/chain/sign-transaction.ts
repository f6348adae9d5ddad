/**
 * Signs a transaction offline with an explicit nonce. Nothing is sent: the caller stores the raw
 * transaction and its hash first, then broadcasts (broadcast-transaction.ts), so a crash can never
 * lead to a second transaction with another nonce for the same purpose.
 */
import { keccak256, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainContext } from './chain-context.js';
import { toChainError } from './normalize-error.js';

export interface SignTransactionRequest {
  /** Recipient; omit to deploy a contract (data is then the creation code). */
  to?: Address | undefined;
  data: Hex;
  /** The nonce to use; see ChainClient.nextNonce. */
  nonce: number;
  /** Gas limit; estimated (plus headroom) when omitted. */
  gas?: bigint | undefined;
}

export interface SignedTransaction {
  /** The signed, serialised transaction, ready for eth_sendRawTransaction. */
  raw: Hex;
  /** Its hash (keccak256 of raw): the transaction id on chain. */
  hash: Hex;
  nonce: number;
  from: Address;
}

/** Gas estimates get this much extra, in percent: state can change between estimate and mining. */
export const GAS_HEADROOM_PERCENT = 25n;

type Fees = { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { type: 'legacy'; gasPrice: bigint };

/**
 * Current fees. EIP-1559: twice the latest base fee plus the node's suggested tip, which stays
 * valid through several full blocks of base-fee growth (the transaction cannot be re-priced:
 * replacing it would be a second transaction). Chains without a base fee get a legacy gas price
 * with 20 % on top.
 */
export async function currentFees(ctx: ChainContext): Promise<Fees> {
  const block = await ctx.client.getBlock({ blockTag: 'latest' });
  if (typeof block.baseFeePerGas === 'bigint') {
    const maxPriorityFeePerGas = await ctx.client.estimateMaxPriorityFeePerGas();
    return { type: 'eip1559', maxFeePerGas: block.baseFeePerGas * 2n + maxPriorityFeePerGas, maxPriorityFeePerGas };
  }
  const gasPrice = await ctx.client.getGasPrice();
  return { type: 'legacy', gasPrice: (gasPrice * 12n) / 10n };
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

/** Signs `request` with `privateKey` for the context's chain; fetches fees (and gas) from the node. */
export async function signTransaction(ctx: ChainContext, privateKey: Hex, request: SignTransactionRequest): Promise<SignedTransaction> {
  if (!Number.isSafeInteger(request.nonce) || request.nonce < 0) throw new TypeError(`nonce must be a non-negative integer, got ${request.nonce}`);
  const account = privateKeyToAccount(privateKey);
  const [fees, gas] = await Promise.all([currentFees(ctx), request.gas ?? estimateGasWithHeadroom(ctx, account.address, request)]);
  const base = { chainId: ctx.chainId, to: request.to ?? null, data: request.data, nonce: request.nonce, gas, value: 0n };
  const raw =
    fees.type === 'eip1559'
      ? await account.signTransaction({ ...base, type: 'eip1559', maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas })
      : await account.signTransaction({ ...base, type: 'legacy', gasPrice: fees.gasPrice });
  return { raw, hash: keccak256(raw), nonce: request.nonce, from: account.address };
}
