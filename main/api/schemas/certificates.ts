/** Route schemas of the Certificates and Verification endpoints. */
import { Type } from '@sinclair/typebox';
import { ref } from '../../../common/schemas/primitives.js';
import { CertificateQuerySchema, VerificationQuerySchema } from '../../../common/schemas/requests.js';
import { CertificatePageSchema, ProofFileSchema, RevokeResultSchema, VerificationResultPageSchema, VerificationResultSchema } from '../../../common/schemas/resources.js';
import { envelope, form, pathParams, route } from './common.js';

const CERTS = ['Certificates'];
const VERIFY = ['Verification'];

export const listCertificates = route({
  operationId: 'listCertificates',
  summary: 'List certificates',
  tags: CERTS,
  querystring: CertificateQuerySchema,
  response: { 200: envelope(ref(CertificatePageSchema), 'A page of certificates') },
  errors: ['wrong_pagination_argument', 'invalid_value'],
});

export const downloadCertificate = route({
  operationId: 'downloadCertificate',
  summary: 'Download the proof file of a certificate',
  description:
    'The answer is the proof file itself (not wrapped in the envelope), as an attachment. Errors use the usual error body. Proofdesk extension: `format=vc` answers the certificate as a W3C Verifiable Credential 2.0 (Open Badges 3.0 OpenBadgeCredential) instead.',
  tags: CERTS,
  params: pathParams({ uid: 'The certificate uid' }),
  querystring: Type.Object({
    format: Type.Optional(
      Type.Unsafe<'proof' | 'vc'>({ type: 'string', enum: ['proof', 'vc'], default: 'proof', description: '`proof` (default): the proof file; `vc`: the Verifiable Credential' }),
    ),
  }),
  response: { 200: Type.Unsafe({ ...ref(ProofFileSchema), description: 'The proof file, or with format=vc the Verifiable Credential (application/json)' }) },
  errors: ['missing_certificate', 'invalid_value'],
});

export const revokeCertificate = route({
  operationId: 'revokeCertificate',
  summary: 'Revoke a certificate',
  description: 'Answers once the revocation transaction is mined.',
  tags: CERTS,
  params: pathParams({ uid: 'The certificate uid' }),
  response: { 200: envelope(ref(RevokeResultSchema), 'The revocation date') },
  errors: ['missing_certificate', 'unconfirmed_certificate_transaction', 'certificate_already_revoked', 'wrong_blockchain_engine', 'try_again_later'],
});

export const verifyCertificate = route({
  operationId: 'verifyCertificate',
  summary: 'Verify a certificate',
  tags: VERIFY,
  params: pathParams({ certificate_uid: 'The certificate uid' }),
  response: { 200: envelope(ref(VerificationResultSchema), 'The verification result') },
  errors: ['missing_certificate'],
});

export const verifyCredential = route({
  operationId: 'verifyCredential',
  summary: 'Verify every certificate of a credential',
  tags: VERIFY,
  params: pathParams({ credential_uid: 'The credential uid' }),
  querystring: VerificationQuerySchema,
  response: { 200: envelope(ref(VerificationResultPageSchema), 'A page of verification results') },
  errors: ['missing_credential', 'wrong_pagination_argument'],
});

export const verifyProofFile = route({
  operationId: 'verifyProofFile',
  summary: 'Verify an uploaded proof file',
  description: "The proof is verified as uploaded; it must be one of the caller's certificates. At most 1 MiB.",
  tags: VERIFY,
  form: form({}, ['file'], 'The proof file (JSON)'),
  response: { 200: envelope(ref(VerificationResultSchema), 'The verification result') },
  errors: ['no_file_on_payload', 'invalid_value', 'missing_certificate', 'payload_too_large'],
});

export const verifyOriginalFile = route({
  operationId: 'verifyOriginalFile',
  summary: 'Verify every certificate of an uploaded original file',
  description: 'Hashes the upload as it streams in and verifies every issued certificate of the caller whose credential carries that hash.',
  tags: VERIFY,
  querystring: VerificationQuerySchema,
  form: form({}, ['file'], 'The original file'),
  response: { 200: envelope(ref(VerificationResultPageSchema), 'A page of verification results') },
  errors: ['no_file_on_payload', 'invalid_value', 'missing_certificate', 'wrong_pagination_argument', 'payload_too_large'],
});
