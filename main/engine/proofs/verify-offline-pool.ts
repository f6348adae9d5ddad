/**
 * Worker threads that check proofs offline (verify-offline.ts: read, parse, shape, leaf hash,
 * Merkle path, Ed25519) for verifying many proofs, so that the main thread does only the chain
 * reads and assembles the results. A batch of proofs is one message each way; the answer is
 * the compact ProofCore of each proof, not the proof (cloning whole proofs back would cost the
 * main thread about what parsing them did).
 *
 * The worker is its own entry file, found beside this module (worker-entry.ts).
 */
import { availableParallelism } from 'node:os';
import { WorkerPool } from '../worker-pool.js';
import type { OfflineInput, OfflineOutcome } from './verify-offline.js';

/** Worker threads checking batches of proofs offline. */
export class OfflinePool extends WorkerPool<{ inputs: OfflineInput[] }, { outcomes: OfflineOutcome[] }> {
  /** `size` workers, started at once: by default one per core (the main thread mostly waits on the chain meanwhile). */
  constructor(size = Math.max(1, availableParallelism())) {
    super('verify-offline-worker', import.meta.url, size, 'Checking proofs failed');
    this.start();
  }

  /** The outcomes of `inputs`, in order. */
  async check(inputs: OfflineInput[]): Promise<OfflineOutcome[]> {
    return (await this.run({ inputs })).outcomes;
  }
}

/** How long the shared pool's workers wait for the next run before they stop. */
export const POOL_IDLE_MS = 30_000;

let shared: { pool: OfflinePool; users: number; timer?: NodeJS.Timeout } | undefined;

/**
 * The pool verification runs share (verify-many.ts): started by the first run, kept while runs
 * use it and POOL_IDLE_MS after the last, so that drop after drop (or a second folder) does not
 * start and load the workers again — which costs about what checking 2,000 proofs does. Its
 * workers and its timer never keep the process alive. `release` once the run is done with it.
 */
export function borrowOfflinePool(): { pool: OfflinePool; release(): void } {
  const entry = (shared ??= { pool: new OfflinePool(), users: 0 });
  // Started again after a worker died.
  entry.pool.start();
  clearTimeout(entry.timer);
  entry.users++;
  let released = false;
  return {
    pool: entry.pool,
    release() {
      if (released) return;
      released = true;
      if (--entry.users > 0) return;
      entry.timer = setTimeout(() => {
        if (entry.users > 0) return;
        if (shared === entry) shared = undefined;
        void entry.pool.close();
      }, POOL_IDLE_MS);
      entry.timer.unref();
    },
  };
}

/** Whether the shared pool's workers are running (started and not stopped). */
export function offlinePoolRunning(): boolean {
  return shared?.pool.running === true;
}

/**
 * Starts the shared pool's workers now, if they are not running, for a run about to come (they
 * boot while its files are listed); kept POOL_IDLE_MS unless a run borrows them.
 */
export function warmOfflinePool(): void {
  borrowOfflinePool().release();
}
