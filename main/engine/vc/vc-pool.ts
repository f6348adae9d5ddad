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
import { ServiceError } from '../../../common/errors.js';
import type { ProofFile } from '../proofs/proof-file.js';
import { WorkerPool } from '../worker-pool.js';
import type { BitstringStatusListEntry } from './status-entry.js';
import type { DataIntegrityOutcome, VcAnswer, VcTask } from './vc-worker.js';

// Credentials per message: big enough that a message costs nothing beside the work, small
// enough that every worker gets a share of a few hundred credentials.
const BATCH = 16;
/** How long idle workers wait for the next batch before they stop. */
const IDLE_MS = 30_000;

/** Worker threads signing and checking Verifiable Credentials. */
export class VcPool extends WorkerPool<VcTask, VcAnswer> {
  private queued: { credential: Record<string, unknown>; resolve(outcome: DataIntegrityOutcome): void; reject(error: Error): void }[] = [];

  /** `size` workers, by default one per core, started on first use. */
  constructor(size = Math.max(1, availableParallelism())) {
    super('vc-worker', import.meta.url, size, 'Signing or checking Verifiable Credentials failed', IDLE_MS);
  }

  /** The credential text (sign-credential.ts) of each proof file, in order, signed with `key` (with the status entry at its index, if any). */
  async credentialTexts(proofs: ProofFile[], key: KeyObject, statuses: (BitstringStatusListEntry | undefined)[] = []): Promise<string[]> {
    const batches: Promise<VcAnswer>[] = [];
    for (let at = 0; at < proofs.length; at += BATCH) batches.push(this.run({ key, proofs: proofs.slice(at, at + BATCH), statuses: statuses.slice(at, at + BATCH) }));
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
      this.run({ credentials: part.map((q) => q.credential) }).then(
        (answer) => part.forEach((q, i) => q.resolve((answer as { outcomes: DataIntegrityOutcome[] }).outcomes[i]!)),
        (error: Error) => part.forEach((q) => q.reject(error)),
      );
    }
  }
}

let shared: VcPool | undefined;

/** The process's pool: started on first use, its workers stopped when idle and started again when needed. */
export function vcPool(): VcPool {
  return (shared ??= new VcPool());
}
