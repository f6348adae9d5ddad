import { create } from 'zustand';
import { useI18nStore } from '../i18n/i18n-store.js';
import type { AppStatus } from '../../common/ipc/app.js';
import type { TaskInfo } from '../../common/tasks.js';
import { toServiceError } from '../ipc-error.js';
import { onAppEvent } from './app-events.js';
import type { SectionId } from './sections.js';
import type { ShownError } from './error-line.js';
import { taskToast, type ToastAction, type ToastInput } from './task-toasts.js';

export interface Toast extends ToastInput {
  id: string;
}

/**
 * The status before main answered. Not null on purpose: selectors such as
 * `s.status?.engines ?? []` would then make a new array on every read, which React's store
 * subscription takes for a change on every render (an endless update loop).
 */
const LOADING_STATUS: AppStatus = { partner: null, partners: [], engines: [], keyStore: null, issuingOff: null, mode: 'embedded', canChooseFolder: false, canShowInFolder: false, nativeMenu: false, version: '', osLocale: null };

export interface ShellStore {
  section: SectionId;
  status: AppStatus | null;
  /** False until main answered the first `app:status`. */
  statusLoaded: boolean;
  statusError: string | null;
  /** Tasks in main, by id: running ones show in the status bar. */
  tasks: Record<string, TaskInfo>;
  toasts: Toast[];
  go(section: SectionId): void;
  loadStatus(): Promise<void>;
  switchPartner(partnerId: string): Promise<void>;
  cancelTask(taskId: string): Promise<void>;
  /**
   * Shows a toast. Errors, and toasts with an action (Undo, Review, Show in
   * folder), stay until dismissed or acted on; others go after a while.
   */
  toast(tone: Toast['tone'], text: string, options?: { action?: ToastAction; error?: ShownError }): void;
  /** Says a failed call in an error toast: its sentence, the spec's id and main's whole text under Details. */
  toastError(error: unknown): void;
  /** Runs a toast's action, then dismisses it. */
  actOnToast(id: string): void;
  dismissToast(id: string): void;
  /** Starts listening to main's events (once, from the shell). */
  connect(): () => void;
}

let toastSeq = 0;
/** How long a toast with nothing to act on stays: long enough to read a sentence twice. */
const TOAST_MS = 10_000;
/** Toasts shown at once; the oldest goes first. */
const MAX_TOASTS = 5;

/** The shell's state: the open section, the status bar and background work, toasts. */
export const useShellStore = create<ShellStore>()((set, get) => ({
  section: 'records',
  status: LOADING_STATUS,
  statusLoaded: false,
  statusError: null,
  tasks: {},
  toasts: [],
  go: (section) => set({ section }),
  async loadStatus() {
    try {
      const status = await window.proofdesk.appStatus();
      useI18nStore.getState().setOsLocale(status.osLocale);
      set({ status, statusLoaded: true, statusError: null });
    } catch (error) {
      set({ statusError: toServiceError(error).message });
    }
  },
  async switchPartner(partnerId) {
    try {
      set({ status: await window.proofdesk.appSwitchPartner(partnerId) });
    } catch (error) {
      get().toastError(error);
    }
  },
  async cancelTask(taskId) {
    try {
      const task = await window.proofdesk.tasksCancel(taskId);
      set((s) => ({ tasks: { ...s.tasks, [task.id]: task } }));
    } catch (error) {
      get().toastError(error);
    }
  },
  toast(tone, text, options = {}) {
    const id = `toast-${++toastSeq}`;
    set((s) => ({ toasts: [...s.toasts, { id, tone, text, ...options }].slice(-MAX_TOASTS) }));
    // Errors stay until dismissed (the admin has to read them), and so does an offer to act (Undo, Review).
    if (tone !== 'error' && !options.action) setTimeout(() => get().dismissToast(id), TOAST_MS);
  },
  toastError(error) {
    const { id, message } = toServiceError(error);
    get().toast('error', message, { error: { id, message } });
  },
  actOnToast(id) {
    const toast = get().toasts.find((t) => t.id === id);
    get().dismissToast(id);
    void toast?.action?.run();
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  connect() {
    void window.proofdesk.tasksList().then((list) => set({ tasks: Object.fromEntries(list.map((t) => [t.id, t])) }), () => undefined);
    const offs = [
      onAppEvent('task', ({ task }) => {
        const before = get().tasks[task.id];
        set((s) => ({ tasks: { ...s.tasks, [task.id]: task } }));
        if (before?.state === 'running' || (!before && task.state !== 'running')) {
          const shown = taskToast(task, {
            go: (section) => get().go(section),
            engines: get().status?.engines ?? [],
            canShowInFolder: get().status?.canShowInFolder ?? false,
            fail: (error) => get().toastError(error),
          });
          if (shown) get().toast(shown.tone, shown.text, { ...(shown.action ? { action: shown.action } : {}), ...(shown.error ? { error: shown.error } : {}) });
        }
      }),
      onAppEvent('partner', () => void get().loadStatus()),
      onAppEvent('engine', () => void get().loadStatus()),
    ];
    return () => offs.forEach((off) => off());
  },
}));

/** Running tasks, oldest first. */
export function runningTasks(tasks: Record<string, TaskInfo>): TaskInfo[] {
  return Object.values(tasks)
    .filter((t) => t.state === 'running')
    .sort((a, b) => a.started_at.localeCompare(b.started_at));
}
