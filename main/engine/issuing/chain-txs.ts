import { BelowBaseFeeError, NonceConflictError, feesOf, type Address, type ChainClient, type ChainHead, type Hex, type TransactionReceiptSummary } from '../../chain/index.js';
import type { Clock } from '../clock.js';
import { inTransaction, type Db } from '../database.js';
import { cached } from '../list-query.js';
import { faultPoint } from './fault-points.js';

export type TxPurpose = 'deploy' | 'issue' | 'revoke';

/** A transaction as stored: signed bytes first, chain facts as they become known. */
export interface ChainTx {
  id: number;
  engine: string;
  sender: Address;
  nonce: number;
  purpose: TxPurpose;
  raw: Hex;
  hash: Hex;
  state: 'signed' | 'sent' | 'mined' | 'reverted' | 'dropped';
  block_number: number | null;
  mined_date: number | null;
  contract_address: Address | null;
}

export function loadTx(db: Db, id: number): ChainTx {
  return cached(db, 'SELECT * FROM chain_txs WHERE id = ?').get(id) as ChainTx;
}

/**
 * Signs a transaction and stores it before anything is broadcast; `link` runs in the same
 * database transaction to tie it to what it is for (a job, a registry, a certificate). The
 * nonce follows the node's count and any of our transactions still in flight, so after a
 * crash the stored transaction is re-sent rather than a second one signed.
 */
export async function signAndStore(
  db: Db,
  clock: Clock,
  client: ChainClient,
  request: { engine: string; sender: Address; privateKey: Hex; purpose: TxPurpose; to?: Address; data: Hex; maxFeeCap?: bigint },
  link: (txId: number) => void,
): Promise<ChainTx> {
  const inFlight = cached(db, "SELECT max(nonce) FROM chain_txs WHERE engine = ? AND sender = ? AND state IN ('signed', 'sent')").pluck().get(request.engine, request.sender) as
    | number
    | null;
  const nonce = Math.max(await client.nextNonce(request.sender), inFlight === null ? 0 : inFlight + 1);
  // The chain counts fewer transactions than we recorded as mined: it lost blocks. Signing on
  // would collide with the stored transaction of that nonce; reconciling re-sends it instead.
  if (cached(db, "SELECT 1 FROM chain_txs WHERE engine = ? AND sender = ? AND nonce = ? AND state <> 'dropped'").get(request.engine, request.sender, nonce)) {
    throw new ChainStateLostError(request.engine, `the chain counts ${nonce} transactions of ${request.sender}, fewer than were recorded`);
  }
  const signed = await client.signTransaction(request.privateKey, { to: request.to, data: request.data, nonce, maxFeeCap: request.maxFeeCap });
  const id = inTransaction(db, () => {
    // Signatures are deterministic: re-signing what the chain once refused can give the very
    // same transaction. Its dropped row then comes back to life instead of a twin.
    const dropped = cached(db, "SELECT id FROM chain_txs WHERE hash = ? AND state = 'dropped'").pluck().get(signed.hash) as number | undefined;
    const txId =
      dropped !== undefined
        ? (cached(db, "UPDATE chain_txs SET state = 'signed', created_date = ? WHERE id = ?").run(clock.now(), dropped), dropped)
        : (cached(db, "INSERT INTO chain_txs (engine, sender, nonce, purpose, raw, hash, state, created_date) VALUES (?, ?, ?, ?, ?, ?, 'signed', ?)").run(
            request.engine,
            request.sender,
            nonce,
            request.purpose,
            signed.raw,
            signed.hash,
            clock.now(),
          ).lastInsertRowid as number);
    storeVariant(db, clock, txId, signed.raw, signed.hash, null);
    link(txId);
    return txId;
  });
  faultPoint(`after-sign-${request.purpose}`);
  return loadTx(db, id);
}

/**
 * Broadcasts a stored transaction (again, if need be: re-sending is harmless). A nonce the node
 * says is used, and that none of the transaction's own variants holds by its receipt, rethrows
 * NonceConflictError with the transaction left as it is: that answer alone does not make it
 * dropped (a lagging node behind a load balancer says so of a mined transaction); the caller
 * finds out what holds the nonce (taken-nonce.ts). An account short of funds, a pending
 * competitor or a base fee above the max fee also leave it stored as it is: the caller waits.
 */
export async function sendTx(db: Db, client: ChainClient, tx: ChainTx): Promise<void> {
  try {
    await client.broadcast(tx.raw);
  } catch (error) {
    // One of our own earlier variants took the nonce: mined, which the next look records.
    if (error instanceof NonceConflictError && (await adoptMinedVariant(db, client, tx))) return;
    throw error;
  }
  if (tx.state === 'signed') cached(db, "UPDATE chain_txs SET state = 'sent' WHERE id = ?").run(tx.id);
  faultPoint(`after-broadcast-${tx.purpose}`);
}

