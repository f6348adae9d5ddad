/**
 * Proofs for intake, per job: which certificate each credential of a finished job got is read
 * with one paged query per job (never one per credential); their proofs are written in rounds
 * (proof-round.ts).
 */
import { allPages } from '../../common/all-pages.js';
import type { IssuingService } from '../../common/issuing-service.js';

const PAGE = 1_000;

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
