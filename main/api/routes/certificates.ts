/** Certificates (list, proof file download, revoke) and verification (by uid, credential, proof file, original file). */
import { Type } from '@sinclair/typebox';
import { ServiceError } from '../../../common/errors.js';
import { certificateFileName } from '../../../common/wire-types.js';
import { ref } from '../../../common/schemas/primitives.js';
import { CertificateQuerySchema, VerificationQuerySchema } from '../../../common/schemas/requests.js';
import { CertificatePageSchema, ProofFileSchema, RevokeResultSchema, VerificationResultPageSchema, VerificationResultSchema } from '../../../common/schemas/resources.js';
import { withForm } from '../multipart.js';
import { envelope, form, pathParams, endpoints } from './route.js';

/** The `format` of a download (a Proofdesk extension): `proof` (default) or `vc`; anything else is invalid_value. */
function downloadFormat(format: unknown): 'proof' | 'vc' {
  if (format === undefined || format === '' || format === 'proof') return 'proof';
  if (format === 'vc') return 'vc';
  throw new ServiceError('invalid_value', `Query parameter "format" must be "proof" or "vc", not ${JSON.stringify(String(format).slice(0, 100))}`);
}

const certificates = endpoints('Certificates', [
  {
    method: 'GET',
    url: '/certificates',
    operationId: 'listCertificates',
    summary: 'List certificates',
    querystring: CertificateQuerySchema,
    response: { 200: envelope(ref(CertificatePageSchema), 'A page of certificates') },
    errors: ['wrong_pagination_argument', 'invalid_value'],
    handle: (request) => request.service.listCertificates(request.query),
  },
  {
    method: 'GET',
    url: '/certificates/:uid/download',
    operationId: 'downloadCertificate',
    summary: 'Download the proof file of a certificate',
    description:
      'The answer is the proof file itself (not wrapped in the envelope), as an attachment. Errors use the usual error body. Proofdesk extension: `format=vc` answers the certificate as a W3C Verifiable Credential 2.0 (Open Badges 3.0 OpenBadgeCredential) instead.',
    params: pathParams({ uid: 'The certificate uid' }),
    querystring: Type.Object({
      format: Type.Optional(
        Type.Unsafe<'proof' | 'vc'>({ type: 'string', enum: ['proof', 'vc'], default: 'proof', description: '`proof` (default): the proof file; `vc`: the Verifiable Credential' }),
      ),
    }),
    response: { 200: Type.Unsafe({ ...ref(ProofFileSchema), description: 'The proof file, or with format=vc the Verifiable Credential (application/json)' }) },
    errors: ['missing_certificate', 'invalid_value'],
    // `format=vc`: the Verifiable Credential instead of the proof file.
    handle: (request) => (downloadFormat(request.query.format) === 'vc' ? request.service.downloadCertificateVc(request.params.uid!) : request.service.downloadCertificate(request.params.uid!)),
    // The spec's "text file with the certificate JSON": the proof file itself, byte for byte.
    reply: (reply, proof, request) =>
      reply
        .code(200)
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${certificateFileName(request.params.uid!, request.query.format === 'vc' ? 'vc' : 'proof')}"`)
        .send(proof as string),
  },
  {
    method: 'POST',
    url: '/certificates/:uid/revoke',
    operationId: 'revokeCertificate',
    summary: 'Revoke a certificate',
    description: 'Answers once the revocation transaction is mined.',
    params: pathParams({ uid: 'The certificate uid' }),
    response: { 200: envelope(ref(RevokeResultSchema), 'The revocation date') },
    errors: ['missing_certificate', 'unconfirmed_certificate_transaction', 'certificate_already_revoked', 'wrong_blockchain_engine', 'try_again_later'],
    handle: (request) => request.service.revokeCertificate(request.params.uid!),
  },
]);

const verification = endpoints('Verification', [
  {
    method: 'GET',
    url: '/verify/:certificate_uid',
    operationId: 'verifyCertificate',
    summary: 'Verify a certificate',
    params: pathParams({ certificate_uid: 'The certificate uid' }),
    response: { 200: envelope(ref(VerificationResultSchema), 'The verification result') },
    errors: ['missing_certificate'],
    handle: (request) => request.service.verifyCertificate(request.params.certificate_uid!),
  },
  {
    method: 'GET',
    url: '/verify/credential/:credential_uid',
    operationId: 'verifyCredential',
    summary: 'Verify every certificate of a credential',
    params: pathParams({ credential_uid: 'The credential uid' }),
    querystring: VerificationQuerySchema,
    response: { 200: envelope(ref(VerificationResultPageSchema), 'A page of verification results') },
    errors: ['missing_credential', 'wrong_pagination_argument'],
    handle: (request) => request.service.verifyCredential(request.params.credential_uid!, request.query),
  },
  {
    method: 'POST',
    url: '/verify/upload/certificate',
    operationId: 'verifyProofFile',
    summary: 'Verify an uploaded proof file',
    description: "The proof is verified as uploaded; it must be one of the caller's certificates. At most 1 MiB.",
    form: form({}, ['file'], 'The proof file (JSON)'),
    response: { 200: envelope(ref(VerificationResultSchema), 'The verification result') },
    errors: ['no_file_on_payload', 'invalid_value', 'missing_certificate', 'payload_too_large'],
    handle: (request, ctx) => withForm(request, ctx, { fields: [] }, ({ file }) => request.service.verifyProofFile(file)),
  },
  {
    method: 'POST',
    url: '/verify/upload/file',
    operationId: 'verifyOriginalFile',
    summary: 'Verify every certificate of an uploaded original file',
    description: 'Hashes the upload as it streams in and verifies every issued certificate of the caller whose credential carries that hash.',
    querystring: VerificationQuerySchema,
    form: form({}, ['file'], 'The original file'),
    response: { 200: envelope(ref(VerificationResultPageSchema), 'A page of verification results') },
    errors: ['no_file_on_payload', 'invalid_value', 'missing_certificate', 'wrong_pagination_argument', 'payload_too_large'],
    handle: (request, ctx) => withForm(request, ctx, { fields: [] }, ({ file }) => request.service.verifyOriginalFile(file, request.query)),
  },
]);

export const certificateRoutes = [...certificates, ...verification];
