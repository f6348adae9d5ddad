/**
 * Reconciles what the engine recorded on a chain with what the chain holds, on every fresh
 * connection (at start, and whenever the chain answers again). The local chain can lose blocks
 * (a crash before its state reached disk, a deleted or damaged DATA/chain/local); a real chain
 * can reorganise or drop a transaction. Either way the stored signed transactions are sent again
 * in nonce order — on the local chain at their original block times, so the proofs already
 * handed out verify again. A re-send refused for now (a fee spike, an account that cannot pay)
 * waits with its job; what the chain refuses for good ends its jobs `failed` with the reason,
 * their credentials free to be scheduled again. One loud line tells the user what happened.
 */
import { BelowBaseFeeError, ChainError, ChainUnreachableError, InsufficientFundsError, KeyInUseElsewhereError, NonceConflictError, ReplacementUnderpricedError, type Address, type ChainClient, type Hex } from '../../chain/index.js';
import { inTransaction } from '../database.js';
import { cached } from '../list-query.js';
import { settleTx, type ChainTx } from './chain-txs.js';
import type { IssuingContext } from './issuing-context.js';
import type { JobIssuer } from './job-issuer.js';
import { recordJobMoved } from './job-dates.js';
import { LOCAL_FUNDING_WEI, LOCAL_LOW_WATER_WEI } from './local-funding.js';
import { NonceUnsettledError, nodeSaid, resolveTakenNonce, type Anchor, type NodeSaid } from './taken-nonce.js';

/** What one reconciliation found and did. */
export interface Reconciliation {
  /** Transactions recorded as mined that the chain no longer held. */
  lost: number;
  /** Transactions sent again from their stored signed copies. */
  resent: number;
  /** Transactions the chain refused for now (the base fee above their max fee, or the account cannot pay): their jobs wait to send them again. */
  waiting: number;
  /** Jobs failed because their transaction could not be recovered. */
  failedJobs: string[];
  /** Revocations undone for the same reason (the certificate can be revoked again). */
  undoneRevocations: number;
}

function byNonce(rows: ChainTx[]): Map<Address, ChainTx[]> {
  const senders = new Map<Address, ChainTx[]>();
  for (const row of rows) senders.set(row.sender, [...(senders.get(row.sender) ?? []), row]);
  return senders;
}

/** Gives up on a transaction: dropped, and whatever it was for is undone. */
function abandon(ctx: IssuingContext, issuer: JobIssuer, tx: ChainTx, reason: string, result: Reconciliation): void {
  inTransaction(ctx.db, () => {
    cached(ctx.db, "UPDATE chain_txs SET state = 'dropped' WHERE id = ?").run(tx.id);
    if (tx.purpose === 'revoke') {
      result.undoneRevocations += cached(ctx.db, 'UPDATE certificates SET revoke_tx = NULL, revoked_date = NULL WHERE revoke_tx = ?').run(tx.id).changes;
    }
    if (tx.purpose === 'deploy') cached(ctx.db, 'DELETE FROM registries WHERE deploy_tx = ?').run(tx.id);
  });
  const jobs = (
    tx.purpose === 'issue'
      ? cached(ctx.db, "SELECT id, uid FROM jobs WHERE issue_tx = ? AND status <> 'failed'").all(tx.id)
      : tx.purpose === 'deploy'
        ? // Every job anchored in a registry that no longer exists.
          cached(ctx.db, "SELECT j.id, j.uid FROM jobs j JOIN chain_txs t ON t.id = j.issue_tx WHERE t.engine = ? AND t.sender = ? AND j.status <> 'failed'").all(tx.engine, tx.sender)
        : []
  ) as { id: number; uid: string }[];
  for (const job of jobs) {
    issuer.fail(job.id, reason, true);
    result.failedJobs.push(job.uid);
  }
}

/** The registry and root an issue transaction anchors, to ask before it is given up. */
function anchorOf(ctx: IssuingContext, tx: ChainTx): Anchor | undefined {
  if (tx.purpose !== 'issue') return undefined;
  const row = cached(ctx.db, 'SELECT j.root, r.address FROM jobs j JOIN registries r ON r.partner_id = j.partner_id AND r.engine = j.engine WHERE j.issue_tx = ?').get(tx.id) as
    | { root: Hex | null; address: Address | null }
    | undefined;
  return row?.root && row.address ? { registry: row.address, root: row.root } : undefined;
}

