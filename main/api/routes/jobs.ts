/** Jobs: list, get, tags, their credentials and certificates, immediate issuing (demo only). */
import type { IssueNowBody, JobTagsBody } from '../../../common/requests.js';
import { ref } from '../../../common/schemas/primitives.js';
import { IssueNowBodySchema, JobCertificatesQuerySchema, JobCredentialsQuerySchema, JobQuerySchema, JobTagsBodySchema } from '../../../common/schemas/requests.js';
import { CertificatePageSchema, CredentialPageSchema, JobPageSchema, JobSchema } from '../../../common/schemas/resources.js';
import { TAG_WRITE_ERRORS } from './credentials.js';
import { NO_CONTENT, envelope, pathParams, endpoints } from './route.js';

export const jobRoutes = endpoints('Jobs', [
  {
    method: 'GET',
    url: '/jobs',
    operationId: 'listJobs',
    summary: 'List jobs',
    querystring: JobQuerySchema,
    response: { 200: envelope(ref(JobPageSchema), 'A page of jobs') },
    errors: ['wrong_pagination_argument', 'invalid_value'],
    handle: (request) => request.service.listJobs(request.query),
  },
  {
    method: 'POST',
    url: '/jobs/immediate',
    operationId: 'issueJobNow',
    summary: 'Issue the scheduled job of an engine now (demo environment only)',
    description:
      'Answers once the transaction is sent (the job is `started`, or `unconfirmed` when already mined). Only on a server started as demo, and only on demo engines.',
    body: IssueNowBodySchema,
    response: { 201: envelope(ref(JobSchema), 'The job') },
    errors: ['no_json', 'missing_field', 'invalid_value', 'wrong_blockchain_engine', 'missing_job', 'empty_credential_list', 'insufficient_funds', 'try_again_later'],
    demoOnly: 'Immediate issuing is available on the demo environment only; this server runs as live',
    handle: (request) => request.service.issueJobNow(request.body as IssueNowBody),
  },
  {
    method: 'GET',
    url: '/jobs/:uid',
    operationId: 'getJob',
    summary: 'Get a job',
    params: pathParams({ uid: 'The job uid' }),
    response: { 200: envelope(ref(JobSchema), 'The job') },
    errors: ['missing_job'],
    handle: (request) => request.service.getJob(request.params.uid!),
  },
  {
    method: 'PATCH',
    url: '/jobs',
    operationId: 'addJobTags',
    summary: 'Add tags to jobs',
    description: 'Existing tags are kept. All or nothing: one bad entry changes nothing.',
    body: JobTagsBodySchema,
    response: { 200: NO_CONTENT },
    errors: [...TAG_WRITE_ERRORS, 'missing_job'],
    handle: (request) => request.service.addJobTags(request.body as JobTagsBody),
  },
  {
    method: 'PUT',
    url: '/jobs',
    operationId: 'replaceJobTags',
    summary: 'Replace the tags of jobs',
    description: 'Old tags are deleted. All or nothing.',
    body: JobTagsBodySchema,
    response: { 200: NO_CONTENT },
    errors: [...TAG_WRITE_ERRORS, 'missing_job'],
    handle: (request) => request.service.replaceJobTags(request.body as JobTagsBody),
  },
  {
    method: 'GET',
    url: '/jobs/:uid/credentials',
    operationId: 'listJobCredentials',
    summary: 'List the credentials of a job',
    params: pathParams({ uid: 'The job uid' }),
    querystring: JobCredentialsQuerySchema,
    response: { 200: envelope(ref(CredentialPageSchema), 'A page of credentials') },
    errors: ['missing_job', 'wrong_pagination_argument', 'invalid_value'],
    handle: (request) => request.service.listJobCredentials(request.params.uid!, request.query),
  },
  {
    method: 'GET',
    url: '/jobs/:uid/certificates',
    operationId: 'listJobCertificates',
    summary: 'List the certificates of a job',
    params: pathParams({ uid: 'The job uid' }),
    querystring: JobCertificatesQuerySchema,
    response: { 200: envelope(ref(CertificatePageSchema), 'A page of certificates') },
    errors: ['missing_job', 'wrong_pagination_argument', 'invalid_value'],
    handle: (request) => request.service.listJobCertificates(request.params.uid!, request.query),
  },
]);
