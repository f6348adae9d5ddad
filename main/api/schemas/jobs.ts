/** Route schemas of the Jobs endpoints. */
import { JOB_STATUSES } from '../../../common/wire-types.js';
import { ref } from './components.js';
import { TAG_FILTERS, tagWriteRoutes, dateFilter, envelope, paginationParams, pathParams, query, type RouteSchema } from './common.js';

const JOBS = ['Jobs'];

const JOB_SORT = ['status', 'chain', 'created_date', 'start_date', 'issued_date', 'ready_date', 'failed_date'];

export const listJobs: RouteSchema = {
  operationId: 'listJobs',
  summary: 'List jobs',
  tags: JOBS,
  querystring: query({
    uid: { type: 'string', format: 'uuid', description: 'Jobs that contain this credential' },
    status: { type: 'string', enum: [...JOB_STATUSES] },
    start_date_from: dateFilter('Started at or after'),
    start_date_until: dateFilter('Started up to'),
    issued_date_from: dateFilter('Issued at or after'),
    issued_date_until: dateFilter('Issued up to'),
    created_date_from: dateFilter('Created at or after'),
    created_date_until: dateFilter('Created up to'),
    ...TAG_FILTERS,
    ...paginationParams(JOB_SORT, 'created_date'),
  }),
  response: { 200: envelope(ref('JobPage'), 'A page of jobs') },
  errors: ['wrong_pagination_argument', 'invalid_value'],
};

export const getJob: RouteSchema = {
  operationId: 'getJob',
  summary: 'Get a job',
  tags: JOBS,
  params: pathParams({ uid: 'The job uid' }),
  response: { 200: envelope(ref('Job'), 'The job') },
  errors: ['missing_job'],
};

const jobTagRoutes = tagWriteRoutes({
  noun: 'jobs',
  uidField: 'job_uid',
  operationIds: ['addJobTags', 'replaceJobTags'],
  tags: JOBS,
  missing: { add: 'missing_job', replace: 'missing_job' },
});
export const addJobTags = jobTagRoutes.add;
export const replaceJobTags = jobTagRoutes.replace;

export const listJobCredentials: RouteSchema = {
  operationId: 'listJobCredentials',
  summary: 'List the credentials of a job',
  tags: JOBS,
  params: pathParams({ uid: 'The job uid' }),
  querystring: query({ ...TAG_FILTERS, ...paginationParams(JOB_SORT, 'created_date') }),
  response: { 200: envelope(ref('CredentialPage'), 'A page of credentials') },
  errors: ['missing_job', 'wrong_pagination_argument', 'invalid_value'],
};

export const listJobCertificates: RouteSchema = {
  operationId: 'listJobCertificates',
  summary: 'List the certificates of a job',
  tags: JOBS,
  params: pathParams({ uid: 'The job uid' }),
  querystring: query({ ...TAG_FILTERS, ...paginationParams(['issued_date', 'chain'], 'issued_date') }),
  response: { 200: envelope(ref('CertificatePage'), 'A page of certificates') },
  errors: ['missing_job', 'wrong_pagination_argument', 'invalid_value'],
};

export const issueJobNow: RouteSchema = {
  operationId: 'issueJobNow',
  summary: 'Issue the scheduled job of an engine now (demo environment only)',
  description: "Answers once the transaction is sent (the job is `started`, or `unconfirmed` when already mined). Only on a server started as demo, and only on demo engines.",
  tags: JOBS,
  body: { type: 'object', additionalProperties: false, required: ['engine'], properties: { engine: { type: 'string' } } },
  response: { 201: envelope(ref('Job'), 'The job') },
  errors: ['no_json', 'missing_field', 'invalid_value', 'wrong_blockchain_engine', 'missing_job', 'empty_credential_list', 'insufficient_funds', 'try_again_later'],
};
