/**
 * What deserves an OS notification, in words: a job finished or failed, a watch folder refused
 * files, background work ended. Pure: the notifier decides when (the window in the background).
 */
import type { AppNotification } from '../../common/ipc/app.js';
import type { WatchFolderStatus } from '../../common/ipc/watch-folders.js';
import type { JobStatus } from '../../common/wire-types.js';
import type { TaskInfo } from '../../common/tasks.js';
import { shortUid } from '../jobs/short-uid.js';

/** A job that finished or failed; null for the other states. */
export function jobNotification(jobUid: string, engine: string, status: JobStatus): AppNotification | null {
  if (status === 'finished') return { title: 'Job finished', body: `Job ${shortUid(jobUid)} on ${engine} is finished: its proofs can be exported.` };
  if (status === 'failed') return { title: 'Job failed', body: `Job ${shortUid(jobUid)} on ${engine} failed; its credentials can be scheduled again.` };
  return null;
}

/** Files a watch folder refused since it was last seen (`refused` of them). */
export function refusedNotification(folder: Pick<WatchFolderStatus, 'path'>, refused: number): AppNotification {
  return {
    title: 'Watch folder refused files',
    body: `${refused === 1 ? '1 file' : `${refused.toLocaleString('en-US')} files`} in ${folder.path} ${refused === 1 ? 'was' : 'were'} refused: see Failed files.`,
  };
}

/** Background work that ended; null while it runs. */
export function taskNotification(task: TaskInfo): AppNotification | null {
  if (task.state === 'done') return { title: task.label, body: 'Done.' };
  if (task.state === 'failed') return { title: task.label, body: `Failed: ${task.error?.message ?? 'unknown error'} (${task.error?.id ?? 'internal_error'})` };
  return null;
}
