import { shortUid } from './short-uid.js';
import { useState } from 'react';
import type { JobDetail } from '../../common/ipc/jobs.js';
import { errorSentence } from '../ipc-error.js';
import { useShellStore } from '../shell/shell-store.js';
import { parseTagInput } from '../records/tag-dialog.js';
import { ExportDialog } from './export-dialog.js';
import { useJobsStore } from './jobs-store.js';

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/** A job's detail (region `Job detail`): dates, tags, transaction with its explorer link, credentials, certificates. */
export function JobDetailPane({ detail }: { detail: JobDetail }) {
  const { job, credentials, certificates, transaction, demo } = detail;
  const toast = useShellStore((s) => s.toast);
  const [exporting, setExporting] = useState(false);
  const [tagText, setTagText] = useState('');
  const [busy, setBusy] = useState(false);

  const run = async (what: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await what();
    } catch (error) {
      toast('error', errorSentence(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <aside className="job-detail" aria-label="Job detail">
      <header className="detail-header">
        <h2>
          Job <code title={job.uid}>{shortUid(job.uid)}</code> on <code>{job.chain}</code>
        </h2>
        <button type="button" className="link-button" aria-label="Close job detail" onClick={() => void useJobsStore.getState().open(null)}>
          ×
        </button>
      </header>
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="job-status">{job.status}</dd>
        {job.finality && (
          <>
            <dt>Finality</dt>
            <dd data-testid="job-finality">
              {job.finality.required === null ? `waiting for finality (${job.finality.confirmations} confirmation(s))` : `${job.finality.confirmations} of ${job.finality.required} confirmations`}
            </dd>
          </>
        )}
        <dt>Created</dt>
        <dd>{when(job.created_date)}</dd>
        <dt>Due</dt>
        <dd>{when(job.scheduled_date)}</dd>
        <dt>Started</dt>
        <dd>{when(job.start_date)}</dd>
        <dt>Issued</dt>
        <dd>{when(job.issued_date)}</dd>
        <dt>Finished</dt>
        <dd>{when(job.finished_date ?? job.failed_date)}</dd>
        <dt>Transaction</dt>
        <dd data-testid="job-transaction">
          {transaction ? (
            transaction.explorerUrl ? (
              <a href={transaction.explorerUrl} target="_blank" rel="noreferrer">
                <code>{transaction.id}</code>
              </a>
            ) : (
              <code title="This engine has no block explorer">{transaction.id}</code>
            )
          ) : (
            'none yet'
          )}
        </dd>
        {job.transaction?.pending_since ? (
          <>
            <dt>Pending since</dt>
            <dd data-testid="job-pending-since">
              {when(job.transaction.pending_since)}
              {job.transaction.max_fee_gwei !== null ? ` · max fee ${job.transaction.max_fee_gwei} gwei` : ''}
              {job.transaction.tip_gwei !== null ? `, tip ${job.transaction.tip_gwei} gwei` : ''}
            </dd>
          </>
        ) : null}
        {job.waiting ? (
          <>
            <dt>Waiting</dt>
            <dd data-testid="job-waiting">{job.waiting}</dd>
          </>
        ) : null}
        {job.failure_reason ? (
          <>
            <dt>Failure reason</dt>
            <dd data-testid="job-failure-reason">{job.failure_reason}</dd>
          </>
        ) : null}
        <dt>Tags</dt>
        <dd>
          {job.tags.length === 0 ? '—' : job.tags.map((t) => <span key={t} className="tag">{t}</span>)}
        </dd>
      </dl>
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
        <input aria-label="Job tags" placeholder="tags, comma-separated" value={tagText} onChange={(e) => setTagText(e.target.value)} />
        <button type="submit" disabled={busy || parseTagInput(tagText).length === 0}>
          Tag job
        </button>
      </form>
      <div className="toolbar">
        {demo && job.status === 'scheduled' && (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                await window.proofdesk.jobsIssueNow(job.chain);
                useJobsStore.getState().refresh();
              })
            }
          >
            Issue now
          </button>
        )}
        <button type="button" disabled={certificates.total === 0} onClick={() => setExporting(true)}>
          Export proofs
        </button>
      </div>
      <h3>Credentials ({credentials.total.toLocaleString('en-US')})</h3>
      <ul className="plain-list">
        {credentials.items.map((c) => (
          <li key={c.uid}>{c.title}</li>
        ))}
        {credentials.total > credentials.items.length && <li className="muted">and {(credentials.total - credentials.items.length).toLocaleString('en-US')} more</li>}
      </ul>
      <h3>Certificates ({certificates.total.toLocaleString('en-US')})</h3>
      <ul className="plain-list">
        {certificates.items.map((c) => (
          <li key={c.certificate.uid}>
            {c.certificate.credential.title} <span className="muted">{c.revoked_date ? `revoked ${when(c.revoked_date)}` : `issued ${when(c.certificate.issued_date)}`}</span>
          </li>
        ))}
      </ul>
      {exporting && (
        <ExportDialog source={async () => ({ kind: 'job', jobUid: job.uid })} what={`${certificates.total.toLocaleString('en-US')} proof files`} onClose={() => setExporting(false)} />
      )}
    </aside>
  );
}
