/**
 * What intake reads back from the service in bulk: which certificate each credential of a
 * finished job got (one paged query per job, never one per credential), the texts of proofs and
 * Verifiable Credentials (in bulk when the service can), and the credentials made since a time.
 * The proofs are written in rounds (proof-round.ts).
 */
import pMap from 'p-map';
import { allPages } from '../../common/all-pages.js';
import type { IssuingService } from '../../common/issuing-service.js';
import type { Credential } from '../../common/wire-types.js';

const PAGE = 1_000;
/**
 * Proofs built by one bulk call (the embedded engine builds them on this thread): the main
 * thread is never held longer than a slice's build, whatever the round's size.
 */
const BUILD_SLICE = 512;
/** Proofs or credentials downloaded at once from a service that has no bulk download (a remote one). */
const DOWNLOADS_AT_ONCE = 16;

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

/** A download's error as a value (so one failed download fails its file alone). */
function errorOf(error: unknown): unknown {
  return error ?? new Error('download failed');
}

/**
 * The proof files' texts of certificates, in order (or each one's error): in bulk when the
 * service can (a slice at a time, the event loop turning between slices), else a few downloads
 * at a time.
 */
export async function proofTexts(service: IssuingService, certificateUids: string[]): Promise<unknown[]> {
  if (!service.downloadCertificates) return pMap(certificateUids, (uid) => service.downloadCertificate(uid).catch(errorOf), { concurrency: DOWNLOADS_AT_ONCE });
  const texts: unknown[] = [];
  for (let from = 0; from < certificateUids.length; from += BUILD_SLICE) {
    if (from > 0) await new Promise((r) => setImmediate(r));
    texts.push(...(await service.downloadCertificates(certificateUids.slice(from, from + BUILD_SLICE))));
  }
  return texts;
}

/** The Verifiable Credentials of certificates, in order (or each one's error): signed together when the service can. */
export async function credentialTexts(service: IssuingService, certificateUids: string[]): Promise<unknown[]> {
  if (service.downloadCertificateVcs) return service.downloadCertificateVcs(certificateUids);
  return pMap(certificateUids, (uid) => service.downloadCertificateVc(uid).catch(errorOf), { concurrency: DOWNLOADS_AT_ONCE });
}

/** The Partner's credentials uploaded since `since` (epoch ms), by the keys `keysOf` gives each (one listing, not one per file). */
export async function credentialsSince(service: IssuingService, since: number, keysOf: (credential: Credential) => string[]): Promise<Map<string, Credential[]>> {
  const byKey = new Map<string, Credential[]>();
  for await (const result of allPages((page) => service.listCredentials({ upload_date_from: new Date(since).toISOString(), per_page: 500, page }))) {
    for (const credential of result.items) {
      for (const key of keysOf(credential)) {
        const list = byKey.get(key);
        if (list) list.push(credential);
        else byKey.set(key, [credential]);
      }
    }
  }
  return byKey;
}
