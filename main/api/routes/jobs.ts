/** Jobs: list, get, tags, their credentials and certificates, immediate issuing (demo only). */
import type { IssueNowBody, JobTagsBody } from '../../../common/requests.js';
import * as S from '../schemas/jobs.js';
import type { ApiRoute } from './route.js';

export const jobRoutes: ApiRoute[] = [
  { method: 'GET', url: '/jobs', schema: S.listJobs, status: 200, handle: (request) => request.service.listJobs(request.query) },
  {
    method: 'POST',
    url: '/jobs/immediate',
    schema: S.issueJobNow,
    body: 'json',
    status: 201,
    demoOnly: 'Immediate issuing is available on the demo environment only; this server runs as live',
    handle: (request) => request.service.issueJobNow(request.body as IssueNowBody),
  },
  { method: 'GET', url: '/jobs/:uid', schema: S.getJob, status: 200, handle: (request) => request.service.getJob(request.params.uid!) },
  { method: 'PATCH', url: '/jobs', schema: S.addJobTags, body: 'json', status: 200, handle: (request) => request.service.addJobTags(request.body as JobTagsBody) },
  { method: 'PUT', url: '/jobs', schema: S.replaceJobTags, body: 'json', status: 200, handle: (request) => request.service.replaceJobTags(request.body as JobTagsBody) },
  {
    method: 'GET',
    url: '/jobs/:uid/credentials',
    schema: S.listJobCredentials,
    status: 200,
    handle: (request) => request.service.listJobCredentials(request.params.uid!, request.query),
  },
  {
    method: 'GET',
    url: '/jobs/:uid/certificates',
    schema: S.listJobCertificates,
    status: 200,
    handle: (request) => request.service.listJobCertificates(request.params.uid!, request.query),
  },
];
