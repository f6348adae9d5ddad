import type { Job } from '../../common/wire-types.js';
import { copyText } from '../commands/copy-text.js';
import type { MenuGroup } from '../commands/popup-menu.js';
import { useShellStore } from '../shell/shell-store.js';
import { useJobsStore } from './jobs-store.js';

/**
 * A job row's context menu: open it, copy its uid, issue it now (a scheduled job on a demo
 * engine, as the job detail offers), export its proofs.
 */
export function jobMenu(job: Job, actions: { exportProofs(job: Job): void }): MenuGroup[] {
  const demo = useShellStore.getState().status?.engines.find((e) => e.id === job.chain)?.environment === 'demo';
  return [
    {
      entries: [
        { key: 'open', label: 'Open', run: () => void useJobsStore.getState().open(job.uid) },
        { key: 'copy-uid', label: 'Copy job uid', run: () => void copyText(job.uid, 'The job uid') },
      ],
    },
    {
      entries: [
        ...(demo && job.status === 'scheduled'
          ? [
              {
                key: 'issue-now',
                label: 'Issue now',
                run: () =>
                  void window.proofdesk.jobsIssueNow(job.chain).then(
                    () => useJobsStore.getState().refresh(),
                    (error: unknown) => useShellStore.getState().toastError(error),
                  ),
              },
            ]
          : []),
        { key: 'export-proofs', label: 'Export proofs…', disabled: job.status !== 'finished' && job.status !== 'unconfirmed', run: () => actions.exportProofs(job) },
      ],
    },
  ];
}
