/**
 * How often the engine may ask an engine's chain about work under way: at most one look per block
 * time while it waits, and an exponential, jittered backoff (or the endpoint's Retry-After) after
 * errors. Wall-clock time, not the engine's clock: it is about load on someone's RPC endpoint.
 */

/**
 * Seconds between blocks of well-known chains, by chain id. Another chain is asked as often as the
 * scheduler ticks unless its engine sets `block_time_s` (a dev chain mining on demand has none).
 */
export const KNOWN_BLOCK_TIMES_S: Readonly<Record<number, number>> = {
  1: 12, // Ethereum
  11155111: 12, // Sepolia
  17000: 12, // Holesky
  560048: 12, // Hoodi
  137: 2, // Polygon PoS
  80002: 2, // Polygon Amoy
  10: 2, // OP Mainnet
  11155420: 2, // OP Sepolia
  8453: 2, // Base
  84532: 2, // Base Sepolia
  42161: 0.25, // Arbitrum One
  421614: 0.25, // Arbitrum Sepolia
  100: 5, // Gnosis
  43114: 2, // Avalanche C-Chain
  56: 3, // BNB Smart Chain
  59144: 2, // Linea
  534352: 3, // Scroll
  324: 1, // ZKsync Era
  42220: 1, // Celo
};

/** Backoff after errors: the first wait, and the longest. */
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;

/** An RPC endpoint silent this long is reported as unreachable on the jobs that wait for it. */
export const UNREACHABLE_AFTER_MS = 30_000;

interface EnginePace {
  notBefore: number;
  failures: number;
  /** When the endpoint last stopped answering (cleared when it answers). */
  silentSince: number | undefined;
}

/** The pace of each engine of a data directory. */
export class ChainPace {
  private readonly engines = new Map<string, EnginePace>();

  constructor(
    /** Milliseconds between looks while waiting on the engine's chain (0: no limit). */
    private readonly waitMs: (engine: string) => number,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  private of(engine: string): EnginePace {
    let pace = this.engines.get(engine);
    if (!pace) this.engines.set(engine, (pace = { notBefore: 0, failures: 0, silentSince: undefined }));
    return pace;
  }

  /** Whether the engine's chain may be asked now. */
  ready(engine: string): boolean {
    return this.now() >= this.of(engine).notBefore;
  }

  /** The chain answered and the work waits for the next block: look again in one block time. */
  waiting(engine: string): void {
    const pace = this.of(engine);
    pace.failures = 0;
    pace.silentSince = undefined;
    pace.notBefore = this.now() + this.waitMs(engine);
  }

  /** The chain answered and the work moved on: the next look may come at once. */
  moved(engine: string): void {
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

  /** How long the engine's endpoint has not answered, in ms (0 while it answers). */
  silentFor(engine: string): number {
    const since = this.of(engine).silentSince;
    return since === undefined ? 0 : this.now() - since;
  }
}
