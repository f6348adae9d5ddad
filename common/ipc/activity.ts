/**
 * The IPC slice of the Activity view: a page of the active Partner's activity log, filtered as
 * GET /activity filters it (the service checks the filters' values and answers `invalid_value`).
 */
import type { ActivityEntry } from '../activity.js';
import { Type, type Static } from '@sinclair/typebox';
import type { JobSummary } from './jobs.js';
import { OneOf } from '../schemas/primitives.js';
import type { Page } from '../wire-types.js';
import { argsOf } from './slice.js';

/** Rows per page the view may ask for at most. */
export const MAX_ACTIVITY_PAGE = 1000;

const Filter = Type.Optional(Type.String({ minLength: 1, maxLength: 200 }));

/** What the view asks: a page, and the filters the service checks the values of. */
const ActivityQuerySchema = Type.Object(
  {
    kind: Filter,
    date_from: Filter,
    date_until: Filter,
    credential_uid: Filter,
    job_uid: Filter,
    page: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    per_page: Type.Integer({ minimum: 1, maximum: MAX_ACTIVITY_PAGE }),
    order: Type.Optional(OneOf(['asc', 'desc'] as const)),
    sort_by: Type.Optional(OneOf(['id', 'date'] as const)),
  },
  { additionalProperties: false },
);
export type ActivityListQuery = Static<typeof ActivityQuerySchema>;

/** What the Jobs view names a job by (its tags, else its first titles): the view words it as the Jobs view does. */
export interface ActivityJob {
  tags: string[];
  summary: JobSummary;
}

/** A page of the log, with what names each job its entries name, by job uid (none over a remote service). */
export interface ActivityPage extends Page<ActivityEntry> {
  jobs: Record<string, ActivityJob>;
}

export const ACTIVITY_IPC = {
  'activity:list': argsOf('activity:list', ['query'], ActivityQuerySchema).returns<ActivityPage>(),
};
