/**
 * Wall time and CPU time per named stage of issuing, summed over a run: what `npm run bench`'s
 * issuing profile prints. Off unless a benchmark calls `timeStages(true)`; then `stage()` costs two
 * clock reads and two reads of the thread's CPU time (about 25 µs: time a batch, not an item).
 * Stages must not nest (each adds its own time), except a part named `outer: part` inside its
 * stage `outer`, which a profile shows as of that stage, not beside it. Worker threads time their own stages and hand the totals back with their results
 * (`addStageTime`).
 */
import { readFileSync } from 'node:fs';

export interface StageTime {
  /** Wall time, ms. */
  ms: number;
  /** The running thread's time on a CPU, ms: what the stage cost whatever else the machine ran. */
  cpuMs: number;
}

let totals: Map<string, { wall: bigint; cpu: bigint }> | undefined;

/**
 * The calling thread's time on a CPU so far, in ns (Linux: the first field of its schedstat,
 * which the kernel brings up to date at each scheduler tick and context switch only, so a
 * reading may lag by up to a tick, a few ms); 0 where that cannot be read.
 */
export function threadCpuNs(): bigint {
  try {
    return BigInt(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]!);
  } catch {
    return 0n;
  }
}

/** Starts (from zero) or stops timing stages. */
export function timeStages(on: boolean): void {
  totals = on ? new Map() : undefined;
}

/** Whether stages are being timed (workers are asked to time theirs only then). */
export function timingStages(): boolean {
  return totals !== undefined;
}

/** Adds wall and CPU nanoseconds to stage `name` (a worker's totals, or a span timed elsewhere). */
export function addStageTime(name: string, wallNs: bigint | number, cpuNs: bigint | number = 0): void {
  if (!totals) return;
  const total = totals.get(name) ?? { wall: 0n, cpu: 0n };
  total.wall += BigInt(wallNs);
  total.cpu += BigInt(cpuNs);
  totals.set(name, total);
}

/**
 * Runs `fn` and, while timing, adds its wall time and this thread's CPU time (until its promise
 * settles, for an async one: then the CPU is whatever the thread ran meanwhile) to stage `name`.
 */
export function stage<T>(name: string, fn: () => T): T {
  if (!totals) return fn();
  const cpu = threadCpuNs();
  const start = process.hrtime.bigint();
  const done = () => addStageTime(name, process.hrtime.bigint() - start, threadCpuNs() - cpu);
  let result: T;
  try {
    result = fn();
  } catch (error) {
    done();
    throw error;
  }
  if (result instanceof Promise) result.then(done, done);
  else done();
  return result;
}

/** Each stage's totals so far. */
export function stageTotals(): Record<string, StageTime> {
  return Object.fromEntries([...(totals ?? [])].map(([name, t]) => [name, { ms: Number(t.wall) / 1e6, cpuMs: Number(t.cpu) / 1e6 }]));
}
