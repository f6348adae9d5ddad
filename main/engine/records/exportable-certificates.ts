/** The issued certificates a proof export writes: those of a job, or of some credentials. */
import { jobIdOf } from '../jobs.js';
import { cached } from '../list-query.js';
import type { PartnerScope } from '../scope.js';
import { jsonIdList } from '../store/dialect.js';

/** A certificate is exportable once its transaction is mined (as GET /certificates lists them). */
const ISSUED = "j.status IN ('unconfirmed', 'finished')";

export interface ExportableCertificate {
  uid: string;
  title: string;
}

/** The issued certificates of a job in leaf order, and how many of its credentials have none. */
export function exportableOfJob(scope: PartnerScope, jobUid: string): { certificates: ExportableCertificate[]; withoutCertificate: number } {
  const { db } = scope;
  const jobId = jobIdOf(scope, jobUid);
  const certificates = cached(
    db,
    `SELECT c.uid, cr.title FROM certificates c JOIN jobs j ON j.id = c.job_id JOIN credentials cr ON cr.id = c.credential_id
     WHERE c.job_id = ? AND ${ISSUED} ORDER BY c.leaf_index`,
  ).all(jobId) as ExportableCertificate[];
  const carried = cached(db, 'SELECT count(*) FROM job_credentials WHERE job_id = ?').pluck().get(jobId) as number;
  return { certificates, withoutCertificate: carried - certificates.length };
}

/**
 * The issued certificates of these credential row ids (on one engine, or all), and how many of
 * the credentials have none.
 */
export function exportableOfCredentials(scope: PartnerScope, ids: readonly number[], engine: string | undefined): { certificates: ExportableCertificate[]; withoutCertificate: number } {
  const certificates = cached(
    scope.db,
    `SELECT c.uid, cr.title, c.credential_id FROM certificates c JOIN jobs j ON j.id = c.job_id JOIN credentials cr ON cr.id = c.credential_id
     WHERE c.credential_id IN (${jsonIdList(scope.db)}) AND ${ISSUED} AND (CAST(? AS text) IS NULL OR c.engine = ?) ORDER BY c.credential_id, c.engine`,
  ).all(JSON.stringify(ids), engine ?? null, engine ?? null) as (ExportableCertificate & { credential_id: number })[];
  const withCertificate = new Set(certificates.map((c) => c.credential_id));
  return { certificates, withoutCertificate: ids.length - withCertificate.size };
}
