/** Small measuring tools for the benchmarks: timing, percentiles, peak RSS. */

/** Samples the process's resident set size and keeps the peak. */
export class RssSampler {
  private peak = process.memoryUsage().rss;
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs = 20) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage().rss);
  }

  /** Peak RSS so far, in MiB. */
  peakMiB(): number {
    this.sample();
    return this.peak / 1024 / 1024;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Runs `fn` and returns its result with the elapsed milliseconds. */
export async function timed<T>(fn: () => Promise<T> | T): Promise<{ result: T; ms: number }> {
  const start = process.hrtime.bigint();
  const result = await fn();
  return { result, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

/** The p-th percentile (0..100) of samples, nearest-rank. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** One line of the results table. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The target, if any, and whether higher or lower is better. */
  target?: { value: number; better: 'higher' | 'lower' };
}

export function meetsTarget(r: BenchResult): boolean | undefined {
  if (!r.target) return undefined;
  return r.target.better === 'higher' ? r.value >= r.target.value : r.value <= r.target.value;
}
