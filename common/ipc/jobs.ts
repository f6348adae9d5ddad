/**
 * The IPC slice of the Jobs view: jobs by status, a job's detail, job tags, issue now (demo
 * engines), the Partner's next issuing date, and exporting proofs to a folder as a task.
 */
import { Type, type Static } from '@sinclair/typebox';
import { SelectionSchema, selectionOf, type ProofExportFormat, type ProofExportRequest, type ProofExportResult } from '../records.js';
import type { TaskInfo } from '../tasks.js';
import { validateTags } from '../validate.js';
import { Variants } from '../schemas/check.js';
import { OneOf } from '../schemas/primitives.js';
import { JOB_STATUSES, type Certificate, type Credential, type Job, type JobStatus } from '../wire-types.js';
import { argsOf } from './slice.js';

/** The spec's sort_by values of GET /jobs (`ready_date` is the finished date); absent: newest first. */
export const JOB_SORT_FIELDS = ['created_date', 'status', 'chain', 'start_date', 'issued_date', 'ready_date', 'failed_date'] as const;
export type JobSortField = (typeof JOB_SORT_FIELDS)[number];

export const JobSortSchema = Type.Object({ by: OneOf(JOB_SORT_FIELDS), order: OneOf(['asc', 'desc'] as const) }, { additionalProperties: false });
export type JobSort = Static<typeof JobSortSchema>;
export const DEFAULT_JOB_SORT: JobSort = { by: 'created_date', order: 'desc' };

const MAX_JOB_WINDOW = 500;

const JobListRequestSchema = Type.Object(
  {
    /** All statuses when absent. */
    status: Type.Optional(OneOf(JOB_STATUSES)),
    /** Sorted in the service, as GET /jobs allows; newest first when absent. */
    sort: Type.Optional(JobSortSchema),
    offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    limit: Type.Integer({ minimum: 1, maximum: MAX_JOB_WINDOW }),
  },
  { additionalProperties: false },
);
export type JobListRequest = Static<typeof JobListRequestSchema>;

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

const JobUid = Type.String({ minLength: 1, maxLength: 100 });
const EngineId = Type.String({ minLength: 1, maxLength: 100 });

const ProofExportShape = Type.Object({
  folder: Type.String({ minLength: 1, maxLength: 4096 }),
  source: Variants('kind', [
    Type.Object({ kind: Type.Literal('job'), jobUid: JobUid }),
    Type.Object({ kind: Type.Literal('selection'), selection: SelectionSchema, engine: Type.Optional(EngineId) }),
  ]),
  format: Type.Optional(OneOf<ProofExportFormat>(['proof', 'vc', 'both'])),
});

/** Tags are checked by validateTags, for the spec's `invalid_tag` and `duplicated_tags`. */
const tagsArgs = (channel: string) =>
  argsOf(channel, ['jobUid', 'tags'], JobUid, Type.Unknown())
    .map(([uid, tags]) => [uid, validateTags(tags)])
    .returns<Job>();

export const JOBS_IPC = {
  'jobs:list': argsOf('jobs:list', ['request'], JobListRequestSchema).returns<JobWindow>(),
  'jobs:get': argsOf('jobs:get', ['jobUid'], JobUid).returns<JobDetail>(),
  /** The summaries of these jobs (the rows on screen); a job whose summary cannot be had is left out. */
  'jobs:summaries': argsOf('jobs:summaries', ['jobUids'], Type.Array(JobUid, { maxItems: MAX_JOB_WINDOW })).returns<Record<string, JobSummary>>(),
  'jobs:addTags': tagsArgs('jobs:addTags'),
  'jobs:replaceTags': tagsArgs('jobs:replaceTags'),
  /** Issues the engine's scheduled job now (demo engines only). */
  'jobs:issueNow': argsOf('jobs:issueNow', ['engine'], EngineId).returns<Job>(),
  'jobs:nextIssuing': argsOf('jobs:nextIssuing', []).returns<NextIssuing>(),
  /** Writes one NAME.proof.json per certificate of a job or selection into a folder; answers the task. */
  'jobs:exportProofs': argsOf('jobs:exportProofs', ['request'], ProofExportShape)
    .map(([{ folder, source, format }]): [ProofExportRequest] => {
      const formatted = format === undefined ? {} : { format };
      if (source.kind === 'job') return [{ folder, source: { kind: 'job', jobUid: source.jobUid }, ...formatted }];
      const engine = source.engine === undefined ? {} : { engine: source.engine };
      return [{ folder, source: { kind: 'selection', selection: selectionOf(source.selection), ...engine }, ...formatted }];
    })
    .returns<TaskInfo<ProofExportResult>>(),
};
