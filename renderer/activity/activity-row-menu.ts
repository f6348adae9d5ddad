import type { ActivityEntry } from '../../common/activity.js';
import { copyText } from '../commands/copy-text.js';
import type { MenuGroup } from '../commands/popup-menu.js';
import { t } from '../i18n/i18n-store.js';
import { useActivityStore } from './activity-store.js';

/** An activity entry's context menu: narrow the log to its credential, job or kind; copy its uids. */
export function activityRowMenu(entry: ActivityEntry): MenuGroup[] {
  const { filters, setFilters } = useActivityStore.getState();
  return [
    {
      entries: [
        {
          key: 'filter-credential',
          label: t('activity.menu.filterCredential'),
          disabled: !entry.credential_uid,
          run: () => setFilters({ ...filters, credential: entry.credential_uid ?? '' }),
        },
        { key: 'filter-job', label: t('activity.menu.filterJob'), disabled: !entry.job_uid, run: () => setFilters({ ...filters, job: entry.job_uid ?? '' }) },
        { key: 'filter-kind', label: t('activity.menu.filterKind'), run: () => setFilters({ ...filters, kind: entry.kind }) },
      ],
    },
    {
      entries: [
        { key: 'copy-credential', label: t('activity.menu.copyCredential'), disabled: !entry.credential_uid, run: () => void copyText(entry.credential_uid ?? '', 'uid') },
        { key: 'copy-job', label: t('activity.menu.copyJob'), disabled: !entry.job_uid, run: () => void copyText(entry.job_uid ?? '', 'jobUid') },
      ],
    },
  ];
}
