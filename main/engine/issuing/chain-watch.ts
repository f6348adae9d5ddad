/**
 * Watches the jobs whose transactions are mined, while `serve`, the app or `watch` runs: each
 * unconfirmed job until its block is final, and each job finished lately after that, so that a
 * reorganisation is noticed when it happens — not only when the next job connects. A job's
 * transaction that moved is recorded where it is now (follow-mined.ts); one that vanished drops
 * the engine's connection, and the next connection re-sends it from its stored signed copy
 * (reconcile-chain.ts), saying so once, loudly.
 *
 * The chain is asked at most once per block time (chain-pace.ts): the head first, and the jobs
 * only when it is a block not yet looked at; they reuse that head rather than asking again.
 */
import type { ChainHead } from '../../chain/index.js';
import { cached } from '../list-query.js';
import { BLOCK_TIME_SAMPLE, STALLED_AFTER_MS } from './chain-pace.js';
import type { IssuingContext } from './issuing-context.js';
import type { JobIssuer } from './job-issuer.js';

/** Finished jobs are re-checked this long after finishing (a depth can be outrun by a deep reorganisation). */
export const RECHECK_FINISHED_MS = 60 * 60_000;

/**
 * One round's look at an engine's chain: `due` when there is a block not looked at yet (or the
 * round is explicit, or the chain did not answer, so the job's own step says what is wrong), with
 * the head it saw for the jobs to reuse.
 */
export interface Look {
  due: boolean;
  head?: ChainHead;
}

export class ChainWatch {
  /** Jobs with a transaction out that this round looked at (their receipts read against its head). */
  private lookedAt = new Set<number>();
  /** Whether this round is the timer's (an explicit round re-checks finished jobs now). */
  private paced = false;
  /** Per engine, the head's number when its finished jobs were last re-checked. */
  private readonly recheckedAt = new Map<string, bigint>();

  constructor(
    private readonly ctx: IssuingContext,
    private readonly issuer: JobIssuer,
  ) {}

  /**
   * Whether the engine's chain has a block not looked at yet. `paced`: the head is asked at most
   * once per block time (the scheduler's timer); otherwise now (an explicit round). Never while
   * the engine backs off after errors.
   */
  async look(engine: string, paced: boolean): Promise<Look> {
    const pace = this.issuer.pace;
    if (!pace.ready(engine) || (paced && !pace.headDue(engine))) return { due: false };
    const client = await this.ctx.chains.client(engine);
    const head = await client.head();
    // The first look at a chain learns its block time from an earlier block's timestamp.
    const back = head.number < BLOCK_TIME_SAMPLE ? head.number - 1n : BLOCK_TIME_SAMPLE;
    const earlier = pace.wantsSample(engine) && back >= 2n ? { number: head.number - back, timestamp: (await client.blockTimestamp(head.number - back)).getTime() } : undefined;
    const fresh = pace.sawHead(engine, head, earlier);
    return { due: fresh || !paced, head };
  }

  /** One scheduler round's view: per engine, its look (taken once per round). */
  round(paced: boolean): (engine: string) => Promise<Look> {
    this.lookedAt = new Set();
    this.paced = paced;
    const asked = new Map<string, Promise<Look>>();
    return (engine) => {
      let look = asked.get(engine);
      if (!look) asked.set(engine, (look = this.look(engine, paced).catch((): Look => ({ due: true }))));
      return look;
    };
  }

  /**
   * Whether a job under way is to be looked at in this round: one whose transaction is out
   * (sent, mined) only when its chain has a new block, except a sent one on the local chain.
   */
  async due(jobId: number, looks: (engine: string) => Promise<Look>): Promise<Look> {
    const job = cached(this.ctx.db, 'SELECT status, engine, issue_tx FROM jobs WHERE id = ?').get(jobId) as { status: string; engine: string; issue_tx: number | null } | undefined;
    if (!job || (job.status !== 'unconfirmed' && job.issue_tx === null)) return { due: true };
    // The local chain mines on demand: a sent transaction without a receipt waits for no block
    // (the node lost it, and the look sends it again).
    if (job.status === 'started' && this.ctx.chains.isLocal(job.engine)) return { due: true };
    const look = await looks(job.engine);
    if (look.due) this.lookedAt.add(jobId);
    else this.noteStalled(jobId, job.engine);
    return look;
  }

