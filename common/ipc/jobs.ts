/**
 * The IPC slice of the Jobs view: jobs by status, a job's detail, job tags, issue now (demo
 * engines), the Partner's next issuing date, and exporting proofs to a folder as a task.
 */
import { ServiceError } from '../errors.js';
import { validateSelection, type ProofExportFormat, type ProofExportRequest, type ProofExportResult } from '../records.js';
import type { TaskInfo } from '../tasks.js';
import { validateTags } from '../validate.js';
import { JOB_STATUSES, type Certificate, type Credential, type Job, type JobStatus } from '../wire-types.js';
import { expectArgCount, expectInteger, expectObject, expectOneOf, expectString, type IpcValidators } from './slice.js';

/** The spec's sort_by values of GET /jobs (`ready_date` is the finished date); absent: newest first. */
export const JOB_SORT_FIELDS = ['created_date', 'status', 'chain', 'start_date', 'issued_date', 'ready_date', 'failed_date'] as const;
export type JobSortField = (typeof JOB_SORT_FIELDS)[number];
export interface JobSort {
  by: JobSortField;
  order: 'asc' | 'desc';
}
export const DEFAULT_JOB_SORT: JobSort = { by: 'created_date', order: 'desc' };

export interface JobListRequest {
  /** All statuses when absent. */
  status?: JobStatus;
  /** Sorted in the service, as GET /jobs allows; newest first when absent. */
  sort?: JobSort;
  offset: number;
  limit: number;
}

/** What the Jobs table says of a job beside the spec's fields. */
export interface JobSummary {
  /** Credentials the job carries (as GET /jobs/<uid>/credentials lists them). */
  credentials: number;
  /** The titles of its first credentials, in creation order: its name when it has no tags. */
  titles: string[];
  /** An unconfirmed job's progress towards final, as last seen on its chain; null otherwise. */
  finality: { confirmations: number; required: number | null } | null;
}

export interface JobWindow {
  offset: number;
  total: number;
  rows: Job[];
  /** Each row's summary by job uid. */
  summaries: Record<string, JobSummary>;
  /** Jobs per status, for the status filter's counts. */
  counts: Record<JobStatus, number>;
}

/** What the job detail shows. Credentials and certificates are the first page of each. */
export interface JobDetail {
  job: Job;
  credentials: { total: number; items: Credential[] };
  certificates: { total: number; items: Certificate[] };
  /** The anchoring transaction, when the job has one, and its link on the engine's explorer. */
  transaction: { id: string; explorerUrl: string | null } | null;
  /** True on demo engines, where `Issue now` is allowed. */
  demo: boolean;
}

/** When the Partner's next issuing happens. */
export interface NextIssuing {
  /** ISO 8601: the earliest due date of a scheduled job; null when nothing is scheduled. */
  nextIssuingDate: string | null;
  /** The Partner's issuing interval: a job opened now is due this many seconds later. */
  intervalSeconds: number | null;
}

export interface JobsIpc {
  'jobs:list': { args: [request: JobListRequest]; result: JobWindow };
  'jobs:get': { args: [jobUid: string]; result: JobDetail };
  'jobs:addTags': { args: [jobUid: string, tags: string[]]; result: Job };
  'jobs:replaceTags': { args: [jobUid: string, tags: string[]]; result: Job };
  /** Issues the engine's scheduled job now (demo engines only). */
  'jobs:issueNow': { args: [engine: string]; result: Job };
  'jobs:nextIssuing': { args: []; result: NextIssuing };
  /** Writes one NAME.proof.json per certificate of a job or selection into a folder; answers the task. */
  'jobs:exportProofs': { args: [request: ProofExportRequest]; result: TaskInfo<ProofExportResult> };
}

const MAX_JOB_WINDOW = 500;

function uidArg(value: unknown): string {
  return expectString(value, 'jobUid', 100);
}

export const JOBS_IPC: IpcValidators<JobsIpc> = {
  'jobs:list': (args) => {
    expectArgCount('jobs:list', args, 1);
    const body = expectObject(args[0], 'request');
    for (const key of Object.keys(body)) if (!['status', 'sort', 'offset', 'limit'].includes(key)) throw new ServiceError('invalid_value', `Unknown field "${key}" in the request`);
    const request: JobListRequest = { offset: expectInteger(body.offset, 'offset', 0, Number.MAX_SAFE_INTEGER), limit: expectInteger(body.limit, 'limit', 1, MAX_JOB_WINDOW) };
    if (body.status !== undefined && body.status !== null) request.status = expectOneOf(body.status, 'status', JOB_STATUSES);
    if (body.sort !== undefined && body.sort !== null) {
      const sort = expectObject(body.sort, 'sort');
      for (const key of Object.keys(sort)) if (key !== 'by' && key !== 'order') throw new ServiceError('invalid_value', `Unknown field "${key}" in the sort`);
      request.sort = { by: expectOneOf(sort.by, 'sort.by', JOB_SORT_FIELDS), order: expectOneOf(sort.order, 'sort.order', ['asc', 'desc'] as const) };
    }
    return [request];
  },
  'jobs:get': (args) => {
    expectArgCount('jobs:get', args, 1);
    return [uidArg(args[0])];
  },
  'jobs:addTags': (args) => {
    expectArgCount('jobs:addTags', args, 2);
    return [uidArg(args[0]), validateTags(args[1])];
  },
  'jobs:replaceTags': (args) => {
    expectArgCount('jobs:replaceTags', args, 2);
    return [uidArg(args[0]), validateTags(args[1])];
  },
  'jobs:issueNow': (args) => {
    expectArgCount('jobs:issueNow', args, 1);
    return [expectString(args[0], 'engine', 100)];
  },
  'jobs:nextIssuing': (args) => {
    expectArgCount('jobs:nextIssuing', args, 0);
    return [];
  },
  'jobs:exportProofs': (args) => {
    expectArgCount('jobs:exportProofs', args, 1);
    const body = expectObject(args[0], 'request');
    const folder = expectString(body.folder, 'folder', 4096);
    const source = expectObject(body.source, 'source');
    const format = body.format === undefined ? {} : { format: expectOneOf<ProofExportFormat>(body.format, 'format', ['proof', 'vc', 'both']) };
    if (source.kind === 'job') return [{ folder, source: { kind: 'job', jobUid: uidArg(source.jobUid) }, ...format }];
    if (source.kind === 'selection') {
      const engine = source.engine === undefined ? undefined : expectString(source.engine, 'engine', 100);
      return [{ folder, source: { kind: 'selection', selection: validateSelection(source.selection), ...(engine ? { engine } : {}) }, ...format }];
    }
    throw new ServiceError('invalid_value', 'source must be {kind: "job", jobUid} or {kind: "selection", selection}');
  },
};