/**
 * What holds the nonce of a transaction recorded as sent or mined that the node does not answer
 * for (taken-nonce.ts): `ours` (it, or one of its variants: nothing was lost), `waiting` (another
 * holder, not final yet: left as recorded, asked again on the next connection), or `released`
 * (given up for good, its job signing again at the next free nonce, or settled by the
 * transaction that issued its root).
 */
async function holderOf(ctx: IssuingContext, issuer: JobIssuer, engine: string, client: ChainClient, tx: ChainTx, said: NodeSaid): Promise<'ours' | 'waiting' | 'released'> {
  try {
    const taken = await resolveTakenNonce(ctx, engine, client, tx, said, anchorOf(ctx, tx));
    if (taken.outcome === 'adopted') return 'ours';
    if (taken.outcome === 'settled') {
      cached(ctx.db, "UPDATE jobs SET issue_tx = ?, status = 'started', issued_date = NULL, finished_date = NULL WHERE issue_tx = ? AND status <> 'failed'").run(taken.txId, tx.id);
    } else {
      issuer.signAgain(tx, taken.holder);
    }
    return 'released';
  } catch (error) {
    if (error instanceof KeyInUseElsewhereError || error instanceof NonceUnsettledError) return 'waiting';
    throw error;
  }
}

/** How long the local chain may take to mine a re-sent transaction (automine: milliseconds). */
const LOCAL_MINING_WAIT_MS = 10_000;

/** Waits until the transaction has a receipt, or the time is up (then the normal rounds follow it). */
async function minedWithin(client: ChainClient, hash: Hex, ms: number): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
    if (await client.getReceipt(hash)) return;
  }
}

/** Sends a sender's stored transactions again, from the first nonce the chain lacks, in nonce order. */
async function resend(ctx: IssuingContext, issuer: JobIssuer, engine: string, client: ChainClient, local: boolean, rows: ChainTx[], result: Reconciliation): Promise<void> {
  let givenUp: string | undefined;
  for (const tx of rows) {
    if (givenUp) {
      abandon(ctx, issuer, tx, givenUp, result);
      continue;
    }
    try {
      if (local) {
        if ((await client.balanceOf(tx.sender)) < LOCAL_LOW_WATER_WEI) await client.fund(tx.sender, LOCAL_FUNDING_WEI);
        if (tx.mined_date !== null) {
          const head = Math.floor((await client.blockTimestamp(await client.blockNumber())).getTime() / 1000);
          await client.setNextBlockTimestamp(Math.max(Math.floor(tx.mined_date / 1000), head));
        }
      }
      await client.broadcast(tx.raw);
    } catch (error) {
      if (error instanceof ChainUnreachableError) throw error;
      if (error instanceof BelowBaseFeeError || error instanceof InsufficientFundsError) {
        // Refused for now (a fee spike, an account that cannot pay), not lost: it stays stored
        // and its job waits with its credentials (proofs handed out name this transaction); the
        // job's next looks send it again, unchanged, once the fee falls or the account is funded.
        cached(ctx.db, "UPDATE chain_txs SET state = 'sent', block_number = NULL WHERE id = ?").run(tx.id);
        cached(ctx.db, "UPDATE jobs SET status = 'started', issued_date = NULL, finished_date = NULL WHERE issue_tx = ? AND status IN ('unconfirmed', 'finished')").run(tx.id);
        const why = error instanceof InsufficientFundsError ? `waiting for funds: ${error.shortMessage}` : `waiting: ${error.shortMessage}`;
        cached(ctx.db, 'UPDATE jobs SET waiting = ? WHERE issue_tx = ?').run(why, tx.id);
        result.waiting++;
        continue;
      }
      if (error instanceof NonceConflictError || error instanceof ReplacementUnderpricedError) {
        // The nonce is used or held: not lost on that word alone (taken-nonce.ts).
        const taken = await holderOf(ctx, issuer, engine, client, tx, nodeSaid(error));
        if (taken === 'ours') continue;
        if (taken === 'waiting') return;
        continue;
      }
      // Its nonce went to another transaction, or the account cannot pay: this one and every
      // later one (their nonces would wait behind a gap forever) are lost for good.
      givenUp = `The ${engine} chain lost transaction ${tx.hash} and it could not be sent again: ${error instanceof ChainError ? error.shortMessage : String(error)}`;
      abandon(ctx, issuer, tx, givenUp, result);
      continue;
    }
    result.resent++;
    // anvil mines a sent transaction a moment later, not within the call: the next one's block
    // time may only be set once this one's block exists, or this block would take that time.
    if (local) await minedWithin(client, tx.hash, LOCAL_MINING_WAIT_MS);
    cached(ctx.db, "UPDATE chain_txs SET state = 'sent', block_number = NULL WHERE id = ?").run(tx.id);
    const settled = await settleTx(ctx.db, client, { ...tx, state: 'sent' }, () => Promise.resolve());
    if (settled.state !== 'mined') {
      // Not mined yet (a real chain, or interval mining): its jobs wait for it again.
      cached(ctx.db, "UPDATE jobs SET status = 'started', issued_date = NULL, finished_date = NULL WHERE issue_tx = ? AND status IN ('unconfirmed', 'finished')").run(tx.id);
    } else {
      // The block that holds it now, so that following the job does not report this move again.
      const receipt = await client.getReceipt(tx.hash);
      if (receipt) cached(ctx.db, 'UPDATE chain_txs SET block_hash = ? WHERE id = ?').run(receipt.blockHash, tx.id);
      // In another block than recorded: issued at its time, and final only once that block is.
      // On the local chain (re-sent at its original time, final at once) nothing changed for the job.
      if (!local || settled.mined_date !== tx.mined_date) {
        for (const jobId of cached(ctx.db, 'SELECT id FROM jobs WHERE issue_tx = ?').pluck().all(tx.id) as number[]) recordJobMoved(ctx.db, jobId, settled.mined_date!);
      }
      if (tx.purpose === 'revoke') cached(ctx.db, 'UPDATE certificates SET revoked_date = ? WHERE revoke_tx = ?').run(settled.mined_date, tx.id);
    }
  }
}

