import { InsufficientFundsError, NonceConflictError, type Address, type ChainClient, type Hex } from '../../chain/index.js';
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
  request: { engine: string; sender: Address; privateKey: Hex; purpose: TxPurpose; to?: Address; data: Hex },
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
  const signed = await client.signTransaction(request.privateKey, { to: request.to, data: request.data, nonce });
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
    link(txId);
    return txId;
  });
  faultPoint(`after-sign-${request.purpose}`);
  return loadTx(db, id);
}

/**
 * Broadcasts a stored transaction (again, if need be: re-sending is harmless). A transaction the
 * chain will never take — its account cannot pay, or its nonce went to another — is `dropped`
 * and the error rethrown for the caller to fail what it was for.
 */
export async function sendTx(db: Db, client: ChainClient, tx: ChainTx): Promise<void> {
  try {
    await client.broadcast(tx.raw);
  } catch (error) {
    if (error instanceof InsufficientFundsError || error instanceof NonceConflictError) {
      cached(db, "UPDATE chain_txs SET state = 'dropped' WHERE id = ?").run(tx.id);
    }
    throw error;
  }
  if (tx.state === 'signed') cached(db, "UPDATE chain_txs SET state = 'sent' WHERE id = ?").run(tx.id);
  faultPoint(`after-broadcast-${tx.purpose}`);
}

/**
 * Brings a stored transaction's state up to date with the chain: mined or reverted (with its
 * block and time), or re-sent when the node has forgotten it. Returns the fresh row.
 */
export async function settleTx(db: Db, client: ChainClient, tx: ChainTx, persist: () => Promise<void>): Promise<ChainTx> {
  if (tx.state === 'mined' || tx.state === 'reverted' || tx.state === 'dropped') return tx;
  const receipt = await client.getReceipt(tx.hash);
  if (!receipt) {
    // Never broadcast (a crash right after signing), or dropped from the node's pool.
    if (tx.state === 'signed' || !(await client.isKnown(tx.hash))) await sendTx(db, client, tx);
    return loadTx(db, tx.id);
  }
  const minedAt = (await client.blockTimestamp(receipt.blockNumber)).getTime();
  // Mined counts only once the chain's state holding it is on disk (the local chain's dump).
  await persist();
  cached(db, 'UPDATE chain_txs SET state = ?, block_number = ?, mined_date = ?, contract_address = ? WHERE id = ?').run(
    receipt.status === 'success' ? 'mined' : 'reverted',
    Number(receipt.blockNumber),
    minedAt,
    receipt.contractAddress,
    tx.id,
  );
  faultPoint(`after-mined-${tx.purpose}`);
  return loadTx(db, tx.id);
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
