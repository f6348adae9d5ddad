import canonicalize from 'canonicalize';
import { ServiceError } from '../../common/errors.js';
import { makePage, parsePageQuery } from '../../common/pagination.js';
import type { PageQuery, UploadSource } from '../../common/requests.js';
import type { Page, VerificationResult } from '../../common/wire-types.js';
import { buildProofFile, certificateIdsOfCredential, certificateRow, recordVerification, type CertificateRow } from './certificates.js';
import { hashSource, openSource } from './file-store.js';
import { cached } from './list-query.js';
import { verifyProof } from './proofs/verify-proof.js';
import { credentialIdOf } from './scheduling.js';
import type { PartnerScope } from './scope.js';

/** A proof file is small; anything larger is not one. */
const MAX_PROOF_BYTES = 1024 * 1024;

async function verifyRow(scope: PartnerScope, row: CertificateRow, originalFileHash?: string): Promise<VerificationResult> {
  const result = await verifyProof(buildProofFile(scope, row), scope.issuing.verifyOptions(originalFileHash));
  recordVerification(scope, row.id, result.result.status, Date.parse(result.result.timestamp));
  return result;
}

function rowsByIds(scope: PartnerScope, ids: number[]): CertificateRow[] {
  const uids = ids.map((id) => cached(scope.db, 'SELECT uid FROM certificates WHERE id = ?').pluck().get(id) as string);
  return uids.map((uid) => certificateRow(scope, uid));
}

async function verifyPage(scope: PartnerScope, ids: number[], query: PageQuery | undefined, originalFileHash?: string): Promise<Page<VerificationResult>> {
  const page = parsePageQuery(query, ['issued_date'], 'issued_date');
  const ordered = page.order === 'desc' ? [...ids].reverse() : ids;
  const slice = page.perPage === 0 ? (page.page === 1 ? ordered : []) : ordered.slice((page.page - 1) * page.perPage, page.page * page.perPage);
  const results: VerificationResult[] = [];
  for (const row of rowsByIds(scope, slice)) results.push(await verifyRow(scope, row, originalFileHash));
  return makePage(page, ids.length, results);
}

/** GET /verify/<certificate_uid> */
export function verifyCertificate(scope: PartnerScope, uid: string): Promise<VerificationResult> {
  return verifyRow(scope, certificateRow(scope, uid));
}

/** GET /verify/credential/<credential_uid>: every certificate of the credential (one per engine). */
export function verifyCredential(scope: PartnerScope, uid: string, query: PageQuery | undefined): Promise<Page<VerificationResult>> {
  return verifyPage(scope, certificateIdsOfCredential(scope, credentialIdOf(scope, uid)), query);
}

/**
 * POST /verify/upload/certificate: the uploaded proof file is verified as it is (a tampered one
 * fails at its step); it must be one of the Partner's certificates.
 *
 * Only a verification of the stored certificate changes its `last_verification`: here, an
 * upload whose content is the stored proof's (the same JSON value, compared in RFC 8785
 * canonical form, so layout and key order do not matter). Anyone holding a proof could
 * otherwise mark the issuer's certificate failed by uploading a forged copy (docs/api.md).
 */
export async function verifyUploadedProof(scope: PartnerScope, source: UploadSource | undefined): Promise<VerificationResult> {
  if (!source) throw new ServiceError('no_file_on_payload', 'No proof file in the request');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of openSource(source)) {
    size += (chunk as Buffer).length;
    if (size > MAX_PROOF_BYTES) throw new ServiceError('invalid_value', `A proof file is at most ${MAX_PROOF_BYTES} bytes; this is not one`);
    chunks.push(chunk as Buffer);
  }
  let proof: unknown;
  try {
    proof = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ServiceError('invalid_value', 'The uploaded file is not a proof file (not JSON)');
  }
  const uid = (proof as { certificate?: { uid?: unknown } } | null)?.certificate?.uid;
  const row = certificateRow(scope, typeof uid === 'string' ? uid : '');
  const result = await verifyProof(proof, scope.issuing.verifyOptions());
  if (canonicalize(proof) === canonicalize(buildProofFile(scope, row))) {
    recordVerification(scope, row.id, result.result.status, Date.parse(result.result.timestamp));
  }
  return result;
}

/**
 * POST /verify/upload/file: every issued certificate of the Partner whose credential carries
 * the uploaded file's hash; `missing_certificate` when there is none.
 */
export async function verifyUploadedFile(scope: PartnerScope, source: UploadSource | undefined, query: PageQuery | undefined): Promise<Page<VerificationResult>> {
  // The query first: a bad one is refused before the file is read, whatever the file holds.
  parsePageQuery(query, ['issued_date'], 'issued_date');
  if (!source) throw new ServiceError('no_file_on_payload', 'No file in the request');
  const { hash } = await hashSource(source);
  const ids = cached(
    scope.db,
    `SELECT c.id FROM certificates c JOIN jobs j ON j.id = c.job_id
     JOIN credential_files cf ON cf.credential_id = c.credential_id JOIN files f ON f.id = cf.file_id
     WHERE c.partner_id = ? AND f.file_hash = ? AND j.status IN ('unconfirmed', 'finished') ORDER BY c.id`,
  )
    .pluck()
    .all(scope.partner.id, hash) as number[];
  if (ids.length === 0) throw new ServiceError('missing_certificate', 'No issued certificate carries this file');
  return verifyPage(scope, ids, query, hash);
}