/** How a stuck transaction is replaced: the account's key, the engine's fee cap and patience. */
export interface ReplacementPolicy {
  privateKey: Hex;
  /** Highest max fee per gas (wei) a variant may offer. */
  maxFeeCap: bigint;
  /** A variant not mined after this many blocks is replaced (or re-sent when the node forgot it). */
  replaceAfterBlocks: number;
  /**
   * The chain mines on demand (the local chain): no block comes while a transaction waits, so one
   * the node does not hold (lost with a crash of the node) is sent again at the next look.
   */
  minesOnDemand?: boolean;
  clock: Clock;
}

/**
 * Brings a stored transaction's state up to date with the chain: mined or reverted (with its
 * block and time, whichever of its variants was mined), re-sent when the node has forgotten it,
 * or replaced by a variant with higher fees (same nonce) when it is stuck. Returns the fresh row,
 * with the receipt read when it was mined just now. `head`: the chain's head as the caller's
 * round saw it (asked here when absent).
 * Throws FeeAboveCapError while the chain wants more than the cap, InsufficientFundsError while
 * the account cannot pay for a replacement, ReplacementUnderpricedError while a competitor holds
 * the nonce: the transaction stays stored, and the caller waits.
 */
export async function settleTx(
  db: Db,
  client: ChainClient,
  tx: ChainTx,
  persist: () => Promise<void>,
  policy?: ReplacementPolicy,
  head?: ChainHead,
): Promise<ChainTx & { receipt?: TransactionReceiptSummary }> {
  if (tx.state === 'mined' || tx.state === 'reverted' || tx.state === 'dropped') return tx;
  const receipt = await client.getReceipt(tx.hash);
  if (!receipt) {
    await keepMoving(db, client, tx, policy, head);
    return loadTx(db, tx.id);
  }
  // Mined in the head block the round saw: its time is known already.
  const minedAt = head?.number === receipt.blockNumber ? head.timestamp : (await client.blockTimestamp(receipt.blockNumber)).getTime();
  // Mined counts only once the chain's state holding it is on disk (the local chain's dump).
  await persist();
  cached(db, 'UPDATE chain_txs SET state = ?, block_number = ?, block_hash = ?, mined_date = ?, contract_address = ? WHERE id = ?').run(
    receipt.status === 'success' ? 'mined' : 'reverted',
    Number(receipt.blockNumber),
    receipt.blockHash,
    minedAt,
    receipt.contractAddress,
    tx.id,
  );
  faultPoint(`after-mined-${tx.purpose}`);
  return { ...loadTx(db, tx.id), receipt };
}

/** The current variant of a stored transaction (made for rows signed before variants were kept). */
function currentVariant(db: Db, tx: ChainTx, clock?: Clock): { id: number; sent_block: number | null } {
  const found = cached(db, 'SELECT id, sent_block FROM chain_tx_variants WHERE hash = ?').get(tx.hash) as { id: number; sent_block: number | null } | undefined;
  if (found) return found;
  return { id: storeVariant(db, clock, tx.id, tx.raw, tx.hash, null), sent_block: null };
}

/** Stores a signed variant of transaction `txId` (or notes when an existing one was sent again); returns its id. */
export function storeVariant(db: Db, clock: Clock | undefined, txId: number, raw: Hex, hash: Hex, sentBlock: number | null): number {
  const fees = feesOf(raw);
  const [maxFee, tip] = fees.type === 'eip1559' ? [fees.maxFeePerGas, fees.maxPriorityFeePerGas] : [fees.gasPrice, null];
  return cached(
    db,
    `INSERT INTO chain_tx_variants (tx_id, raw, hash, sent_block, max_fee_per_gas, max_priority_fee_per_gas, created_date) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (hash) DO UPDATE SET sent_block = excluded.sent_block RETURNING id`,
  )
    .pluck()
    .get(txId, raw, hash, sentBlock, String(maxFee), tip === null ? null : String(tip), clock?.now() ?? Date.now()) as number;
}

/**
 * One look at a transaction that is not mined, costing its receipt (read by the caller) while it
 * is merely waiting, and the head when the caller's round did not bring one: sent when it never
 * was, re-sent when the node forgot it, replaced when it waits longer than the policy allows or
 * its max fee is below the base fee.
 */
