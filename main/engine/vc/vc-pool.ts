/**
 * Worker threads that sign Verifiable Credentials and check their Data Integrity proofs, one
 * per core: each credential costs milliseconds of JSON-LD expansion and RDF canonicalization,
 * and credentials are independent, so a batch spreads over every core.
 *
 * The Partner's private key goes to the workers as a KeyObject (cloned between threads of
 * this process, never serialized to text); it stays in the process that read it from the
 * secret store. The worker is its own entry file beside this module (worker-entry.ts).
 */
import type { KeyObject } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ServiceError } from '../../../common/errors.js';
import type { ProofFile } from '../proofs/proof-file.js';
import { workerEntry } from '../worker-entry.js';
import type { BitstringStatusListEntry } from './status-entry.js';
import type { DataIntegrityOutcome, VcAnswer, VcTask } from './vc-worker.js';

const WORKER = 'vc-worker';
// Credentials per message: big enough that a message costs nothing beside the work, small
// enough that every worker gets a share of a few hundred credentials.
const BATCH = 16;
/** How long idle workers wait for the next batch before they stop. */
const IDLE_MS = 30_000;

interface Pending {
  resolve(answer: VcAnswer): void;
  reject(error: Error): void;
}

/** Worker threads signing and checking Verifiable Credentials. */
export class VcPool {
  private workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private turn = 0;
  private idle: NodeJS.Timeout | undefined;
  private queued: { credential: Record<string, unknown>; resolve(outcome: DataIntegrityOutcome): void; reject(error: Error): void }[] = [];

  /** `size` workers, by default one per core, started on first use. */
  constructor(readonly size = Math.max(1, availableParallelism())) {}

  private start(): void {
    const { entry, eval: isEval } = workerEntry(WORKER, import.meta.url);
    for (let i = 0; i < this.size; i++) {
      const worker = new Worker(entry, isEval ? { eval: true } : {});
      worker.on('message', (answer: VcAnswer) => {
        const waiting = this.pending.get(answer.id);
        this.pending.delete(answer.id);
        this.settle();
        waiting?.resolve(answer);
      });
      worker.on('error', (error) => {
        const waiting = [...this.pending.values()];
        this.pending.clear();
        void this.close();
        for (const w of waiting) w.reject(error);
      });
      this.workers.push(worker);
    }
  }

  /** Workers keep the process alive only while a batch is unanswered; idle, they stop after IDLE_MS. */
  private settle(): void {
    clearTimeout(this.idle);
    const busy = this.pending.size > 0;
    for (const worker of this.workers) {
      if (busy) worker.ref();
      else worker.unref();
    }
    if (!busy) {
      this.idle = setTimeout(() => void this.close(), IDLE_MS);
      this.idle.unref();
    }
  }

  private send(task: Omit<VcTask, 'id'>): Promise<VcAnswer> {
    if (this.workers.length === 0) this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.settle();
      this.workers[this.turn++ % this.workers.length]!.postMessage({ ...task, id });
    }).then((answer) => {
      if ('error' in (answer as VcAnswer)) throw new Error(`Signing or checking Verifiable Credentials failed: ${(answer as { error: string }).error}`);
      return answer as VcAnswer;
    });
  }

  /** The credential text (sign-credential.ts) of each proof file, in order, signed with `key` (with the status entry at its index, if any). */
  async credentialTexts(proofs: ProofFile[], key: KeyObject, statuses: (BitstringStatusListEntry | undefined)[] = []): Promise<string[]> {
    const batches: Promise<VcAnswer>[] = [];
    for (let at = 0; at < proofs.length; at += BATCH) batches.push(this.send({ key, proofs: proofs.slice(at, at + BATCH), statuses: statuses.slice(at, at + BATCH) }));
    return (await Promise.all(batches)).flatMap((answer) => ('texts' in answer ? answer.texts : []));
  }

  /**
   * Whether a credential's Data Integrity proof holds (verify-credential.ts: a DataIntegrityCheck),
   * checked on a worker. Checks asked for together go out together, BATCH to a message.
   */
  dataIntegrityHolds = (credential: Record<string, unknown>): Promise<boolean> =>
    new Promise<DataIntegrityOutcome>((resolve, reject) => {
      if (this.queued.length === 0) queueMicrotask(() => this.flush());
      this.queued.push({ credential, resolve, reject });
    }).then((outcome) => {
      if ('invalid' in outcome) throw new ServiceError('invalid_value', outcome.invalid);
      return outcome.holds;
    });

  private flush(): void {
    const queued = this.queued;
    this.queued = [];
    for (let at = 0; at < queued.length; at += BATCH) {
      const part = queued.slice(at, at + BATCH);
      this.send({ credentials: part.map((q) => q.credential) }).then(
        (answer) => part.forEach((q, i) => q.resolve((answer as { outcomes: DataIntegrityOutcome[] }).outcomes[i]!)),
        (error: Error) => part.forEach((q) => q.reject(error)),
      );
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.idle);
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }
}

let shared: VcPool | undefined;

/** The process's pool: started on first use, its workers stopped when idle and started again when needed. */
export function vcPool(): VcPool {
  return (shared ??= new VcPool());
}
