/** What the app's Jobs view shows beside the spec's job: its transaction, the next issuing and every job's state. */
import type { JobStatus } from '../../common/wire-types.js';
import type { PartnerScope } from './scope.js';

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
