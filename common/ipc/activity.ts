/**
 * The IPC slice of the Activity view: a page of the active Partner's activity log, filtered as
 * GET /activity filters it (the service checks the filters' values and answers `invalid_value`).
 */
import type { ActivityEntry, ActivityQuery } from '../activity.js';
import { ServiceError } from '../errors.js';
import type { Page } from '../wire-types.js';
import { expectArgCount, expectInteger, expectObject, expectOneOf, expectOptionalString, type IpcValidators } from './slice.js';

/** Rows per page the view may ask for at most. */
export const MAX_ACTIVITY_PAGE = 1000;

export interface ActivityIpc {
  'activity:list': { args: [query: ActivityQuery]; result: Page<ActivityEntry> };
}

const TEXT_FIELDS = ['kind', 'date_from', 'date_until', 'credential_uid', 'job_uid'] as const;

export const ACTIVITY_IPC: IpcValidators<ActivityIpc> = {
  'activity:list': (args) => {
    expectArgCount('activity:list', args, 1);
    const body = expectObject(args[0], 'query');
    const known = [...TEXT_FIELDS, 'page', 'per_page', 'order', 'sort_by'];
    for (const key of Object.keys(body)) if (!known.includes(key)) throw new ServiceError('invalid_value', `Unknown field "${key}" in the query`);
    const query: ActivityQuery = {
      page: expectInteger(body.page, 'page', 1, Number.MAX_SAFE_INTEGER),
      per_page: expectInteger(body.per_page, 'per_page', 1, MAX_ACTIVITY_PAGE),
    };
    for (const field of TEXT_FIELDS) {
      const value = expectOptionalString(body[field], field, 200);
      if (value !== undefined) query[field] = value;
    }
    if (body.order !== undefined) query.order = expectOneOf(body.order, 'order', ['asc', 'desc'] as const);
    if (body.sort_by !== undefined) query.sort_by = expectOneOf(body.sort_by, 'sort_by', ['id', 'date'] as const);
    return [query];
  },
};
