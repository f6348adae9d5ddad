/**
 * Proofs for intake, per job: which certificate each credential of a finished job got is read
 * with one paged query per job (never one per credential); their texts are built in bulk
 * (proofTextsOf) and written in rounds (proof-round.ts).
 */
import pMap from 'p-map';
import { allPages } from '../../common/all-pages.js';
import type { ServiceError } from '../../common/errors.js';
import type { IssuingService } from '../../common/issuing-service.js';

const PAGE = 1_000;
/**
 * Proofs built by one bulk call (the embedded engine builds them on the calling thread): the
 * thread is never held longer than a slice's build, whatever the number of proofs.
 */
const BUILD_SLICE = 512;
/** Proofs downloaded at once from a service that has no bulk download (a remote one). */
const DOWNLOADS_AT_ONCE = 16;

/**
 * The proof files' texts of certificates, in order (or each one's error): in bulk when the
 * service can (a slice per call, one read of the rows and one activity entry per slice, the
 * event loop turning between slices), else a few downloads at a time.
 */
export async function proofTextsOf(service: IssuingService, certificateUids: string[]): Promise<(string | ServiceError | unknown)[]> {
  if (service.downloadCertificates) {
    const texts: (string | ServiceError)[] = [];
    for (let from = 0; from < certificateUids.length; from += BUILD_SLICE) {
      if (from > 0) await new Promise((r) => setImmediate(r));
      texts.push(...(await service.downloadCertificates(certificateUids.slice(from, from + BUILD_SLICE))));
    }
    return texts;
  }
  return pMap(certificateUids, (uid) => service.downloadCertificate(uid).catch((error: unknown) => (error === undefined ? new Error('download failed') : error)), { concurrency: DOWNLOADS_AT_ONCE });
}

/** A finished job's certificates: credential uid → certificate uid (in one call from a service that can). */
export async function certificatesOfJob(service: IssuingService, jobUid: string): Promise<Map<string, string>> {
  if (service.jobCertificateUids) return service.jobCertificateUids(jobUid);
  const byCredential = new Map<string, string>();
  for await (const result of allPages((page) => service.listJobCertificates(jobUid, { per_page: PAGE, page }))) {
    for (const c of result.items) byCredential.set(c.certificate.credential.uid, c.certificate.uid);
  }
  return byCredential;
}

/** A failed job's credential uids (its certificates are gone; the credentials were released). */
export async function credentialsOfJob(service: IssuingService, jobUid: string): Promise<Set<string>> {
  const uids = new Set<string>();
  for await (const result of allPages((page) => service.listJobCredentials(jobUid, { per_page: PAGE, page }))) {
    for (const c of result.items) uids.add(c.uid);
  }
  return uids;
}