/**
 * Checks, per account, that the chain still holds the latest transaction recorded as mined (then
 * it holds all earlier ones: only we sign for the account, in nonce order). When it does not,
 * re-sends from the first nonce it lacks. Returns what it did (nothing lost: all zero).
 */
export async function reconcileChain(ctx: IssuingContext, issuer: JobIssuer, engine: string, client: ChainClient): Promise<Reconciliation> {
  const result: Reconciliation = { lost: 0, resent: 0, waiting: 0, failedJobs: [], undoneRevocations: 0 };
  const local = ctx.chains.isLocal(engine);
  const rows = cached(ctx.db, "SELECT * FROM chain_txs WHERE engine = ? AND state IN ('signed', 'sent', 'mined', 'reverted') ORDER BY sender, nonce").all(engine) as ChainTx[];
  for (const [sender, txs] of byNonce(rows)) {
    const settled = txs.filter((t) => t.state === 'mined' || t.state === 'reverted');
    const latest = settled.at(-1);
    if (!latest || (await client.getReceipt(latest.hash as Hex))) continue;
    const minedCount = await client.minedNonce(sender);
    for (const tx of settled.filter((t) => t.nonce < minedCount)) {
      // The chain has this nonce, but does not answer for our transaction by its hash: which
      // transaction holds it decides (a node behind the others is no loss, another holder is).
      if (await client.getReceipt(tx.hash)) continue;
      const taken = await holderOf(ctx, issuer, engine, client, tx, 'used');
      if (taken === 'ours') continue;
      result.lost++;
    }
    result.lost += settled.filter((t) => t.nonce >= minedCount).length;
    await resend(ctx, issuer, engine, client, local, txs.filter((t) => t.nonce >= minedCount), result);
  }
  if (result.lost > 0 && local) {
    // Re-sent blocks carry their old times; the chain's clock goes back to now for what follows.
    await client.setTime(Math.ceil(ctx.clock.now() / 1000));
    await ctx.chains.persist(engine, client);
  }
  return result;
}

/** The one loud line a reconciliation that found losses prints. */
export function describeReconciliation(engine: string, r: Reconciliation): string {
  const parts = [`WARNING: the ${engine} chain had lost ${r.lost} transaction(s) recorded as mined (it was reset or rolled back)`];
  parts.push(`${r.resent} re-sent from their stored signed copies${engine === 'local' ? ' at their original block times' : ''}`);
  if (r.waiting > 0) parts.push(`${r.waiting} refused by the chain for now (the base fee above their max fee, or the account cannot pay): sent again unchanged once the fee falls or the account is funded`);
  if (r.failedJobs.length > 0) parts.push(`could not recover job(s) ${r.failedJobs.join(', ')}: now failed, their credentials can be scheduled again`);
  if (r.undoneRevocations > 0) parts.push(`${r.undoneRevocations} revocation(s) undone: revoke those certificates again`);
  return `${parts.join('; ')}.`;
}
