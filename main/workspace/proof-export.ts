/**
 * Exports the proofs of a job, or of a selection's credentials, into a folder: one
 * NAME.proof.json and/or NAME.vc.json (the certificate as a Verifiable Credential) per issued
 * certificate, each written whole or not at all (a temporary file beside it, then a rename),
 * with progress and cancel between slices of files.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceError } from '../../common/errors.js';
import type { ProofExportFormat, ProofExportRequest, ProofExportResult } from '../../common/records.js';
import type { TaskContext } from '../../common/tasks.js';
import { recordExports } from '../engine/activity.js';
import { buildProofFile, certificateRow } from '../engine/certificates.js';
import { exportableOfCredentials, exportableOfJob, type ExportableCertificate, type PartnerScope } from '../engine/index.js';
import { verifiableCredentials } from '../engine/vc/load-vc.js';
import { writeAtomic } from '../intake/paths.js';
import { checkpoint, resolveSelection } from './selection.js';

/** Certificates written between two looks at the event loop (progress, cancel); their credentials are signed together. */
const STEP = 50;

const KINDS: Record<ProofExportFormat, readonly ('proof' | 'vc')[]> = { proof: ['proof'], vc: ['vc'], both: ['proof', 'vc'] };

/**
 * The proof's file name: the credential's title made safe for any file system, then the
 * certificate's uid, so names never clash and exporting again rewrites the same files.
 */
export function proofFileName(title: string, certificateUid: string, kind: 'proof' | 'vc' = 'proof'): string {
  const safe = title
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, '_')
    .replace(/^[.\s]+/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${safe ? `${safe} ` : ''}${certificateUid}.${kind}.json`;
}

/** The issued certificates to export and how many of the chosen credentials have none. */
async function certificatesToExport(scope: PartnerScope, request: ProofExportRequest, task: TaskContext): Promise<{ certificates: ExportableCertificate[]; withoutCertificate: number }> {
  if (request.source.kind === 'job') return exportableOfJob(scope, request.source.jobUid);
  const engine = request.source.engine === undefined ? undefined : scope.catalog.get(request.source.engine).id;
  const ids = await resolveSelection(scope, request.source.selection, task);
  return exportableOfCredentials(scope, ids, engine);
}

/**
 * Writes the proofs. The folder must exist; files already there under the same names are
 * replaced (an earlier export of the same certificates), nothing else in it is touched.
 */
export async function exportProofs(scope: PartnerScope, request: ProofExportRequest, task: TaskContext): Promise<ProofExportResult> {
  const folder = request.folder;
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) throw new ServiceError('invalid_value', `The folder ${folder} does not exist; choose an existing folder to export the proofs into.`);
  const { certificates, withoutCertificate } = await certificatesToExport(scope, request, task);
  if (certificates.length === 0) {
    throw new ServiceError('missing_certificate', 'None of the chosen credentials has an issued certificate yet; export the proofs once their job has been issued.');
  }
  task.progress(0, certificates.length);
  const kinds = KINDS[request.format ?? 'proof'];
  let written = 0;
  for (let from = 0; from < certificates.length; from += STEP) {
    await checkpoint(task.signal);
    const slice = certificates.slice(from, from + STEP);
    const proofs = slice.map((c) => buildProofFile(scope, certificateRow(scope, c.uid)));
    const credentials = kinds.includes('vc') ? await (await verifiableCredentials()).partnerCredentialTexts(scope, proofs) : [];
    const refused = credentials.find((c) => c instanceof ServiceError);
    if (refused) throw refused;
    for (const [i, certificate] of slice.entries()) {
      for (const kind of kinds) {
        const text = kind === 'vc' ? (credentials[i] as string) : `${JSON.stringify(proofs[i], null, 2)}\n`;
        try {
          await writeAtomic(join(folder, proofFileName(certificate.title, certificate.uid, kind)), text);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOSPC') throw new ServiceError('try_again_later', `The disk holding ${folder} is full; ${written} of ${certificates.length} proofs were written. Free some space and export again.`);
          throw new ServiceError('invalid_value', `Proofs cannot be written into ${folder} (${code ?? 'error'}); ${written} of ${certificates.length} were written. Choose a folder you can write to.`);
        }
        recordExports(scope, kind, [certificate.uid]);
      }
      written++;
      task.progress(written);
    }
  }
  return { folder, written, withoutCertificate };
}
