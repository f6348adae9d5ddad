/** What the app's Jobs view shows beside the spec's job: its transaction, the next issuing and every job's state. */
import type { JobSummary } from '../../common/ipc/jobs.js';
import type { JobStatus } from '../../common/wire-types.js';
import type { PartnerScope } from './scope.js';
import { jsonTexts } from './store/dialect.js';

/** The hash of the transaction that anchors a job of the Partner, or undefined before it is sent. */
export function jobTransactionHash(scope: PartnerScope, jobUid: string): string | undefined {
  return scope.db
    .prepare('SELECT t.hash FROM jobs j JOIN chain_txs t ON t.id = j.issue_tx WHERE j.uid = ? AND j.partner_id = ?')
    .pluck()
    .get(jobUid, scope.partner.id) as string | undefined;
}

/** When the Partner's earliest scheduled job is due (milliseconds since the epoch), or null when none is scheduled. */
export function nextScheduledDate(scope: PartnerScope): number | null {
  return scope.db
    .prepare("SELECT min(scheduled_date) FROM jobs WHERE partner_id = ? AND status = 'scheduled'")
    .pluck()
    .get(scope.partner.id) as number | null;
}

/** Every job of the Partner with its engine and status. */
export function jobStatuses(scope: PartnerScope): { uid: string; engine: string; status: JobStatus }[] {
  return scope.db.prepare('SELECT uid, engine, status FROM jobs WHERE partner_id = ?').all(scope.partner.id) as { uid: string; engine: string; status: JobStatus }[];
}

/** Titles read per job to name it when it has no tags. */
const TITLES_SHOWN = 2;

/** The summaries of some of the Partner's jobs by uid; uids of other Partners' jobs are left out. */
export function jobSummaries(scope: PartnerScope, uids: readonly string[]): Record<string, JobSummary> {
  const rows = scope.db
    .prepare(
      `SELECT j.id, j.uid, j.status, t.confirmations, t.confirmations_required AS required,
         (SELECT count(*) FROM job_credentials jc WHERE jc.job_id = j.id) AS credentials
       FROM jobs j LEFT JOIN chain_txs t ON t.id = j.issue_tx
       WHERE j.partner_id = ? AND j.uid IN (SELECT value FROM ${jsonTexts(scope.db, '?', 'u')})`,
    )
    .all(scope.partner.id, JSON.stringify(uids)) as { id: number; uid: string; status: JobStatus; confirmations: number | null; required: number | null; credentials: number }[];
  const titles = scope.db.prepare(
    `SELECT c.title FROM job_credentials jc JOIN credentials c ON c.id = jc.credential_id WHERE jc.job_id = ? ORDER BY jc.credential_id LIMIT ${TITLES_SHOWN}`,
  ).pluck();
  return Object.fromEntries(
    rows.map((r) => [
      r.uid,
      {
        credentials: r.credentials,
        titles: titles.all(r.id) as string[],
        // The same reading as GET /jobs/<uid>: one block deep once mined, until the chain says more.
        finality: r.status === 'unconfirmed' ? { confirmations: r.confirmations ?? 1, required: r.required } : null,
      },
    ]),
  );
}

/** The tags of some of the Partner's jobs by uid, in one query; uids of other Partners' jobs are left out. */
export function jobTags(scope: PartnerScope, uids: readonly string[]): Record<string, string[]> {
  const rows = scope.db
    .prepare(`SELECT j.uid, j.tags FROM jobs j WHERE j.partner_id = ? AND j.uid IN (SELECT value FROM ${jsonTexts(scope.db, '?', 'u')})`)
    .all(scope.partner.id, JSON.stringify(uids)) as { uid: string; tags: string }[];
  return Object.fromEntries(rows.map((r) => [r.uid, JSON.parse(r.tags) as string[]]));
}
