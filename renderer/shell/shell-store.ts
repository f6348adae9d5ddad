import { create } from 'zustand';
import { useI18nStore } from '../i18n/i18n-store.js';
import type { AppStatus } from '../../common/ipc-contract.js';
import type { TaskInfo } from '../../common/tasks.js';
import { toServiceError } from '../ipc-error.js';
import { onAppEvent } from './app-events.js';
import type { SectionId } from './sections.js';

export interface Toast {
  id: string;
  tone: 'success' | 'error' | 'info';
  text: string;
}

/**
 * The status before main answered. Not null on purpose: selectors such as
 * `s.status?.engines ?? []` would then make a new array on every read, which React's store
 * subscription takes for a change on every render (an endless update loop).
 */
const LOADING_STATUS: AppStatus = { partner: null, partners: [], engines: [], keyStore: null, issuingOff: null, mode: 'embedded', canChooseFolder: false, nativeMenu: false, version: '', osLocale: null };

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
  toast(tone: Toast['tone'], text: string): void;
  dismissToast(id: string): void;
  /** Starts listening to main's events (once, from the shell). */
  connect(): () => void;
}

let toastSeq = 0;
const TOAST_MS = 6000;

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
      get().toast('error', toServiceError(error).message);
    }
  },
  async cancelTask(taskId) {
    try {
      const task = await window.proofdesk.tasksCancel(taskId);
      set((s) => ({ tasks: { ...s.tasks, [task.id]: task } }));
    } catch (error) {
      get().toast('error', toServiceError(error).message);
    }
  },
  toast(tone, text) {
    const id = `toast-${++toastSeq}`;
    set((s) => ({ toasts: [...s.toasts, { id, tone, text }].slice(-4) }));
    // Errors stay until dismissed: the admin has to read them.
    if (tone !== 'error') setTimeout(() => get().dismissToast(id), TOAST_MS);
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  connect() {
    void window.proofdesk.tasksList().then((list) => set({ tasks: Object.fromEntries(list.map((t) => [t.id, t])) }), () => undefined);
    const offs = [
      onAppEvent('task', ({ task }) => {
        const before = get().tasks[task.id];
        set((s) => ({ tasks: { ...s.tasks, [task.id]: task } }));
        if (before?.state === 'running' || (!before && task.state !== 'running')) {
          // Staging says how its rows came out ("2 created, 2 failed"): a done task may hold failed rows.
          if (task.state === 'done' && task.kind !== 'create-credentials') get().toast('success', `${task.label}: done.`);
          if (task.state === 'failed') get().toast('error', `${task.label} failed: ${task.error?.message ?? 'unknown error'} (${task.error?.id ?? 'internal_error'})`);
          if (task.state === 'cancelled') get().toast('info', `${task.label}: cancelled.`);
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
