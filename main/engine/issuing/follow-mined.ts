/**
 * Follows a job's mined issue transaction until its block is final, and after: asks the chain
 * for the transaction's receipt now, and when its block is not the one recorded (a reorganisation
 * re-included it elsewhere) records the new block and date — the job then waits for that block to
 * be final again, its dates still in order. A transaction the chain no longer holds is the
 * caller's to recover (reconcile-chain.ts re-sends it from its stored signed copy).
 */
import type { ChainClient, ChainHead, Hex, TransactionReceiptSummary } from '../../chain/index.js';
import { cached } from '../list-query.js';
import { finalityOf, type FinalityProgress } from '../finality.js';
import type { ChainTx } from './chain-txs.js';
import type { IssuingContext } from './issuing-context.js';
import { recordJobMoved } from './job-dates.js';

/** What following found: the block's progress, or that the chain does not hold the transaction (as a success) now. */
export type Followed = { state: 'mined'; progress: FinalityProgress; moved: boolean } | { state: 'lost' } | { state: 'reverted' };

/** A stored transaction with the block hash last seen (migration 5). */
type FollowedRow = ChainTx & { block_hash: string | null };

/**
 * Re-reads the mined transaction `txId` of job `jobId` on `client`: updates its block (and the
 * job's dates) when it moved, and its finality progress. One receipt read (none when the caller
 * has just read it), the head only when the caller's round did not bring one, and (for the
 * `finalized` rule) the finalized block's number.
 */
export async function followMined(
  ctx: IssuingContext,
  engine: string,
  client: ChainClient,
  jobId: number,
  txId: number,
  seen: { head?: ChainHead | undefined; receipt?: TransactionReceiptSummary | undefined } = {},
): Promise<Followed> {
  const tx = cached(ctx.db, 'SELECT * FROM chain_txs WHERE id = ?').get(txId) as FollowedRow;
  const receipt = seen.receipt ?? (await client.getReceipt(tx.hash as Hex));
  if (!receipt) return { state: 'lost' };
  if (receipt.status !== 'success') return { state: 'reverted' };
  let moved = false;
  if (tx.block_hash !== receipt.blockHash || tx.block_number !== Number(receipt.blockNumber)) {
    const minedAt = seen.head?.number === receipt.blockNumber ? seen.head.timestamp : (await client.blockTimestamp(receipt.blockNumber)).getTime();
    moved = tx.block_number !== Number(receipt.blockNumber) || tx.mined_date !== minedAt || (tx.block_hash !== null && tx.block_hash !== receipt.blockHash);
    cached(ctx.db, 'UPDATE chain_txs SET block_number = ?, block_hash = ?, mined_date = ? WHERE id = ?').run(Number(receipt.blockNumber), receipt.blockHash, minedAt, txId);
    if (moved) {
      recordJobMoved(ctx.db, jobId, minedAt);
      ctx.notice(
        `WARNING: the ${engine} chain reorganised: transaction ${tx.hash} moved from block ${tx.block_number ?? '?'} to block ${receipt.blockNumber} (issued ${new Date(minedAt).toISOString()}); its job waits for that block to be final, and proofs already handed out still verify.`,
      );
    }
  }
  const progress = await finalityOf(client, ctx.chains.finality(engine), receipt.blockNumber, seen.head?.number);
  cached(ctx.db, 'UPDATE chain_txs SET confirmations = ?, confirmations_required = ? WHERE id = ?').run(progress.confirmations, progress.required, txId);
  return { state: 'mined', progress, moved };
}
