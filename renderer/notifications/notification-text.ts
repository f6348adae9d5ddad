/**
 * What deserves an OS notification, in words: a job finished or failed, a watch folder refused
 * files, background work ended. Pure: the notifier decides when (the window in the background).
 */
import type { AppNotification } from '../../common/ipc/app.js';
import type { WatchFolderStatus } from '../../common/ipc/watch-folders.js';
import type { JobStatus } from '../../common/wire-types.js';
import type { TaskInfo } from '../../common/tasks.js';
import { shortUid } from '../jobs/short-uid.js';
import { t } from '../i18n/i18n-store.js';
import { taskLabel } from '../shell/task-label.js';

/**
 * A job that finished or failed, named by what it holds (`Diploma of Ada and 11 more: issued`,
 * see jobShortName) or, when nothing is known of it, by its short uid; null for the other states.
 * `engine` is the engine's display name.
 */
export function jobNotification(jobUid: string, name: string | null, engine: string, status: JobStatus): AppNotification | null {
  const job = name ?? t('notify.job.unnamed', { uid: shortUid(jobUid) });
  if (status === 'finished') return { title: t('notify.jobFinished.title', { job }), body: t('notify.jobFinished.body', { engine }) };
  if (status === 'failed') return { title: t('notify.jobFailed.title', { job }), body: t('notify.jobFailed.body', { engine }) };
  return null;
}

/** Files a watch folder refused since it was last seen (`refused` of them). */
export function refusedNotification(folder: Pick<WatchFolderStatus, 'path'>, refused: number): AppNotification {
  return {
    title: t('notify.refused.title'),
    body: t('notify.refused.body', { count: refused, path: folder.path }),
  };
}

/** Background work that ended; null while it runs. */
export function taskNotification(task: TaskInfo): AppNotification | null {
  if (task.state === 'done') return { title: taskLabel(task), body: t('notify.task.done') };
  if (task.state === 'failed') return { title: taskLabel(task), body: t('notify.task.failed', { message: task.error?.message ?? t('notify.task.unknownError'), id: task.error?.id ?? 'internal_error' }) };
  return null;
}
