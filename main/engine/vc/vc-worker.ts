/**
 * A worker thread of VcPool (vc-pool.ts): signs proof files as Verifiable Credentials, or
 * checks credentials' Data Integrity proofs, a batch per message, answered in order.
 */
import type { KeyObject } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { ServiceError } from '../../../common/errors.js';
import type { ProofFile } from '../proofs/proof-file.js';
import type { WorkerReply } from '../worker-pool.js';
import { credentialText, keySigner, signedCredentialOf } from './sign-credential.js';
import type { BitstringStatusListEntry } from './status-entry.js';
import { dataIntegrityHolds } from './verify-credential.js';

/** A batch for a worker: proofs to sign with `key` (each with its status entry, if any), or credentials to check. */
export type VcTask = { key: KeyObject; proofs: ProofFile[]; statuses: (BitstringStatusListEntry | undefined)[] } | { credentials: Record<string, unknown>[] };

/** One credential's check: whether its Data Integrity proof holds, or why it cannot be checked. */
export type DataIntegrityOutcome = { holds: boolean } | { invalid: string };

/** A worker's answer: the credentials' texts, or the checks' outcomes. */
export type VcAnswer = { texts: string[] } | { outcomes: DataIntegrityOutcome[] };

async function run(task: VcTask & { id: number }): Promise<WorkerReply<VcAnswer>> {
  if ('proofs' in task) {
    const sign = keySigner(task.key);
    const texts: string[] = [];
    for (const [i, proof] of task.proofs.entries()) texts.push(credentialText(await signedCredentialOf(proof, sign, task.statuses[i])));
    return { id: task.id, texts };
  }
  const outcomes: DataIntegrityOutcome[] = [];
  for (const credential of task.credentials) {
    try {
      outcomes.push({ holds: await dataIntegrityHolds(credential) });
    } catch (error) {
      // A credential that cannot be checked offline is that credential's answer, not the batch's.
      if (!(error instanceof ServiceError)) throw error;
      outcomes.push({ invalid: error.message });
    }
  }
  return { id: task.id, outcomes };
}

parentPort!.on('message', (task: VcTask & { id: number }) => {
  run(task).then(
    (answer) => parentPort!.postMessage(answer),
    (error: unknown) => parentPort!.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
