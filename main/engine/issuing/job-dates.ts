/**
 * A job's dates, kept in order whatever the chain's clock says: created ≤ started ≤ issued (its
 * block's time, whole seconds, stamped by the chain) ≤ finished (never before the block's time).
 * The block time is the chain's fact and is never changed; the engine's own dates yield to it.
 * A block producer whose clock runs ahead of ours stamps a time our clock has not reached when
 * the block is already final: the job is finished at that time. One whose clock runs behind (or a
 * slot that began before the transaction was sent) stamps a time before the job started: the
 * job's start (and creation) is then that time. The local chain mines a job's block no earlier
 * than its start (JobIssuer.mineNotBeforeStart), so there the start stays as it was.
 */
import type { Db } from '../database.js';
import { cached } from '../list-query.js';
import { greatestOf, leastOf } from '../store/dialect.js';

/** A started job's transaction was mined at `minedDate` (ms): it is unconfirmed, issued then. */
export function recordJobMined(db: Db, jobId: number, minedDate: number): void {
  cached(
    db,
    `UPDATE jobs SET status = 'unconfirmed', issued_date = ?, start_date = ${leastOf(db, 'coalesce(start_date, ?)', '?')}, created_date = ${leastOf(db, 'created_date', '?')} WHERE id = ? AND status = 'started'`,
  ).run(minedDate, minedDate, minedDate, minedDate, jobId);
}

/** An unconfirmed job's block is final: it is finished now, or at its block's time if that is later. */
export function recordJobFinished(db: Db, jobId: number, now: number): void {
  cached(db, `UPDATE jobs SET status = 'finished', finished_date = ${greatestOf(db, '?', 'issued_date')}, failure = NULL WHERE id = ? AND status = 'unconfirmed'`).run(now, jobId);
}

/**
 * A job's transaction is now in another block, of time `minedDate` (a reorganisation): issued
 * then, and no longer finished — that block must be final in its turn.
 */
export function recordJobMoved(db: Db, jobId: number, minedDate: number): void {
  cached(
    db,
    `UPDATE jobs SET status = 'unconfirmed', issued_date = ?, finished_date = NULL, start_date = ${leastOf(db, 'coalesce(start_date, ?)', '?')}, created_date = ${leastOf(db, 'created_date', '?')} WHERE id = ? AND status IN ('unconfirmed', 'finished')`,
  ).run(minedDate, minedDate, minedDate, minedDate, jobId);
}
