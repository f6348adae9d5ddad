/**
 * Notifications and badges from main's events: when background work ends while the window is
 * in the background, an OS notification (Electron's through main, `app:notify`; the browser's
 * Notification API in the bridge, once the admin allowed it); failed jobs and refused files
 * counted on the sidebar until their section is opened.
 */
import { create } from 'zustand';
import type { AppNotification } from '../../common/ipc/app.js';
import { onAppEvent } from '../shell/app-events.js';
import { useShellStore } from '../shell/shell-store.js';
import { jobNotification, refusedNotification, taskNotification } from './notification-text.js';
import { t } from '../i18n/i18n-store.js';
import { jobShortName } from '../jobs/job-text.js';
import { engineName } from '../shell/engine-name.js';

export interface BadgeStore {
  /** Jobs that failed since Jobs was last open. */
  failedJobs: number;
  /** Files watch folders refused since Watch folders was last open. */
  refusedFiles: number;
}

export const useBadgeStore = create<BadgeStore>()(() => ({ failedJobs: 0, refusedFiles: 0 }));

/** True when the admin is not looking at the window (another window or tab has the focus). */
export function inBackground(): boolean {
  return document.visibilityState === 'hidden' || !document.hasFocus();
}

/** Shows one OS notification, if this window can. */
export function showNotification(notification: AppNotification): void {
  if (useShellStore.getState().status?.nativeMenu) {
    void window.proofdesk.appNotify(notification).catch(() => undefined);
    return;
  }
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const shown = new Notification(notification.title, { body: notification.body });
  shown.onclick = () => window.focus();
}

/**
 * Asks the browser for leave to notify (call it from a click or a key press: browsers ignore
 * the question otherwise) and says how it went.
 */
export async function askForNotifications(): Promise<void> {
  const { toast } = useShellStore.getState();
  if (useShellStore.getState().status?.nativeMenu) return toast('info', t('notify.ask.native'));
  if (typeof Notification === 'undefined') return toast('error', t('notify.ask.unsupported'));
  if (Notification.permission === 'denied') return toast('error', t('notify.ask.denied'));
  const answer = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (answer === 'granted') toast('success', t('notify.ask.granted'));
  else toast('info', t('notify.ask.off'));
}

/** What a job holds, named as jobShortName names it; null when it cannot be read (its short uid names it then). */
async function jobNamed(uid: string): Promise<string | null> {
  try {
    const { job, credentials } = await window.proofdesk.jobsGet(uid);
    return jobShortName(job, { credentials: credentials.total, titles: credentials.items.map((c) => c.title), finality: null });
  } catch {
    return null;
  }
}

/** Starts listening (once, from the shell); returns the function that stops. */
export function startNotifier(): () => void {
  const notified = new Set<string>();
  const refused = new Map<string, number>();
  const notify = (key: string, notification: AppNotification | null) => {
    if (!notification || notified.has(key)) return;
    notified.add(key);
    if (inBackground()) showNotification(notification);
  };
  const offs = [
    onAppEvent('job', ({ job_uid, engine, status }) => {
      if (status === 'failed' && !notified.has(`job:${job_uid}:failed`) && useShellStore.getState().section !== 'jobs') {
        useBadgeStore.setState((s) => ({ failedJobs: s.failedJobs + 1 }));
      }
      const key = `job:${job_uid}:${status}`;
      if ((status !== 'finished' && status !== 'failed') || notified.has(key)) return;
      notified.add(key);
      if (!inBackground()) return;
      void jobNamed(job_uid).then((name) => {
        const notification = jobNotification(job_uid, name, engineName(engine), status);
        if (notification && inBackground()) showNotification(notification);
      });
    }),
    onAppEvent('watch-folder', ({ folder }) => {
      const before = refused.get(folder.id);
      refused.set(folder.id, folder.counts.failed);
      // The first event of a folder is its baseline: what it refused before is no news.
      const more = before === undefined ? 0 : folder.counts.failed - before;
      if (more <= 0) return;
      if (useShellStore.getState().section !== 'watch') useBadgeStore.setState((s) => ({ refusedFiles: s.refusedFiles + more }));
      notify(`folder:${folder.id}:${folder.counts.failed}`, refusedNotification(folder, more));
    }),
    onAppEvent('task', ({ task }) => notify(`task:${task.id}`, taskNotification(task))),
    // Opening a section is reading its news.
    useShellStore.subscribe((state, before) => {
      if (state.section === before.section) return;
      if (state.section === 'jobs') useBadgeStore.setState({ failedJobs: 0 });
      if (state.section === 'watch') useBadgeStore.setState({ refusedFiles: 0 });
    }),
  ];
  return () => offs.forEach((off) => off());
}
