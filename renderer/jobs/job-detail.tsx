import { useId, useState } from 'react';
import type { JobDetail } from '../../common/ipc/jobs.js';
import { useShellStore } from '../shell/shell-store.js';
import { useDialogTask } from '../shell/dialog-footer.js';
import { parseTagInput } from '../records/tag-dialog.js';
import { ExportDialog } from './export-dialog.js';
import { jobSummaryOf, useJobsStore } from './jobs-store.js';
import { localDateTime } from '../format/local-format.js';
import { useT } from '../i18n/use-t.js';
import { useNow } from '../format/use-now.js';
import { issueNowBlocked, jobFailure, jobName, jobProgress } from './job-text.js';
import { CopyButton } from '../shell/copy-button.js';
import { engineTechnical, useEngineName } from '../shell/engine-name.js';
import { Fact } from '../shell/fact.js';

const when = (iso: string | null) => localDateTime(iso);

/**
 * A job's detail (region `Job detail`), led by what the job is: its name (tags or first titles)
 * and count, status, progress, chain and local dates; then tags, credentials and proofs. The
 * uid (with Copy), the transaction hash, the engine id and the engine's own messages are under Details.
 */
export function JobDetailPane({ detail }: { detail: JobDetail }) {
  const { job, credentials, certificates, transaction, demo } = detail;
  const toastError = useShellStore((s) => s.toastError);
  const [exporting, setExporting] = useState(false);
  const [tagText, setTagText] = useState('');
  // A failure is said in a toast: the pane has no error line of its own.
  const { busy, run: runTask } = useDialogTask();
  const run = (work: () => Promise<unknown>) => runTask(work, toastError);
  const t = useT();
  const now = useNow();
  const status = useShellStore((s) => (s.statusLoaded ? s.status : null));
  // The list's summary where the job is loaded there, so the detail names it as its row does.
  const summary = jobSummaryOf(job.uid) ?? { credentials: credentials.total, titles: credentials.items.slice(0, 2).map((c) => c.title), finality: job.finality ?? null };
  const engineName = useEngineName();
  const blocked = issueNowBlocked(job, summary, status);
  const blockedId = useId();

  return (
    <aside className="job-detail" aria-label={t('jobs.detail.label')}>
      <header className="detail-header">
        <h2>{jobName(job, summary)}</h2>
        <button type="button" className="link-button" aria-label={t('jobs.detail.close')} onClick={() => void useJobsStore.getState().open(null)}>
          ×
        </button>
      </header>
      <dl className="facts">
        <Fact term={t('jobs.detail.status')} data-testid="job-status">{t('jobs.status', { status: job.status })}</Fact>
        <Fact term={t('jobs.detail.chain')} data-testid="job-chain" title={engineTechnical(job.chain)}>
          {engineName(job.chain)}
        </Fact>
        <Fact term={t('jobs.detail.progress')} data-testid="job-progress">{jobProgress(job, summary, now)}</Fact>
        {job.finality && (
          <Fact term={t('jobs.detail.finality')} data-testid="job-finality">
            {job.finality.required === null
              ? t('jobs.detail.waitingFinality', { confirmations: job.finality.confirmations })
              : t('jobs.detail.confirmations', { confirmations: job.finality.confirmations, required: job.finality.required })}
          </Fact>
        )}
        <Fact term={t('jobs.detail.created')}>{when(job.created_date)}</Fact>
        <Fact term={t('jobs.detail.due')}>{when(job.scheduled_date)}</Fact>
        <Fact term={t('jobs.detail.started')}>{when(job.start_date)}</Fact>
        <Fact term={t('jobs.detail.issued')}>{when(job.issued_date)}</Fact>
        <Fact term={t('jobs.detail.finished')}>{when(job.finished_date ?? job.failed_date)}</Fact>
        <Fact term={t('jobs.detail.transaction')}>
          {transaction ? (
            transaction.explorerUrl ? (
              <a href={transaction.explorerUrl} target="_blank" rel="noreferrer">
                {t('jobs.detail.viewTransaction')}
              </a>
            ) : (
              t('jobs.detail.transactionSent')
            )
          ) : (
            t('jobs.detail.noTransaction')
          )}
        </Fact>
        {job.transaction?.pending_since ? (
          <Fact term={t('jobs.detail.pendingSince')} data-testid="job-pending-since">
            {when(job.transaction.pending_since)}
            {job.transaction.max_fee_gwei !== null ? t('jobs.detail.maxFee', { gwei: job.transaction.max_fee_gwei }) : ''}
            {job.transaction.tip_gwei !== null ? t('jobs.detail.tip', { gwei: job.transaction.tip_gwei }) : ''}
          </Fact>
        ) : null}
        {job.status === 'failed' ? (
          <Fact term={t('jobs.detail.failureReason')}>{jobFailure(job)}</Fact>
        ) : null}
        <Fact term={t('jobs.detail.tags')}>
          {job.tags.length === 0 ? '—' : job.tags.map((tag) => <span key={tag} className="tag">{tag}</span>)}
        </Fact>
      </dl>
      <details className="technical">
        <summary>{t('jobs.detail.technical')}</summary>
        <dl className="facts">
          <Fact term={t('jobs.detail.uid')}>
            <code data-testid="job-uid">{job.uid}</code> <CopyButton value={job.uid} name={t('jobs.detail.copyUid')} what="jobUid" />
          </Fact>
          {transaction && (
            <Fact term={t('jobs.detail.transactionId')}>
              <code data-testid="job-transaction">{transaction.id}</code>
            </Fact>
          )}
          {job.waiting ? (
            <Fact term={t('jobs.detail.waiting')} data-testid="job-waiting" lang="en">
              {job.waiting}
            </Fact>
          ) : null}
          {job.failure_reason ? (
            <Fact term={t('jobs.detail.failureReason')} data-testid="job-failure-reason" lang="en">
              {job.failure_reason}
            </Fact>
          ) : null}
          <Fact term={t('jobs.detail.engineId')}>
            <code>{job.chain}</code>
          </Fact>
          <Fact term={t('jobs.detail.createdIso')}>
            <code>{job.created_date}</code>
          </Fact>
        </dl>
      </details>
      <form
        className="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          const tags = parseTagInput(tagText);
          void run(async () => {
            await window.proofdesk.jobsAddTags(job.uid, tags);
            setTagText('');
            await useJobsStore.getState().open(job.uid);
          });
        }}
      >
        <input aria-label={t('jobs.detail.jobTags')} placeholder={t('records.filter.tagsPlaceholder')} value={tagText} onChange={(e) => setTagText(e.target.value)} />
        <button type="submit" disabled={busy || parseTagInput(tagText).length === 0}>
          {t('jobs.detail.tagJob')}
        </button>
      </form>
      <div className="toolbar">
        {demo && job.status === 'scheduled' && (
          <button
            type="button"
            className="primary"
            disabled={busy || blocked !== null}
            aria-describedby={blocked ? blockedId : undefined}
            onClick={() =>
              void run(async () => {
                await window.proofdesk.jobsIssueNow(job.chain);
                useJobsStore.getState().refresh();
              })
            }
          >
            {t('jobs.detail.issueNow')}
          </button>
        )}
        <button type="button" disabled={certificates.total === 0} onClick={() => setExporting(true)}>
          {t('jobs.detail.exportProofs')}
        </button>
      </div>
      {demo && job.status === 'scheduled' && blocked && (
        <p className="muted" id={blockedId} data-testid="issue-now-blocked">
          {blocked}
        </p>
      )}
      <h3>{t('jobs.detail.credentials', { count: credentials.total })}</h3>
      <ul className="plain-list">
        {credentials.items.map((c) => (
          <li key={c.uid}>{c.title}</li>
        ))}
        {credentials.total > credentials.items.length && <li className="muted">{t('jobs.detail.more', { count: credentials.total - credentials.items.length })}</li>}
      </ul>
      <h3>{t('jobs.detail.certificates', { count: certificates.total })}</h3>
      <ul className="plain-list">
        {certificates.items.map((c) => (
          <li key={c.certificate.uid}>
            {c.certificate.credential.title} <span className="muted">{c.revoked_date ? t('jobs.detail.revokedOn', { date: when(c.revoked_date) }) : t('jobs.detail.issuedOn', { date: when(c.certificate.issued_date) })}</span>
          </li>
        ))}
      </ul>
      {exporting && (
        <ExportDialog source={async () => ({ kind: 'job', jobUid: job.uid })} what={t('jobs.detail.proofFiles', { count: certificates.total })} onClose={() => setExporting(false)} />
      )}
    </aside>
  );
}
