/** Small measuring tools for the benchmarks: timing, percentiles, peak RSS, repetition. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { observeMachine, type MachineWindow } from './machine.js';

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
/**
 * Flushes what the bench itself just wrote (the files it is about to drop, the last run's
 * deletions) before the clock starts. A user's files were written long before they are dropped;
 * without this, the first sync pass of the code measured (syncfs flushes the whole file system)
 * pays for the bench's own ~100 MB of setup, and the figure swings with how much of it the
 * kernel had written back by then (nearly twice as long for the same stage, back to back).
 */
export function flushBenchWrites(): void {
  execFileSync('sync');
}

/** The benchmarks' temporary folders, removed when the process exits (see benchDir). */
const benchDirs: string[] = [];

/**
 * A temporary folder for one benchmark, removed when the whole run ends rather than when the
 * benchmark does. On an ext4 without a journal (this machine's disk) the kernel will not reuse an
 * inode freed in the last minutes, and searches past them for each new file: after one
 * benchmark deletes its tens of thousands of files, creating files costs several times the
 * system CPU for the next few minutes, so the next file-heavy benchmark would
 * measure the last one's clean-up. Runs started one after the other still affect each other:
 * wait five minutes after a large deletion before a figure that creates many files.
 */
export function benchDir(prefix: string): string {
  if (benchDirs.length === 0) process.once('exit', () => { for (const dir of benchDirs) rmSync(dir, { recursive: true, force: true }); });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  benchDirs.push(dir);
  return dir;
}

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
  /**
   * Load and CPU steal over the interval this figure was measured in. run.ts fills in the whole
   * benchmark's interval for rows that do not bring their own.
   */
  machine?: MachineWindow;
  /** How the figure was repeated (absent: measured once). */
  repeat?: RepeatSummary;
  /** The figure against a peer or a limit measured in the same run: value / peer. */
  ratio?: { value: number; against: string };
  /** Facts shown beside the figure (e.g. the load generator's CPU budget). */
  notes?: string[];
}

export function meetsTarget(r: BenchResult): boolean | undefined {
  if (!r.target) return undefined;
  return r.target.better === 'higher' ? r.value >= r.target.value : r.value <= r.target.value;
}

/** How a repeated figure came about. */
export interface RepeatSummary {
  runs: number;
  /** Relative half-range, (max - min) / 2 / median, of the last `window` runs. */
  spread: number;
  converged: boolean;
}

/** When repetition stops: the spread of the last `window` runs is within `tolerance`, or a bound is hit. */
export interface RepeatOptions {
  /** Relative half-range that counts as stable (0.05 = ±5 %). */
  tolerance?: number;
  /** How many of the latest runs the spread is taken over. */
  window?: number;
  /** Runs made whatever the spread and the time (e.g. to build a data set of a given size). */
  minRuns?: number;
  maxRuns?: number;
  /** No new run beyond minRuns starts after this much time. */
  maxMs?: number;
}

const DEFAULTS: Required<RepeatOptions> = { tolerance: 0.05, window: 3, minRuns: 3, maxRuns: 8, maxMs: 60_000 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Relative half-range of values, (max - min) / 2 / median: ±x of the typical value. */
export function relativeHalfRange(values: number[]): number {
  if (values.length < 2) return Number.POSITIVE_INFINITY;
  const m = median(values);
  if (m === 0) return Math.max(...values) === Math.min(...values) ? 0 : Number.POSITIVE_INFINITY;
  return (Math.max(...values) - Math.min(...values)) / 2 / Math.abs(m);
}

/**
 * The convergence rule, apart from any clock: the figure is the median of the last `window`
 * runs and is stable once their relative half-range is within `tolerance`, after at least
 * `minRuns` runs (and never on fewer than `window` runs).
 */
export function convergence(samples: number[], options: RepeatOptions = {}): { value: number; spread: number; converged: boolean } {
  const { tolerance, window, minRuns } = { ...DEFAULTS, ...options };
  const last = samples.slice(-window);
  const spread = relativeHalfRange(last);
  const converged = samples.length >= Math.max(minRuns, window) && spread <= tolerance;
  return { value: last.length ? median(last) : Number.NaN, spread, converged };
}

/** A figure measured repeatedly: the median of the last runs, every run, and how stable it was. */
export interface Repeated {
  value: number;
  samples: number[];
  repeat: RepeatSummary;
  machine: MachineWindow;
}

/**
 * Repeats `run` (which measures once and returns the figure) until the last runs agree
 * (see convergence) or maxRuns / maxMs is reached; then reports whether they did.
 */
export async function repeatUntilStable(run: (index: number) => Promise<number> | number, options: RepeatOptions = {}): Promise<Repeated> {
  const settings = { ...DEFAULTS, ...options };
  const machine = observeMachine();
  const started = Date.now();
  const samples: number[] = [];
  let state = convergence(samples, settings);
  do {
    samples.push(await run(samples.length));
    state = convergence(samples, settings);
  } while (samples.length < settings.minRuns || (!state.converged && samples.length < settings.maxRuns && Date.now() - started < settings.maxMs));
  return { value: state.value, samples, repeat: { runs: samples.length, spread: state.spread, converged: state.converged }, machine: machine.end() };
}

/** The BenchResult fields of a repeated figure. */
export function repeatedFigure(r: Repeated): Pick<BenchResult, 'value' | 'machine' | 'repeat'> {
  return { value: r.value, machine: r.machine, repeat: r.repeat };
}

/** Rows that did not observe their own interval get the whole benchmark's. */
export function withMachine(rows: BenchResult[], machine: MachineWindow): BenchResult[] {
  return rows.map((r) => ({ ...r, machine: r.machine ?? machine }));
}
