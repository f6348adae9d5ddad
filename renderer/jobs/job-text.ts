/**
 * What a job is and where it stands, in words an admin reads: its name, its progress and
 * what it waits for, what failed, and why `Issue now` cannot run. The engine's own messages
 * stay in the job detail's technical lines.
 */
import type { AppStatus } from '../../common/ipc/app.js';
import type { JobSummary } from '../../common/ipc/jobs.js';
import type { Job } from '../../common/wire-types.js';
import { t } from '../i18n/i18n-store.js';
import { localDay, localTime, localWeekdayTime, pageLocale } from '../format/local-format.js';

/** A job's name: its tags, else its first titles (`…` when it holds more); `Empty job` for none. */
export function jobLabel(job: Pick<Job, 'tags'>, summary: JobSummary | undefined): string {
  if (job.tags.length > 0 || !summary) return job.tags.join(', ');
  if (summary.credentials === 0) return t('jobs.name.empty');
  const titles = summary.titles.join(', ');
  return summary.credentials > summary.titles.length ? t('jobs.name.more', { titles }) : titles;
}

/**
 * A job named in a sentence (a notification, a toast): its tags, else its first title and how
 * many more (`Diploma of Ada and 11 more`), `Empty job` for none; null when nothing is known of it.
 */
export function jobShortName(job: Pick<Job, 'tags'>, summary: JobSummary | undefined): string | null {
  if (job.tags.length > 0) return job.tags.join(', ');
  if (!summary) return null;
  const [title] = summary.titles;
  if (summary.credentials === 0 || title === undefined) return t('jobs.name.empty');
  return t('jobs.name.first', { title, more: summary.credentials - 1 });
}

/** A job's name with its credential count, e.g. `Diplomas 2026 (120 credentials)`: where no column counts them. */
export function jobName(job: Job, summary: JobSummary | undefined): string {
  if (!summary) return jobLabel(job, summary);
  if (summary.credentials === 0) return t('jobs.name.empty');
  return t('jobs.name', { name: jobLabel(job, summary), count: summary.credentials });
}

/** Where a waiting job is stuck, from the engine's note: funds, else the chain. */
function waitingReason(waiting: string): string {
  return waiting.startsWith('waiting for funds') ? t('jobs.pending.funds') : t('jobs.pending.chain');
}

/** The same local day as now: a time alone says enough. */
function sameDay(iso: string, now: number): boolean {
  return new Date(iso).toDateString() === new Date(now).toDateString();
}

/**
 * Where a job stands in a few words: what it waits for, when it is due, how far it is
 * towards final (`8 of 12 confirmations`), or what failed.
 */
export function jobProgress(job: Job, summary: JobSummary | undefined, now: number, locale = pageLocale()): string {
  switch (job.status) {
    case 'scheduled': {
      if (job.waiting) return waitingReason(job.waiting);
      if (!job.scheduled_date) return t('jobs.pending.scheduled');
      if (new Date(job.scheduled_date).getTime() <= now) return t('jobs.pending.due');
      // As short as says it: the time today, the weekday and time this week, else the day.
      const soon = new Date(job.scheduled_date).getTime() - now < 6 * 86_400_000;
      const at = sameDay(job.scheduled_date, now) ? localTime(job.scheduled_date, locale) : soon ? localWeekdayTime(job.scheduled_date, locale) : localDay(job.scheduled_date, locale);
      return t('jobs.pending.scheduledFor', { at });
    }
    case 'started':
      return job.waiting ? waitingReason(job.waiting) : t('jobs.pending.sending');
    case 'unconfirmed': {
      if (job.waiting) return waitingReason(job.waiting);
      const finality = summary?.finality ?? job.finality ?? null;
      if (!finality) return t('jobs.pending.confirming');
      return finality.required === null
        ? t('jobs.pending.finalizing', { confirmations: finality.confirmations })
        : t('jobs.pending.confirmations', { confirmations: Math.min(finality.confirmations, finality.required), required: finality.required });
    }
    case 'finished':
      return t('jobs.pending.final');
    case 'failed':
      return jobFailure(job);
    default:
      return '';
  }
}

/**
 * What failed, in a line and without transaction hashes: the chain refused or lost the job's
 * transaction, or another reason (its full text is in the job detail). `—` for a job that did not fail.
 */
export function jobFailure(job: Job): string {
  if (job.status !== 'failed') return '—';
  const reason = job.failure_reason?.trim() ?? '';
  if (/reverted/i.test(reason)) return t('jobs.failure.reverted');
  if (/dropped|lost|no longer exists|rolled back|reorg/i.test(reason)) return t('jobs.failure.dropped');
  return reason.replace(/0x[0-9a-f]{16,}/gi, '…') || t('jobs.failure.unknown');
}

/**
 * Why `Issue now` cannot work for a scheduled job now, or null when it can: the chain is
 * unreachable, issuing is off, the account cannot pay, or the job is empty.
 */
export function issueNowBlocked(job: Job, summary: JobSummary | undefined, status: AppStatus | null): string | null {
  // Over a remote service its own engines issue: this machine's chains and keys say nothing of them.
  if (status?.mode === 'remote') return summary && summary.credentials === 0 ? t('jobs.issueNow.empty') : null;
  const engine = status?.engines.find((e) => e.id === job.chain);
  if (status?.issuingOff) return t('jobs.issueNow.issuingOff');
  if (engine?.chain === 'unreachable') return t('jobs.issueNow.unreachable');
  if (engine?.funds && engine.funds.jobs_covered === 0) return t('jobs.issueNow.noFunds');
  if (summary && summary.credentials === 0) return t('jobs.issueNow.empty');
  return null;
}
