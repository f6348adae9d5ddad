/**
 * Worker threads running one of the engine's worker modules (worker-entry.ts), a task per message
 * answered by its id. Verifying proofs offline (verify-offline-pool.ts) and signing and checking
 * Verifiable Credentials (vc-pool.ts) spread their batches over them.
 */
import { Worker } from 'node:worker_threads';
import { workerEntry } from './worker-entry.js';

interface Pending<Answer> {
  /** The worker working on it. */
  worker: number;
  resolve(answer: Answer): void;
  reject(error: Error): void;
}

/** What a worker posts back: the task's id with its answer, or with why the task failed. */
export type WorkerReply<Answer> = { id: number } & (Answer | { error: string });

/**
 * `size` workers of module `name` (beside the module at `here`, its import.meta.url), started
 * on the first task. A worker's error fails every unanswered task with it and stops the workers;
 * the next task starts them again.
 */
export class WorkerPool<Task extends object, Answer extends object> {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending<Answer>>();
  /** Tasks each worker has not answered yet. */
  private readonly unanswered: number[] = [];
  private nextId = 0;
  private holding = false;
  private idle: NodeJS.Timeout | undefined;
  /** Why a worker died, until the workers are started again. */
  failure: Error | undefined;

  /**
   * `failedAs` leads the message of a task the worker could not do; with `idleMs` the workers
   * stop once that long without a task.
   */
  constructor(
    private readonly name: string,
    private readonly here: string,
    readonly size: number,
    private readonly failedAs: string,
    private readonly idleMs?: number,
  ) {}

  /** Whether the workers are running. */
  get running(): boolean {
    return this.workers.length > 0;
  }

  /** Starts the workers now (they load their modules while the caller prepares the first task). */
  start(): void {
    if (this.running) return;
    this.failure = undefined;
    const { entry, eval: isEval } = workerEntry(this.name, this.here);
    for (let i = 0; i < this.size; i++) {
      const worker = new Worker(entry, isEval ? { eval: true } : {});
      worker.on('message', (reply: WorkerReply<Answer>) => {
        const waiting = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        if (waiting) this.unanswered[waiting.worker]!--;
        this.settle();
        if ('error' in reply) waiting?.reject(new Error(`${this.failedAs}: ${reply.error}`));
        else waiting?.resolve(reply as Answer);
      });
      worker.on('error', (error) => {
        this.failure ??= error;
        const waiting = [...this.pending.values()];
        this.pending.clear();
        void this.close();
        for (const w of waiting) w.reject(error);
      });
      // After the listeners (adding a 'message' listener refs the worker again): see settle.
      worker.unref();
      this.workers.push(worker);
      this.unanswered.push(0);
    }
  }

  /**
   * The workers keep the process alive while a task is unanswered, and never when idle: a command
   * that is done exits at once though the workers stay warm for the next task.
   */
  private settle(): void {
    const hold = this.pending.size > 0;
    clearTimeout(this.idle);
    if (!hold && this.idleMs !== undefined) {
      this.idle = setTimeout(() => void this.close(), this.idleMs);
      this.idle.unref();
    }
    if (hold === this.holding) return;
    this.holding = hold;
    for (const worker of this.workers) {
      if (hold) worker.ref();
      else worker.unref();
    }
  }

  /**
   * The answer to `task`, from the worker with the fewest tasks unanswered: a worker that gets
   * less of the cores (another process, the main thread) gets fewer, so that the others do not
   * run out of work while it finishes its share.
   */
  run(task: Task): Promise<Answer> {
    this.start();
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      let worker = 0;
      for (let w = 1; w < this.unanswered.length; w++) if (this.unanswered[w]! < this.unanswered[worker]!) worker = w;
      this.unanswered[worker]!++;
      this.pending.set(id, { worker, resolve, reject });
      this.settle();
      this.workers[worker]!.postMessage({ ...task, id });
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.idle);
    this.holding = false;
    this.unanswered.length = 0;
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }
}
