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
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../worker-entry.js';
import type { OfflineInput, OfflineOutcome } from './verify-offline.js';

const WORKER = 'verify-offline-worker';

interface Pending {
  /** The worker checking it. */
  worker: number;
  resolve(outcomes: OfflineOutcome[]): void;
  reject(error: Error): void;
}

/** Worker threads checking batches of proofs offline. */
export class OfflinePool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Batches each worker has not answered yet. */
  private readonly queued: number[] = [];
  private holding = false;
  /** Why a worker died: every check after it is refused with it (none would be answered). */
  private failure: Error | undefined;

  /** `size` workers: by default one per core (the main thread mostly waits on the chain meanwhile). */
  constructor(readonly size = Math.max(1, availableParallelism())) {
    const { entry, eval: isEval } = workerEntry(WORKER, import.meta.url);
    for (let i = 0; i < size; i++) {
      const worker = new Worker(entry, isEval ? { eval: true } : {});
      worker.on('message', ({ id, outcomes, error }: { id: number; outcomes?: OfflineOutcome[]; error?: string }) => {
        const waiting = this.pending.get(id);
        this.pending.delete(id);
        if (waiting) this.queued[waiting.worker]!--;
        this.holdProcess();
        if (outcomes) waiting?.resolve(outcomes);
        else waiting?.reject(new Error(`Checking proofs failed: ${error}`));
      });
      worker.on('error', (error) => {
        this.failure ??= error;
        for (const [id, waiting] of this.pending) {
          this.pending.delete(id);
          waiting.reject(error);
        }
        this.holdProcess();
      });
      // After the listeners (adding a 'message' listener refs the worker again): see holdProcess.
      worker.unref();
      this.workers.push(worker);
      this.queued.push(0);
    }
  }

  /**
   * The workers keep the process alive while a check is unanswered, and never when idle: a
   * command that is done exits at once though the pool stays warm for the next run.
   */
  private holdProcess(): void {
    const hold = this.pending.size > 0;
    if (hold === this.holding) return;
    this.holding = hold;
    for (const worker of this.workers) {
      if (hold) worker.ref();
      else worker.unref();
    }
  }

  /** Whether a worker died: the pool answers nothing more. */
  get broken(): boolean {
    return this.failure !== undefined;
  }

  /**
   * The outcomes of `inputs`, in order, from the worker with the fewest batches unanswered: a
   * worker that gets less of the cores (another process, the main thread) gets fewer batches,
   * so that the other does not run out of work while it finishes its share.
   */
  check(inputs: OfflineInput[]): Promise<OfflineOutcome[]> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      const id = this.nextId++;
      let worker = 0;
      for (let w = 1; w < this.queued.length; w++) if (this.queued[w]! < this.queued[worker]!) worker = w;
      this.queued[worker]!++;
      this.pending.set(id, { worker, resolve, reject });
      this.holdProcess();
      this.workers[worker]!.postMessage({ id, inputs });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
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
  if (shared?.pool.broken) {
    void shared.pool.close();
    shared = undefined;
  }
  const entry = (shared ??= { pool: new OfflinePool(), users: 0 });
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

/** Whether the shared pool's workers are running (started and not stopped or broken). */
export function offlinePoolRunning(): boolean {
  return shared !== undefined && !shared.pool.broken;
}

/**
 * Starts the shared pool's workers now, if they are not running, for a run about to come (they
 * boot while its files are listed); kept POOL_IDLE_MS unless a run borrows them.
 */
export function warmOfflinePool(): void {
  borrowOfflinePool().release();
}
