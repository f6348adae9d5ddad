/**
 * The activity log's wire shapes: what was done to a Partner's credentials, jobs and
 * certificates, when, by whom and on which chain. Entries are only ever appended.
 */
import type { Static } from '@sinclair/typebox';
import type { PageQuery } from './requests.js';
import type { ActivityEntrySchema } from './schemas/resources.js';
import { csvField } from './csv-field.js';

/** What an entry records. */
export const ACTIVITY_KINDS = ['created', 'scheduled', 'unscheduled', 'tagged', 'issued', 'revoked', 'exported', 'keys_exported', 'keys_restored'] as const;

export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** One entry of the log, as listed (GET /activity, `activity list`, the Activity view); its schema is ActivityEntrySchema. */
export type ActivityEntry = Static<typeof ActivityEntrySchema>;

/** The filters of the activity listing; dates are ISO 8601 dates or date-times, inclusive. */
export interface ActivityQuery extends PageQuery {
  kind?: string;
  date_from?: string;
  date_until?: string;
  credential_uid?: string;
  job_uid?: string;
}


/** The CSV columns of an activity export, in order; a deleted credential's title is empty. */
export const ACTIVITY_CSV_COLUMNS = ['date', 'kind', 'actor', 'engine', 'credential_uid', 'credential_title', 'job_uid', 'certificate_uid', 'transaction', 'detail'] as const;

/** Activity entries as CSV (header line first, CRLF line ends): what `activity list --csv` and the Activity view export. */
export function activityCsv(entries: readonly ActivityEntry[]): string {
  const rows = entries.map((e) => {
    const transaction = typeof e.detail?.transaction === 'string' ? e.detail.transaction : '';
    return [e.date, e.kind, e.actor, e.engine ?? '', e.credential_uid ?? '', e.credential_title ?? '', e.job_uid ?? '', e.certificate_uid ?? '', transaction, e.detail ? JSON.stringify(e.detail) : ''];
  });
  return `${[[...ACTIVITY_CSV_COLUMNS], ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}