  /**
   * A job waiting for a block of a chain that has shown none for STALLED_AFTER_MS (mining paused,
   * a node stuck) says so; the note goes once the job moves on.
   */
  private noteStalled(jobId: number, engine: string): void {
    const pace = this.issuer.pace;
    const stalled = pace.stalledFor(engine);
    const head = pace.lastHead(engine);
    // An endpoint that does not answer is reported as such (job-issuer.ts), not as a stalled chain.
    if (stalled < STALLED_AFTER_MS || !head || pace.silentFor(engine) > 0) return;
    this.issuer.note(jobId, `waiting: no new block on ${engine} for ${Math.floor(stalled / 1000)} s (the head is block ${head.number})`);
  }

  /**
   * Finished jobs of the last RECHECK_FINISHED_MS on engines with a new block: still where they
   * were recorded? A block's hash commits to every block before it, so the latest finished job
   * still in its recorded block vouches for all earlier ones, and it need not be asked either
   * when a job in a later block was looked at in this round; they are asked once per finality
   * depth of blocks, and all of them at once when the chain replaced blocks. Jobs final by the
   * chain's `finalized` tag are not asked again.
   */
  async recheckFinished(looks: (engine: string) => Promise<Look>, onError: (error: unknown) => void): Promise<void> {
    const rows = cached(
      this.ctx.db,
      `SELECT j.id, j.engine, t.block_number, t.block_hash FROM jobs j JOIN chain_txs t ON t.id = j.issue_tx
       WHERE j.status = 'finished' AND j.finished_date >= ? AND t.confirmations_required IS NOT NULL ORDER BY t.block_number DESC, j.id DESC`,
    ).all(this.ctx.clock.now() - RECHECK_FINISHED_MS) as { id: number; engine: string; block_number: number | null; block_hash: string | null }[];
    const byEngine = new Map<string, typeof rows>();
    for (const row of rows) byEngine.set(row.engine, [...(byEngine.get(row.engine) ?? []), row]);
    for (const [engine, finished] of byEngine) {
      // An engine only another node sharing the database has configured is that node's to follow.
      // The local chain does not reorganise, and what it loses is reconciled when it is connected
      // (which this would do just to look: start it).
      if (!this.ctx.chains.knows(engine) || this.ctx.chains.isLocal(engine)) continue;
      try {
        const look = await looks(engine);
        if (!look.due) continue;
        let all = this.issuer.pace.takeReorg(engine);
        if (!all && this.vouchedFor(engine, finished[0]!.block_number)) {
          // Vouched for by a later block seen now: as good as a re-check, and the depth counts from here.
          if (look.head) this.recheckedAt.set(engine, look.head.number);
          continue;
        }
        if (!all && !this.depthPassed(engine, look.head)) continue;
        if (look.head) this.recheckedAt.set(engine, look.head.number);
        for (const row of finished) {
          await this.issuer.follow(row.id, look.head);
          all ||= this.issuer.pace.takeReorg(engine) || this.movedFrom(row);
          if (!all) break;
        }
      } catch (error) {
        onError(error);
      }
    }
  }

  /**
   * Whether the engine's finality depth in blocks has passed since its finished jobs were last
   * re-checked (or the round is explicit): they became final over that many blocks, and a
   * reorganisation deeper than that is noticed within as many more.
   */
  private depthPassed(engine: string, head: ChainHead | undefined): boolean {
    const last = this.recheckedAt.get(engine);
    if (!this.paced || last === undefined || !head) return true;
    return head.number - last >= BigInt(Math.max(1, this.ctx.chains.finality(engine).confirmations));
  }

  /** Whether a job of the engine looked at this round (unconfirmed, or finished by it) is mined at or after `block`. */
  private vouchedFor(engine: string, block: number | null): boolean {
    if (block === null) return false;
    const query = cached(this.ctx.db, "SELECT 1 FROM jobs j JOIN chain_txs t ON t.id = j.issue_tx WHERE j.id = ? AND j.engine = ? AND j.status IN ('unconfirmed', 'finished') AND t.block_number >= ?");
    for (const jobId of this.lookedAt) if (query.get(jobId, engine, block) !== undefined) return true;
    return false;
  }

  /** Whether following the finished job found it elsewhere than recorded (or not at all). */
  private movedFrom(row: { id: number; block_number: number | null; block_hash: string | null }): boolean {
    const now = cached(this.ctx.db, 'SELECT j.status, t.block_number, t.block_hash FROM jobs j JOIN chain_txs t ON t.id = j.issue_tx WHERE j.id = ?').get(row.id) as
      | { status: string; block_number: number | null; block_hash: string | null }
      | undefined;
    return !now || now.status !== 'finished' || now.block_number !== row.block_number || now.block_hash !== row.block_hash;
  }
}
