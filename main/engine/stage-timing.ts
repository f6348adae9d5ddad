/**
 * Wall time per named stage of issuing, summed over a run: what `npm run bench`'s issuing profile
 * prints. Off unless a benchmark calls `timeStages(true)`; then `stage()` costs two clock reads.
 * Stages must not nest (each adds its own wall time). Worker threads time their own stages and
 * hand the totals back with their results (`addStageTime`).
 */
let totals: Map<string, bigint> | undefined;

/** Starts (from zero) or stops timing stages. */
export function timeStages(on: boolean): void {
  totals = on ? new Map() : undefined;
}

/** Whether stages are being timed (workers are asked to time theirs only then). */
export function timingStages(): boolean {
  return totals !== undefined;
}

/** Adds `ns` nanoseconds to stage `name` (a worker's total, or a span timed elsewhere). */
export function addStageTime(name: string, ns: bigint | number): void {
  if (totals) totals.set(name, (totals.get(name) ?? 0n) + BigInt(ns));
}

/** Runs `fn` and, while timing, adds its wall time (until its promise settles, for an async one) to stage `name`. */
export function stage<T>(name: string, fn: () => T): T {
  if (!totals) return fn();
  const start = process.hrtime.bigint();
  const done = () => addStageTime(name, process.hrtime.bigint() - start);
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

/** Each stage's total so far, in milliseconds. */
export function stageTotals(): Record<string, number> {
  return Object.fromEntries([...(totals ?? [])].map(([name, ns]) => [name, Number(ns) / 1e6]));
}
