/**
 * One EVM chain, reached over JSON-RPC: offline signing, idempotent broadcast, transaction status
 * and the registry's reads. Every method is bounded by the client's timeout and throws only
 * ChainError subclasses (errors.ts).
 *
 * @example
 * const chain = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: 31337 });
 * const nonce = await chain.nextNonce(account.address);
 * const tx = await chain.signTransaction(key, { to: registry, data: encodeIssue(root), nonce });
 * // store tx.raw and tx.hash, then:
 * await chain.broadcast(tx.raw);
 */
import { createClient, fallback, http, parseTransaction, type Address, type Client, type Hex } from 'viem';
import {
  estimateGas,
  estimateMaxPriorityFeePerGas,
  getBalance,
  getBlock,
  getBlockNumber,
  getChainId,
  getGasPrice,
  getLogs,
  getTransaction as getTransactionAction,
  getTransactionCount,
  getTransactionReceipt as getTransactionReceiptAction,
  readContract,
  sendRawTransaction,
} from 'viem/actions';
import { broadcastTransaction } from './broadcast-transaction.js';
import type { ChainContext, ChainRpc } from './chain-context.js';
import { LOCAL_CHAIN_ID, fundAccount, mineBlocks, setChainTime, setNextBlockTimestamp } from './dev-chain.js';
import { ChainError, ChainMismatchError, ChainUnreachableError } from './errors.js';
import { toChainError, type NormalizeErrorContext } from './normalize-error.js';
import { encodeDeploy, encodeIssue, encodeRevoke } from './registry-calls.js';
import { findMinedByNonce, signedBytesOf, type NonceHolder } from './nonce-holder.js';
import { findIssuingTransaction, readIsIssued, readIsRevoked, readIssuedAt, readRegistry, readRevokedAt, type RegistryInfo } from './registry-reads.js';
import { chooseFees, currentFees, estimateGasWithHeadroom, feesOf, maxCost, signTransaction, type SignTransactionRequest, type SignedTransaction } from './sign-transaction.js';
import { getBlockTimestamp, getConfirmations, getFinalizedBlockNumber, getTransaction, getTransactionReceipt, isTransactionKnown, type TransactionReceiptSummary, type TransactionSummary } from './transaction-status.js';

/** Default bound on every call, including the transport's retries. */
export const DEFAULT_CHAIN_TIMEOUT_MS = 10_000;

/** The chain's head block as one look sees it. */
export interface ChainHead {
  number: bigint;
  /** The block's time, in ms since the epoch (whole seconds). */
  timestamp: number;
  baseFeePerGas: bigint | null;
}

export interface ConnectChainParameters {
  /** http(s) JSON-RPC endpoint. */
  rpcUrl: string;
  /**
   * Every endpoint of the chain, in order of preference (rpcUrl among them, or first): a call
   * one of them cannot answer goes to the next.
   */
  rpcUrls?: readonly string[] | undefined;
  /** The chain id the endpoint must serve; transactions are signed for it. */
  chainId: number;
  /** Bound on each call in milliseconds (default 10 s). */
  timeoutMs?: number | undefined;
  /** Chain ids on which fund() and mine() are allowed (default: 31337 only). */
  devChainIds?: readonly number[] | undefined;
}

// The actions the chain functions call, and no others: viem's createPublicClient attaches
// every public action, and loading them all (simulateCalls, ENS, EIP-712...) parses ABIs at
// start-up that issuing never uses.
export const RPC_ACTIONS = {
  estimateGas,
  estimateMaxPriorityFeePerGas,
  getBalance,
  getBlock,
  getBlockNumber,
  getChainId,
  getGasPrice,
  getLogs,
  getTransaction: getTransactionAction,
  getTransactionCount,
  getTransactionReceipt: getTransactionReceiptAction,
  readContract,
  sendRawTransaction,
};

