/**
 * Handlers of the detail panel's slice (common/ipc/detail.ts): a credential with its record,
 * its state and certificate on each engine; verify, proof download, unschedule, revoke. All
 * through IssuingService (so remote mode works alike), except the record's later entries,
 * which only the embedded engine's database can find.
 */
import type { CredentialDetail, CredentialOnEngine, DETAIL_IPC } from '../../../common/ipc/detail.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import type { Certificate, Job } from '../../../common/wire-types.js';
import type { PartnerScope } from '../../engine/scope.js';
import { recordFromCredential, recordFromDatabase } from '../../workspace/record-tree.js';
import { ServiceError } from '../../../common/errors.js';
import { findOriginalOnDisk, readStoredOriginal } from '../../workspace/original-file.js';
import { readWatchFolders } from '../../workspace/watch-folders/watch-folder-list.js';
import type { AppContext } from '../app-context.js';
import { watchFolderDesktop } from './watch-folders-desktop.js';
import type { HandlersOf } from './handlers-of.js';

function stateOf(job: Job | undefined, certificate: Certificate | undefined): CredentialOnEngine['state'] {
  if (certificate?.revoked_date) return 'revoked';
  switch (job?.status) {
    case 'scheduled':
      return 'scheduled';
    case 'started':
    case 'unconfirmed':
      return 'issuing';
    case 'finished':
      return 'issued';
    default:
      return 'not_scheduled';
  }
}

/** Everything the detail panel shows about one credential. */
export async function credentialDetail(service: IssuingService, scope: PartnerScope | null, uid: string): Promise<CredentialDetail> {
  const [credential, engines, jobs] = await Promise.all([service.getCredential(uid), service.listEngines(), service.listJobs({ uid, per_page: 0 })]);
  const onEngines = await Promise.all(
    engines.map(async ({ id }): Promise<CredentialOnEngine> => {
      // The latest job on this engine that still holds it: a failed job released it.
      const job = jobs.items.filter((j) => j.chain === id && j.status !== 'failed').at(-1);
      const certificate =
        job && (job.status === 'finished' || job.status === 'unconfirmed')
          ? (await service.listCertificates({ credential_uid: uid, job_uid: job.uid, per_page: 0 })).items[0]
          : undefined;
      return {
        engine: id,
        state: stateOf(job, certificate),
        job: job ? { uid: job.uid, status: job.status, scheduled_date: job.scheduled_date, issued_date: job.issued_date } : null,
        certificate: certificate
          ? {
              uid: certificate.certificate.uid,
              issued_date: certificate.certificate.issued_date,
              revoked_date: certificate.revoked_date,
              last_verification: certificate.last_verification,
            }
          : null,
      };
    }),
  );
  const record = scope ? recordFromDatabase(scope, credential.uid) : recordFromCredential(credential);
  return { credential, engines: onEngines, record: record.tree, record_size: record.size };
}

/** A file's base name from a title: letters, digits, spaces, dots, dashes and underscores only; the uid when none is left. */
export function proofBaseName(title: string, uid: string): string {
  const safe = title
    .replace(/[^\p{L}\p{N} ._-]+/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 100);
  return safe || uid;
}

function proofFileName(title: string, uid: string, kind: 'proof' | 'vc' = 'proof'): string {
  return `${proofBaseName(title, uid)}.${kind}.json`;
}

export function createDetailHandlers(ctx: AppContext): HandlersOf<typeof DETAIL_IPC> {
  const current = () => {
    const { partner, service } = ctx.require();
    return { service, scope: ctx.engine ? ctx.engine.scopeFor(partner.id) : null };
  };
  return {
    'detail:get': async (uid) => {
      const { service, scope } = current();
      return credentialDetail(service, scope, uid);
    },
    'detail:verify': async (certificateUid) => current().service.verifyCertificate(certificateUid),
    'detail:proof': async (certificateUid) => {
      const { service } = current();
      const text = await service.downloadCertificate(certificateUid);
      const found = (await service.listCertificates({ uid: certificateUid, per_page: 1 })).items[0];
      return { file_name: proofFileName(found?.certificate.credential.title ?? '', certificateUid), text };
    },
    'detail:credential': async (certificateUid) => {
      const { service } = current();
      const text = await service.downloadCertificateVc(certificateUid);
      const found = (await service.listCertificates({ uid: certificateUid, per_page: 1 })).items[0];
      return { file_name: proofFileName(found?.certificate.credential.title ?? '', certificateUid, 'vc'), text };
    },
    'detail:unschedule': async (uid, engine) => {
      const { service, scope } = current();
      const result = await service.unscheduleCredential(uid, engine);
      ctx.events.emit({ type: 'counts', scopes: ['credentials', 'jobs', 'files', 'tags'] });
      return result.credential_deleted ? null : credentialDetail(service, scope, uid);
    },
    'detail:openOriginal': async (uid, fileHash) => {
      if (!ctx.engine) throw new ServiceError('missing_file', 'Opening the original file needs the embedded engine; a remote service does not hand files back.');
      const scope = ctx.scope();
      const desktop = watchFolderDesktop();
      if (desktop) {
        // The desktop app: the file where it is, only after it is found to be this credential's
        // file. A file with no known path (not from a watch folder) is saved from the store.
        const roots = readWatchFolders(ctx.engine.dataDir).filter((f) => f.partnerId === scope.partner.id).map((f) => f.path);
        const path = await findOriginalOnDisk(scope, uid, fileHash, roots);
        if (path) {
          const failed = await desktop.openPath(path);
          if (failed) throw new ServiceError('missing_file', `${path} could not be opened: ${failed}`);
          return { kind: 'opened', path };
        }
      }
      const stored = await readStoredOriginal(scope, uid, fileHash);
      return { kind: 'download', fileName: stored.fileName, type: stored.type, base64: stored.bytes.toString('base64') };
    },
    'detail:revoke': async (uid, engine) => {
      const { service, scope } = current();
      await service.revokeCredential(uid, engine);
      ctx.events.emit({ type: 'counts', scopes: ['credentials'] });
      return credentialDetail(service, scope, uid);
    },
  };
}
