/** Route schemas of the Certificates and Verification endpoints. */
import { VERIFICATION_STATUSES } from '../../../common/wire-types.js';
import { ref } from './components.js';
import { dateFilter, envelope, form, paginationParams, pathParams, query, tagFilter, type RouteSchema } from './common.js';

const CERTS = ['Certificates'];
const VERIFY = ['Verification'];

export const listCertificates: RouteSchema = {
  operationId: 'listCertificates',
  summary: 'List certificates',
  tags: CERTS,
  querystring: query({
    uid: { type: 'string', format: 'uuid', description: 'Only this certificate' },
    job_uid: { type: 'string', format: 'uuid', description: 'Certificates of this job' },
    credential_uid: { type: 'string', format: 'uuid', description: 'Certificates of this credential' },
    issued_date_from: dateFilter('Issued at or after'),
    issued_date_until: dateFilter('Issued up to'),
    verification_status: { type: 'string', enum: [...VERIFICATION_STATUSES], description: 'Status of the latest verification' },
    and_credential_tags: tagFilter('Certificates whose credential carries all of these tags'),
    or_credential_tags: tagFilter('Certificates whose credential carries at least one of these tags'),
    and_job_tags: tagFilter('Certificates whose job carries all of these tags'),
    or_job_tags: tagFilter('Certificates whose job carries at least one of these tags'),
    ...paginationParams(['issued_date', 'chain'], 'issued_date'),
  }),
  response: { 200: envelope(ref('CertificatePage'), 'A page of certificates') },
  errors: ['wrong_pagination_argument', 'invalid_value'],
};

export const downloadCertificate: RouteSchema = {
  operationId: 'downloadCertificate',
  summary: 'Download the proof file of a certificate',
  description:
    'The answer is the proof file itself (not wrapped in the envelope), as an attachment. Errors use the usual error body. Proofdesk extension: `format=vc` answers the certificate as a W3C Verifiable Credential 2.0 (Open Badges 3.0 OpenBadgeCredential) instead.',
  tags: CERTS,
  params: pathParams({ uid: 'The certificate uid' }),
  querystring: query({ format: { type: 'string', enum: ['proof', 'vc'], description: '`proof` (default): the proof file; `vc`: the Verifiable Credential' } }),
  response: { 200: { ...ref('ProofFile'), description: 'The proof file, or with format=vc the Verifiable Credential (application/json)' } },
  errors: ['missing_certificate', 'invalid_value'],
};

export const revokeCertificate: RouteSchema = {
  operationId: 'revokeCertificate',
  summary: 'Revoke a certificate',
  description: 'Answers once the revocation transaction is mined.',
  tags: CERTS,
  params: pathParams({ uid: 'The certificate uid' }),
  response: { 200: envelope(ref('RevokeResult'), 'The revocation date') },
  errors: ['missing_certificate', 'unconfirmed_certificate_transaction', 'certificate_already_revoked', 'try_again_later'],
};

export const verifyCertificate: RouteSchema = {
  operationId: 'verifyCertificate',
  summary: 'Verify a certificate',
  tags: VERIFY,
  params: pathParams({ certificate_uid: 'The certificate uid' }),
  response: { 200: envelope(ref('VerificationResult'), 'The verification result') },
  errors: ['missing_certificate'],
};

export const verifyCredential: RouteSchema = {
  operationId: 'verifyCredential',
  summary: 'Verify every certificate of a credential',
  tags: VERIFY,
  params: pathParams({ credential_uid: 'The credential uid' }),
  querystring: query(paginationParams(['issued_date'], 'issued_date')),
  response: { 200: envelope(ref('VerificationResultPage'), 'A page of verification results') },
  errors: ['missing_credential', 'wrong_pagination_argument'],
};

export const verifyProofFile: RouteSchema = {
  operationId: 'verifyProofFile',
  summary: 'Verify an uploaded proof file',
  description: "The proof is verified as uploaded; it must be one of the caller's certificates. At most 1 MiB.",
  tags: VERIFY,
  consumes: 'multipart/form-data',
  body: form({}, ['file'], 'The proof file (JSON)'),
  response: { 200: envelope(ref('VerificationResult'), 'The verification result') },
  errors: ['no_file_on_payload', 'invalid_value', 'missing_certificate', 'payload_too_large'],
};

export const verifyOriginalFile: RouteSchema = {
  operationId: 'verifyOriginalFile',
  summary: 'Verify every certificate of an uploaded original file',
  description: "Hashes the upload as it streams in and verifies every issued certificate of the caller whose credential carries that hash.",
  tags: VERIFY,
  consumes: 'multipart/form-data',
  querystring: query(paginationParams(['issued_date'], 'issued_date')),
  body: form({}, ['file'], 'The original file'),
  response: { 200: envelope(ref('VerificationResultPage'), 'A page of verification results') },
  errors: ['no_file_on_payload', 'invalid_value', 'missing_certificate', 'wrong_pagination_argument', 'payload_too_large'],
};
