/**
 * Watches the jobs whose transactions are mined, while `serve`, the app or `watch` runs: each
 * unconfirmed job until its block is final, and each job finished lately after that, so that a
 * reorganisation is noticed when it happens — not only when the next job connects. A job's
 * transaction that moved is recorded where it is now (follow-mined.ts); one that vanished drops
 * the engine's connection, and the next connection re-sends it from its stored signed copy
 * (reconcile-chain.ts), saying so once, loudly.
 *
 * The chain is asked at most once per block time: the head's number first, and the jobs only when
 * it is a block not yet looked at. The block time is learned from the chain's own timestamps.
 */
import type { ChainClient } from '../../chain/index.js';
import { cached } from '../list-query.js';
import type { IssuingContext } from './issuing-context.js';
import type { JobIssuer } from './job-issuer.js';

/** Finished jobs are re-checked this long after finishing (a depth can be outrun by a deep reorganisation). */
export const RECHECK_FINISHED_MS = 60 * 60_000;
/** Blocks whose timestamps give the chain's block time. */
const BLOCK_TIME_SAMPLE = 10n;
/** Bounds of a learned block time: a chain that mines only on demand (a dev chain) is still looked at. */
const MIN_BLOCK_MS = 250;
const MAX_BLOCK_MS = 12_000;

interface Head {
  number: bigint;
  askedAt: number;
  blockMs: number;
  /** False while the chain was too short to learn its block time from (learned again next time). */
  learned: boolean;
}

export class ChainWatch {
  private readonly heads = new Map<string, Head>();

  constructor(
    private readonly ctx: IssuingContext,
    private readonly issuer: JobIssuer,
  ) {}

  /**
   * Whether the engine's chain has a block not looked at yet. `paced`: the head is asked at most
   * once per block time (the scheduler's timer); otherwise now (an explicit round).
   */
  async newBlock(engine: string, paced: boolean): Promise<boolean> {
    const seen = this.heads.get(engine);
    const now = Date.now();
    if (paced && seen && now - seen.askedAt < seen.blockMs) return false;
    const client = await this.ctx.chains.client(engine);
    const number = await client.blockNumber();
    const blockMs = seen?.learned ? seen.blockMs : await learnBlockMs(client, number);
    this.heads.set(engine, { number, askedAt: now, blockMs: blockMs ?? MIN_BLOCK_MS, learned: seen?.learned === true || number >= BLOCK_TIME_SAMPLE });
    return seen === undefined || number !== seen.number || !paced;
  }

  /**
   * One scheduler round's view: per engine, whether it has a new block (asked once per round; a
   * chain that does not answer counts as new, so the job's own step says what is wrong).
   */
  round(paced: boolean): (engine: string) => Promise<boolean> {
    const asked = new Map<string, Promise<boolean>>();
    return (engine) => {
      let fresh = asked.get(engine);
      if (!fresh) asked.set(engine, (fresh = this.newBlock(engine, paced).catch(() => true)));
      return fresh;
    };
  }

  /** Whether a job is to be looked at in this round: a job waiting for blocks only when one came. */
  async due(jobId: number, fresh: (engine: string) => Promise<boolean>): Promise<boolean> {
    const job = cached(this.ctx.db, 'SELECT status, engine FROM jobs WHERE id = ?').get(jobId) as { status: string; engine: string } | undefined;
    return job?.status !== 'unconfirmed' || (await fresh(job.engine));
  }

  /** Finished jobs of the last RECHECK_FINISHED_MS on engines with a new block: still where they were recorded? */
  async recheckFinished(fresh: (engine: string) => Promise<boolean>, onError: (error: unknown) => void): Promise<void> {
    const rows = cached(this.ctx.db, "SELECT id, engine FROM jobs WHERE status = 'finished' AND issue_tx IS NOT NULL AND finished_date >= ? ORDER BY finished_date").all(this.ctx.clock.now() - RECHECK_FINISHED_MS) as {
      id: number;
      engine: string;
    }[];
    for (const row of rows) {
      // The local chain does not reorganise, and what it loses is reconciled when it is connected
      // (which this would do just to look: start it).
      if (this.ctx.chains.isLocal(row.engine)) continue;
      try {
        if (await fresh(row.engine)) await this.issuer.follow(row.id);
      } catch (error) {
        onError(error);
      }
    }
  }
}

/**
 * The chain's block time in ms, from the timestamps of its last BLOCK_TIME_SAMPLE blocks (of all
 * but block 0 on a shorter chain, learned again later); undefined on a chain of fewer than 3 blocks.
 */
async function learnBlockMs(client: ChainClient, head: bigint): Promise<number | undefined> {
  const sample = head < BLOCK_TIME_SAMPLE ? head - 1n : BLOCK_TIME_SAMPLE;
  if (sample < 2n) return undefined;
  const [last, first] = await Promise.all([client.blockTimestamp(head), client.blockTimestamp(head - sample)]);
  const ms = (last.getTime() - first.getTime()) / Number(sample);
  return Math.min(MAX_BLOCK_MS, Math.max(MIN_BLOCK_MS, ms));
}
