/**
 * "Which credential is this?" names what the spec's verify by file (POST /verify/upload/file)
 * verified: its results carry the six steps but not which certificate each is. This lists the
 * same certificates, in the same order (certificate id, ascending), with their titles.
 */
import { cached } from '../list-query.js';
import type { PartnerScope } from '../scope.js';

export interface CertificateOfFile {
  certificate_uid: string;
  credential_uid: string;
  title: string;
}

/** The Partner's issued certificates whose credential holds a file with this SHA-256 (hex). */
export function certificatesOfFile(scope: PartnerScope, fileHash: string): CertificateOfFile[] {
  return cached(
    scope.db,
    `SELECT c.uid AS certificate_uid, cr.uid AS credential_uid, cr.title AS title
     FROM certificates c JOIN jobs j ON j.id = c.job_id JOIN credentials cr ON cr.id = c.credential_id
     JOIN credential_files cf ON cf.credential_id = c.credential_id JOIN files f ON f.id = cf.file_id
     WHERE c.partner_id = ? AND f.file_hash = ? AND j.status IN ('unconfirmed', 'finished') ORDER BY c.id`,
  ).all(scope.partner.id, fileHash) as CertificateOfFile[];
}
