/** Certificates (list, proof file download, revoke) and verification (by uid, credential, proof file, original file). */
import { ServiceError } from '../../../common/errors.js';
import * as C from '../schemas/certificates.js';
import { withForm } from '../multipart.js';
import type { ApiRoute } from './route.js';

/** The `format` of a download (a Proofdesk extension): `proof` (default) or `vc`; anything else is invalid_value. */
function downloadFormat(format: unknown): 'proof' | 'vc' {
  if (format === undefined || format === '' || format === 'proof') return 'proof';
  if (format === 'vc') return 'vc';
  throw new ServiceError('invalid_value', `Query parameter "format" must be "proof" or "vc", not ${JSON.stringify(String(format).slice(0, 100))}`);
}

/** A certificate uid as a file name: anything but the uid's own characters is dropped. */
function downloadFileName(uid: string, format: unknown): string {
  return `${uid.replace(/[^A-Za-z0-9-]/g, '').slice(0, 64) || 'certificate'}.${format === 'vc' ? 'vc' : 'proof'}.json`;
}

export const certificateRoutes: ApiRoute[] = [
  { method: 'GET', url: '/certificates', schema: C.listCertificates, status: 200, handle: (request) => request.service.listCertificates(request.query) },
  {
    method: 'GET',
    url: '/certificates/:uid/download',
    schema: C.downloadCertificate,
    status: 200,
    // `format=vc`: the Verifiable Credential instead of the proof file.
    handle: (request) => (downloadFormat(request.query.format) === 'vc' ? request.service.downloadCertificateVc(request.params.uid!) : request.service.downloadCertificate(request.params.uid!)),
    // The spec's "text file with the certificate JSON": the proof file itself, byte for byte.
    reply: (reply, proof, request) =>
      reply
        .code(200)
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${downloadFileName(request.params.uid!, request.query.format)}"`)
        .send(proof as string),
  },
  {
    method: 'POST',
    url: '/certificates/:uid/revoke',
    schema: C.revokeCertificate,
    status: 200,
    handle: (request) => request.service.revokeCertificate(request.params.uid!),
  },
  {
    method: 'GET',
    url: '/verify/:certificate_uid',
    schema: C.verifyCertificate,
    status: 200,
    handle: (request) => request.service.verifyCertificate(request.params.certificate_uid!),
  },
  {
    method: 'GET',
    url: '/verify/credential/:credential_uid',
    schema: C.verifyCredential,
    status: 200,
    handle: (request) => request.service.verifyCredential(request.params.credential_uid!, request.query),
  },
  {
    method: 'POST',
    url: '/verify/upload/certificate',
    schema: C.verifyProofFile,
    body: 'multipart',
    status: 200,
    handle: (request, ctx) => withForm(request, ctx, { fields: [] }, ({ file }) => request.service.verifyProofFile(file)),
  },
  {
    method: 'POST',
    url: '/verify/upload/file',
    schema: C.verifyOriginalFile,
    body: 'multipart',
    status: 200,
    handle: (request, ctx) => withForm(request, ctx, { fields: [] }, ({ file }) => request.service.verifyOriginalFile(file, request.query)),
  },
];