async function keepMoving(db: Db, client: ChainClient, tx: ChainTx, policy: ReplacementPolicy | undefined, seenHead: ChainHead | undefined): Promise<void> {
  if (tx.state === 'signed') {
    try {
      await sendTx(db, client, tx);
      return;
    } catch (error) {
      if (!(error instanceof BelowBaseFeeError) || !policy) throw error;
    }
  }
  const head = seenHead ?? (await client.head());
  const variant = currentVariant(db, tx, policy?.clock);
  if (variant.sent_block === null) {
    cached(db, 'UPDATE chain_tx_variants SET sent_block = ? WHERE id = ?').run(Number(head.number), variant.id);
    variant.sent_block = Number(head.number);
  }
  const fees = feesOf(tx.raw);
  const maxFee = fees.type === 'eip1559' ? fees.maxFeePerGas : fees.gasPrice;
  const belowBaseFee = head.baseFeePerGas !== null && maxFee < head.baseFeePerGas;
  const waitedTooLong = policy !== undefined && Number(head.number) - variant.sent_block >= policy.replaceAfterBlocks;
  if (!belowBaseFee && !waitedTooLong) {
    if (policy?.minesOnDemand && !(await client.isKnown(tx.hash))) await client.broadcast(tx.raw);
    return;
  }
  if (waitedTooLong && policy) await expectEarlierNonces(db, client, tx, policy, head);
  // An earlier variant may be the one that was mined.
  if (await adoptMinedVariant(db, client, tx)) return;
  if (!belowBaseFee && !(await client.isKnown(tx.hash))) {
    // Dropped from the node's pool: the stored variant goes out again, unchanged.
    try {
      await client.broadcast(tx.raw);
      cached(db, 'UPDATE chain_tx_variants SET sent_block = ? WHERE id = ?').run(Number(head.number), variant.id);
      return;
    } catch (error) {
      if (!(error instanceof BelowBaseFeeError)) throw error;
    }
  }
  // Mined once (then taken out of the chain): proofs handed out name this very transaction, so it
  // goes out again unchanged, never replaced; below the base fee it waits for the fee to fall.
  if (tx.mined_date !== null) {
    if (belowBaseFee) throw new BelowBaseFeeError({ details: `transaction ${tx.hash} was mined before and is sent again unchanged once the base fee falls below its max fee` });
    return;
  }
  if (!policy) return;
  await replaceTx(db, client, tx, Number(head.number), policy);
}

/**
 * A transaction waiting long can be stuck behind an earlier nonce of the account that the chain
 * does not hold, and would never be mined, however high its fees:
 * - one recorded as mined (a reorganisation took it out while this one waited in the pool): the
 *   chain lost what was recorded, and reconciling sends the earlier transactions again;
 * - one of ours not mined yet that nothing else looks at (a registry deployment sent again by
 *   reconciling, then dropped from the pool): it is looked at here, and sent again.
 * One request (the account's mined count), once per `replaceAfterBlocks`, and a look at each such
 * earlier transaction.
 */
async function expectEarlierNonces(db: Db, client: ChainClient, tx: ChainTx, policy: ReplacementPolicy, head: ChainHead): Promise<void> {
  const mined = await client.minedNonce(tx.sender);
  if (mined >= tx.nonce) return;
  const recorded = cached(db, "SELECT max(nonce) FROM chain_txs WHERE engine = ? AND sender = ? AND nonce < ? AND state IN ('mined', 'reverted')").pluck().get(tx.engine, tx.sender, tx.nonce) as
    | number
    | null;
  if (recorded !== null && mined <= recorded) {
    throw new ChainStateLostError(tx.engine, `the chain counts ${mined} mined transactions of ${tx.sender}; transaction ${tx.hash} (nonce ${tx.nonce}) waits behind the missing ones`);
  }
  // The local chain's mined transactions count only once its state is on disk: its own rounds settle them.
  if (policy.minesOnDemand) return;
  const waiting = cached(db, "SELECT * FROM chain_txs WHERE engine = ? AND sender = ? AND nonce >= ? AND nonce < ? AND state IN ('signed', 'sent') ORDER BY nonce").all(tx.engine, tx.sender, mined, tx.nonce) as ChainTx[];
  for (const earlier of waiting) await settleTx(db, client, earlier, () => Promise.resolve(), policy, head);
}

/** Signs the same call at the same nonce with higher fees, stores it, then broadcasts it. */
async function replaceTx(db: Db, client: ChainClient, tx: ChainTx, headBlock: number, policy: ReplacementPolicy): Promise<void> {
  const signed = await client.signReplacement(policy.privateKey, tx.raw, policy.maxFeeCap);
  inTransaction(db, () => {
    storeVariant(db, policy.clock, tx.id, signed.raw, signed.hash, headBlock);
    cached(db, 'UPDATE chain_txs SET raw = ?, hash = ? WHERE id = ?').run(signed.raw, signed.hash, tx.id);
  });
  faultPoint(`after-replace-${tx.purpose}`);
  await sendTx(db, client, loadTx(db, tx.id));
}

/**
 * Looks for a mined receipt among the transaction's other variants; when one is mined it becomes
 * the transaction's current variant (its hash is then the transaction id proofs name).
 */
export async function adoptMinedVariant(db: Db, client: ChainClient, tx: ChainTx): Promise<boolean> {
  const others = cached(db, 'SELECT raw, hash FROM chain_tx_variants WHERE tx_id = ? AND hash <> ? ORDER BY id DESC').all(tx.id, tx.hash) as { raw: Hex; hash: Hex }[];
  for (const other of others) {
    if (await client.getReceipt(other.hash)) {
      cached(db, 'UPDATE chain_txs SET raw = ?, hash = ? WHERE id = ?').run(other.raw, other.hash, tx.id);
      return true;
    }
  }
  return false;
}

/**
 * The chain does not hold what the engine recorded (it lost blocks, was reset, or reorganised):
 * the caller drops its connection, and the next one reconciles (reconcile-chain.ts).
 */
export class ChainStateLostError extends Error {
  constructor(
    readonly engine: string,
    detail: string,
  ) {
    super(`The ${engine} chain does not hold what was recorded (${detail}); reconciling`);
    this.name = 'ChainStateLostError';
  }
}
