import type { Job } from '../../common/wire-types.js';
import { copyText } from '../commands/copy-text.js';
import type { MenuGroup } from '../commands/popup-menu.js';
import { t } from '../i18n/i18n-store.js';
import { useShellStore } from '../shell/shell-store.js';
import { jobSummaryOf, useJobsStore } from './jobs-store.js';
import { issueNowBlocked } from './job-text.js';

/**
 * A job row's context menu: open it, copy its uid, issue it now (a scheduled job on a demo
 * engine, as the job detail offers), export its proofs.
 */
export function jobMenu(job: Job, actions: { exportProofs(job: Job): void }): MenuGroup[] {
  const demo = useShellStore.getState().status?.engines.find((e) => e.id === job.chain)?.environment === 'demo';
  return [
    {
      entries: [
        { key: 'open', label: t('jobs.menu.open'), run: () => void useJobsStore.getState().open(job.uid) },
        { key: 'copy-uid', label: t('jobs.menu.copyUid'), run: () => void copyText(job.uid, 'jobUid') },
      ],
    },
    {
      entries: [
        ...(demo && job.status === 'scheduled'
          ? [
              {
                key: 'issue-now',
                label: t('jobs.detail.issueNow'),
                // The reason is in the job detail, beside its own Issue now.
                disabled: issueNowBlocked(job, jobSummaryOf(job.uid), useShellStore.getState().status) !== null,
                run: () =>
                  void window.proofdesk.jobsIssueNow(job.chain).then(
                    () => useJobsStore.getState().refresh(),
                    (error: unknown) => useShellStore.getState().toastError(error),
                  ),
              },
            ]
          : []),
        { key: 'export-proofs', label: t('jobs.menu.exportProofs'), disabled: job.status !== 'finished' && job.status !== 'unconfirmed', run: () => actions.exportProofs(job) },
      ],
    },
  ];
}