/** A viem client with the RPC_ACTIONS as its methods, as createPublicClient's are (`client.getBlock(...)`). */
function rpcClient(base: Client): ChainRpc {
  const methods = Object.fromEntries(Object.entries(RPC_ACTIONS).map(([name, action]) => [name, (args: unknown) => (action as (client: Client, args: unknown) => unknown)(base, args)]));
  return base.extend(() => methods) as unknown as ChainRpc;
}

/** A connected chain. Create with ChainClient.connect. */
export class ChainClient {
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly timeoutMs: number;
  readonly #ctx: ChainContext;

  private constructor(ctx: ChainContext, timeoutMs: number) {
    this.#ctx = ctx;
    this.rpcUrl = ctx.rpcUrl;
    this.chainId = ctx.chainId;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Connects to `rpcUrl` and checks that it serves `chainId`.
   * Throws ChainUnreachableError when it does not answer, ChainMismatchError for another chain.
   */
  static async connect(params: ConnectChainParameters): Promise<ChainClient> {
    const timeoutMs = params.timeoutMs ?? DEFAULT_CHAIN_TIMEOUT_MS;
    if (!Number.isSafeInteger(params.chainId) || params.chainId < 1) throw new TypeError(`chainId must be a positive integer, got ${params.chainId}`);
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError(`timeoutMs must be positive, got ${timeoutMs}`);
    const urls = [params.rpcUrl, ...(params.rpcUrls ?? []).filter((u) => u !== params.rpcUrl)];
    for (const candidate of urls) {
      let url: URL;
      try {
        url = new URL(candidate);
      } catch {
        throw new ChainError(`Not a valid RPC URL: ${JSON.stringify(candidate)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ChainError(`RPC URL must be http(s), got ${url.protocol}`);
    }
    // Retries are cheap for a refused connection and help over flaky links; the per-call
    // deadline below bounds them, so a dead endpoint still fails within timeoutMs. A 429 is
    // retried after the Retry-After it names (viem's http transport reads it).
    const transport =
      urls.length === 1
        ? http(params.rpcUrl, { timeout: timeoutMs, retryCount: 2, retryDelay: 100 })
        : fallback(
            urls.map((u) => http(u, { timeout: timeoutMs })),
            { retryCount: 1, retryDelay: 100 },
          );
    const client = rpcClient(createClient({ transport, cacheTime: 0 }));
    const ctx: ChainContext = { client, transport, rpcUrl: params.rpcUrl, chainId: params.chainId, devChainIds: params.devChainIds ?? [LOCAL_CHAIN_ID] };
    const chain = new ChainClient(ctx, timeoutMs);
    const actual = await chain.#run(() => client.getChainId());
    if (actual !== params.chainId) throw new ChainMismatchError(params.rpcUrl, params.chainId, actual);
    return chain;
  }

  /** The next nonce of `address`, counting its pending transactions. */
  nextNonce(address: Address): Promise<number> {
    return this.#run(() => this.#ctx.client.getTransactionCount({ address, blockTag: 'pending' }));
  }

  /** How many transactions of `address` are mined (its next nonce, not counting pending ones). */
  minedNonce(address: Address): Promise<number> {
    return this.#run(() => this.#ctx.client.getTransactionCount({ address, blockTag: 'latest' }));
  }

  /**
   * The mined transaction of `address` with `nonce` at or before block `head` (null when the nonce
   * is not mined there); `near`: a block to start looking from (nonce-holder.ts).
   */
  minedByNonce(address: Address, nonce: number, head: bigint, near?: bigint): Promise<NonceHolder | null> {
    return this.#run(() => findMinedByNonce(this.#ctx, address, nonce, head, near), { from: address });
  }

  /** The signed bytes of a transaction the node knows (rebuilt from its fields), or null. */
  signedBytesOf(hash: Hex): Promise<Hex | null> {
    return this.#run(() => signedBytesOf(this.#ctx, hash), { hash });
  }

  /** Signs a transaction offline (fees, and gas unless given, from the node); sends nothing. */
  signTransaction(privateKey: Hex, request: SignTransactionRequest): Promise<SignedTransaction> {
    return this.#run(() => signTransaction(this.#ctx, privateKey, request));
  }

  /**
   * What sending `calls` from `from` may cost at today's fees (gas × max fee, capped at
   * `maxFeeCap`), and the account's balance. A call with `gas` set is not estimated.
   * FeeAboveCapError when the chain needs more than the cap now.
   */
  estimateCost(from: Address, calls: readonly { to?: Address | undefined; data: Hex; gas?: bigint | undefined }[], maxFeeCap?: bigint): Promise<{ needed: bigint; balance: bigint }> {
    return this.#run(async () => {
      const [market, balance, gases] = await Promise.all([
        currentFees(this.#ctx),
        this.#ctx.client.getBalance({ address: from }),
        Promise.all(calls.map((call) => call.gas ?? estimateGasWithHeadroom(this.#ctx, from, call))),
      ]);
      const fees = chooseFees(market, undefined, maxFeeCap);
      return { needed: gases.reduce((sum, gas) => sum + maxCost(gas, fees), 0n), balance };
    }, { from });
  }

  /** The head block's number, time and base fee (null on a chain without one), in one request. */
  head(): Promise<ChainHead> {
    return this.#run(async () => {
      const block = await this.#ctx.client.getBlock({ blockTag: 'latest' });
      return { number: block.number, timestamp: Number(block.timestamp) * 1000, baseFeePerGas: block.baseFeePerGas ?? null };
    });
  }

  /**
   * Signs a replacement of the signed transaction `raw`: the same call, gas and nonce, both fees
   * raised by at least REPLACEMENT_BUMP_PERCENT (more when the market asks), at most `maxFeeCap`.
   */
  signReplacement(privateKey: Hex, raw: Hex, maxFeeCap?: bigint): Promise<SignedTransaction> {
    const tx = parseTransaction(raw);
    const { gas, ...replaces } = feesOf(raw);
    return this.signTransaction(privateKey, { to: tx.to ?? undefined, data: tx.data ?? '0x', nonce: tx.nonce ?? 0, gas, replaces, maxFeeCap });
  }

  /** Broadcasts a signed transaction; idempotent. Returns its hash. */
  broadcast(raw: Hex): Promise<Hex> {
    return this.#run(() => broadcastTransaction(this.#ctx, raw));
  }

  /** The receipt of a mined transaction, or null while it is not mined. */
  getReceipt(hash: Hex): Promise<TransactionReceiptSummary | null> {
    return this.#run(() => getTransactionReceipt(this.#ctx, hash), { hash });
  }

  /** Blocks including the transaction (1 = just mined); 0 when not mined. */
  confirmations(hash: Hex): Promise<number> {
    return this.#run(() => getConfirmations(this.#ctx, hash), { hash });
  }

  /** The transaction (sender, recipient, calldata, nonce, block) as the node knows it, or null. */
  getTransaction(hash: Hex): Promise<TransactionSummary | null> {
    return this.#run(() => getTransaction(this.#ctx, hash), { hash });
  }

  /** Whether the node knows the transaction (in its pool or mined). */
  isKnown(hash: Hex): Promise<boolean> {
    return this.#run(() => isTransactionKnown(this.#ctx, hash), { hash });
  }

  /** The current head block number. */
  blockNumber(): Promise<bigint> {
    return this.#run(() => this.#ctx.client.getBlockNumber({ cacheTime: 0 }));
  }

  /** The hash of block 0: names the chain beyond its chain id (every dev chain is 31337). */
  genesisHash(): Promise<Hex> {
    return this.#run(async () => (await this.#ctx.client.getBlock({ blockNumber: 0n })).hash as Hex);
  }

  /** The timestamp of block `blockNumber`. */
  blockTimestamp(blockNumber: bigint): Promise<Date> {
    return this.#run(() => getBlockTimestamp(this.#ctx, blockNumber));
  }

  /** The latest final block (the `finalized` tag); null when the node does not serve that tag. */
  finalizedBlockNumber(): Promise<bigint | null> {
    return this.#run(() => getFinalizedBlockNumber(this.#ctx));
  }

  /** Balance of `address` in wei. */
  balanceOf(address: Address): Promise<bigint> {
    return this.#run(() => this.#ctx.client.getBalance({ address }));
  }

  /** Local dev chain only: adds `weiAmount` to the balance of `address`; returns the new balance. */
  fund(address: Address, weiAmount: bigint): Promise<bigint> {
    return this.#run(() => fundAccount(this.#ctx, address, weiAmount));
  }

  /** Local dev chain only: mines `blocks` empty blocks; returns the new head block number. */
  mine(blocks = 1): Promise<bigint> {
    return this.#run(() => mineBlocks(this.#ctx, blocks));
  }

  /** Local dev chain only: the next block is mined at exactly `seconds` (Unix time, not before the head block). */
  setNextBlockTimestamp(seconds: number): Promise<void> {
    return this.#run(() => setNextBlockTimestamp(this.#ctx, seconds));
  }

  /** Local dev chain only: sets the chain's clock to `seconds` (Unix time) for the blocks after. */
  setTime(seconds: number): Promise<void> {
    return this.#run(() => setChainTime(this.#ctx, seconds));
  }

  /** Creation data of a registry binding `signingKey` (32 bytes) to the deploying account. */
  encodeDeploy(signingKey: Hex): Hex {
    return encodeDeploy(signingKey);
  }

  /** Calldata of `issue(root)`. */
  encodeIssue(root: Hex): Hex {
    return encodeIssue(root);
  }

  /** Calldata of `revoke(hash)`. */
  encodeRevoke(hash: Hex): Hex {
    return encodeRevoke(hash);
  }

  /** Owner and signing key of the registry at `address`; RegistryNotFoundError when there is none. */
  readRegistry(address: Address): Promise<RegistryInfo> {
    return this.#run(() => readRegistry(this.#ctx, address));
  }

  /** Whether `root` was issued on the registry at `address`. */
  isIssued(address: Address, root: Hex): Promise<boolean> {
    return this.#run(() => readIsIssued(this.#ctx, address, root));
  }

  /** Unix time (seconds) at which `root` was issued; 0n when it was not. `blockNumber`: as of that block (default: the head). */
  issuedAt(address: Address, root: Hex, blockNumber?: bigint): Promise<bigint> {
    return this.#run(() => readIssuedAt(this.#ctx, address, root, blockNumber));
  }

  /** The transaction that issued `root` on the registry at `address` between two blocks; null when none did. */
  issuingTransaction(address: Address, root: Hex, fromBlock: bigint, toBlock: bigint): Promise<Hex | null> {
    return this.#run(() => findIssuingTransaction(this.#ctx, address, root, fromBlock, toBlock));
  }

  /** Whether `hash` was revoked on the registry at `address`. */
  isRevoked(address: Address, hash: Hex): Promise<boolean> {
    return this.#run(() => readIsRevoked(this.#ctx, address, hash));
  }

  /** Unix time (seconds) at which `hash` was revoked; 0n when it was not. */
  revokedAt(address: Address, hash: Hex): Promise<bigint> {
    return this.#run(() => readRevokedAt(this.#ctx, address, hash));
  }

  /** Runs `op` within the timeout and normalises whatever it throws. */
  async #run<T>(op: () => Promise<T>, context: Omit<NormalizeErrorContext, 'rpcUrl'> = {}): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ChainUnreachableError(this.rpcUrl, { details: `no answer within ${this.timeoutMs} ms` })), this.timeoutMs);
    });
    try {
      return await Promise.race([op(), deadline]);
    } catch (error) {
      if (error instanceof TypeError || error instanceof RangeError) throw error;
      throw toChainError(error, { rpcUrl: this.rpcUrl, ...context });
    } finally {
      clearTimeout(timer);
    }
  }
}
