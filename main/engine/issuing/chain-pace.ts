/**
 * How often the engine may ask an engine's chain. While work waits for blocks, at most once per
 * block: the head is asked once per block time, and the waiting work only when the head is a
 * block not looked at yet (chain-watch.ts). After errors, an exponential, jittered backoff (or the
 * endpoint's Retry-After). The block time is the engine's `block_time_s` where engines.json sets
 * it, else learned from the timestamps of the heads the chain reports. Wall-clock time, not the
 * engine's clock: it is about load on someone's RPC endpoint.
 */
import type { ChainHead } from '../../chain/index.js';

/** Blocks over which a block time is learned (then learned again over the next as many). */
export const BLOCK_TIME_SAMPLE = 10n;
/**
 * Bounds of a learned block time: a chain that mines only on demand (a dev chain, whose blocks
 * can share a second) is still looked at 4 times a second; a slow one at least every 12 s.
 */
const MIN_BLOCK_MS = 250;
const MAX_BLOCK_MS = 12_000;

/** Backoff after errors: the first wait, and the longest. */
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;

/** An RPC endpoint silent this long is reported as unreachable on the jobs that wait for it. */
export const UNREACHABLE_AFTER_MS = 30_000;
/** A chain without a new block this long is reported on the jobs that wait for one. */
export const STALLED_AFTER_MS = 30_000;

/** A block's number and time, the start of a span a block time is learned over. */
export interface BlockMark {
  number: bigint;
  timestamp: number;
}

interface EnginePace {
  notBefore: number;
  failures: number;
  /** When the endpoint last stopped answering (cleared when it answers). */
  silentSince: number | undefined;
  /** The last head seen, when it was asked, and since when the chain has been at its height. */
  head: ChainHead | undefined;
  headAskedAt: number;
  headSince: number;
  /** Where the span being learned over starts; undefined until the first head (or sample). */
  mark: BlockMark | undefined;
  learnedMs: number | undefined;
  /** The chain replaced blocks (a transaction moved, the head went back) since the last re-check. */
  reorganised: boolean;
}

/** The pace of each engine of a data directory. */
export class ChainPace {
  private readonly engines = new Map<string, EnginePace>();

  constructor(
    /** The engine's configured block time in ms (`block_time_s`; 0: no limit), or undefined to learn it. */
    private readonly configuredMs: (engine: string) => number | undefined,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  private of(engine: string): EnginePace {
    let pace = this.engines.get(engine);
    if (!pace) {
      pace = { notBefore: 0, failures: 0, silentSince: undefined, head: undefined, headAskedAt: -Infinity, headSince: 0, mark: undefined, learnedMs: undefined, reorganised: false };
      this.engines.set(engine, pace);
    }
    return pace;
  }

  /** Whether the engine's chain may be asked now (no backoff after errors in force). */
  ready(engine: string): boolean {
    return this.now() >= this.of(engine).notBefore;
  }

  /** Milliseconds between the engine's blocks: configured, learned, or the shortest while unknown. */
  blockMs(engine: string): number {
    return this.configuredMs(engine) ?? this.of(engine).learnedMs ?? MIN_BLOCK_MS;
  }

  /** Whether a waiting engine's head may be asked now: not backing off, and one block time since the last ask. */
  headDue(engine: string): boolean {
    return this.ready(engine) && this.now() - this.of(engine).headAskedAt >= this.blockMs(engine);
  }

  /** Whether the block time is still to be learned and no span has begun (the caller may pass an earlier block to sawHead). */
  wantsSample(engine: string): boolean {
    const pace = this.of(engine);
    return this.configuredMs(engine) === undefined && pace.learnedMs === undefined && pace.mark === undefined;
  }

  /**
   * The chain answered with its head (and, to learn the block time at once, an earlier block):
   * returns whether it is a block not seen before. The chain answering ends any backoff.
   */
  sawHead(engine: string, head: ChainHead, earlier?: BlockMark): boolean {
    const pace = this.of(engine);
    this.answered(engine);
    const previous = pace.head;
    const fresh = previous === undefined || previous.number !== head.number;
    pace.head = head;
    pace.headAskedAt = this.now();
    if (fresh) pace.headSince = this.now();
    if (earlier && !pace.mark) pace.mark = earlier;
    const mark = pace.mark;
    if (!mark || head.number < mark.number || (previous !== undefined && head.number < previous.number)) {
      // The first head, or a chain that went back (reset, reorganised shorter): start over from here.
      if (previous !== undefined && head.number < previous.number) pace.reorganised = true;
      pace.mark = { number: head.number, timestamp: head.timestamp };
    } else if (head.number > mark.number) {
      const ms = (head.timestamp - mark.timestamp) / Number(head.number - mark.number);
      pace.learnedMs = Math.min(MAX_BLOCK_MS, Math.max(MIN_BLOCK_MS, ms));
      if (head.number - mark.number >= BLOCK_TIME_SAMPLE) pace.mark = { number: head.number, timestamp: head.timestamp };
    }
    return fresh;
  }

  /** The chain replaced blocks: a transaction moved to another block. */
  sawReorg(engine: string): void {
    this.of(engine).reorganised = true;
  }

  /** Whether the chain replaced blocks since this was last asked (and forgets it). */
  takeReorg(engine: string): boolean {
    const pace = this.of(engine);
    const reorganised = pace.reorganised;
    pace.reorganised = false;
    return reorganised;
  }

  /** The head seen by the last look, if any. */
  lastHead(engine: string): ChainHead | undefined {
    return this.of(engine).head;
  }

  /** The chain answered: the backoff ends, and the endpoint is no longer silent. */
  answered(engine: string): void {
    const pace = this.of(engine);
    pace.failures = 0;
    pace.silentSince = undefined;
    pace.notBefore = 0;
  }

  /**
   * A look failed: wait 1 s, 2 s, 4 s ... up to 60 s, each drawn between half and all of it
   * (so many clients do not retry in step), or as long as the endpoint asked when it asked longer.
   * `unreachable` marks the endpoint silent from now on, if it was not already.
   */
  failed(engine: string, options: { retryAfterMs?: number | undefined; unreachable?: boolean } = {}): void {
    const pace = this.of(engine);
    const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** pace.failures);
    pace.failures++;
    const wait = Math.max(ceiling / 2 + (ceiling / 2) * this.random(), options.retryAfterMs ?? 0);
    pace.notBefore = this.now() + wait;
    if (options.unreachable) pace.silentSince ??= this.now();
  }

  /** How long the engine's chain has shown the same head, in ms (0 before its first head). */
  stalledFor(engine: string): number {
    const pace = this.of(engine);
    return pace.head === undefined ? 0 : this.now() - pace.headSince;
  }

  /** How long the engine's endpoint has not answered, in ms (0 while it answers). */
  silentFor(engine: string): number {
    const since = this.of(engine).silentSince;
    return since === undefined ? 0 : this.now() - since;
  }
}
