/**
 * What a toast says when background work ends: the real outcome from the task's result ("3
 * created, 1 failed"), and the one action that fits it — Review the failed rows, Undo a tag
 * change, Show in folder an export the app just saved.
 */
import type { CsvImportResult } from '../../common/ipc/csv-import.js';
import type { ListExportResult } from '../../common/ipc/list-export.js';
import type { BulkScheduleResult, BulkTagResult, BulkUnscheduleResult, ProofExportResult, TagUndoResult } from '../../common/records.js';
import type { TaskInfo } from '../../common/tasks.js';
import { chainName, type EngineChain } from '../format/chain-display.js';
import { t } from '../i18n/i18n-store.js';
import { toServiceError } from '../ipc-error.js';
import { firstSentence, type ShownError } from './error-line.js';
import { taskLabel } from './task-label.js';
import type { SectionId } from './sections.js';

/** A button on a toast: its label and what it does; the toast goes once it is pressed. */
export interface ToastAction {
  label: string;
  run(): void | Promise<void>;
}

/** A toast to show: tone, one sentence, and optionally an action and an error's Details. */
export interface ToastInput {
  tone: 'success' | 'error' | 'info';
  text: string;
  action?: ToastAction;
  error?: ShownError;
}

/** What the outcome toasts need from the shell (kept apart so this module stays free of the store). */
export interface ToastShell {
  go(section: SectionId): void;
  engines: EngineChain[];
  canShowInFolder: boolean;
  /** Says a failed action (Undo, Show in folder) in a toast of its own. */
  fail(error: unknown): void;
}

function showInFolder(shell: ToastShell, path: string | null): ToastAction | undefined {
  if (!path || !shell.canShowInFolder) return undefined;
  return { label: t('shell.toast.showInFolder'), run: () => window.proofdesk.appShowInFolder(path).catch(shell.fail) };
}

/** The task's result when it has the shape its kind promises (it has `key`); else undefined and the toast says "Done". */
function resultOf<R>(task: TaskInfo, key: string): R | undefined {
  const result = task.result;
  return typeof result === 'object' && result !== null && key in result ? (result as R) : undefined;
}

/** The toast for a task that ended done: what it did, counted, and its action. */
function doneToast(task: TaskInfo, shell: ToastShell): ToastInput | null {
  switch (task.kind) {
    // Staging words its own outcome from its rows (those refused before sending too), with Review.
    case 'create-credentials':
      return null;
    case 'csv-import': {
      const r = resultOf<CsvImportResult>(task, 'refused');
      if (!r) break;
      const refused = r.refused.length + r.not_created.length;
      if (refused === 0) return { tone: 'success', text: t('shell.toast.created', { created: r.created.length }) };
      return { tone: 'error', text: t('shell.toast.imported', { created: r.created.length, refused }) };
    }
    case 'tags-add':
    case 'tags-replace':
    case 'tag-remove': {
      const r = resultOf<BulkTagResult>(task, 'changed');
      if (!r) break;
      const mode = task.kind === 'tags-add' ? 'add' : task.kind === 'tags-replace' ? 'replace' : 'remove';
      const text = t('shell.toast.tagged', { mode, changed: r.changed, unchanged: r.selected - r.changed });
      const token = r.undo;
      if (!token) return { tone: 'success', text };
      return { tone: 'success', text, action: { label: t('shell.toast.undo'), run: () => window.proofdesk.recordsUndoTags(token).then(() => undefined, shell.fail) } };
    }
    case 'tags-undo': {
      const r = resultOf<TagUndoResult>(task, 'restored');
      if (!r) break;
      return { tone: 'success', text: t('shell.toast.undone', { restored: r.restored, skipped: r.skipped }) };
    }
    case 'schedule': {
      const r = resultOf<BulkScheduleResult>(task, 'engines');
      if (!r) break;
      const scheduled = r.engines.reduce((n, e) => n + e.scheduled, 0);
      const taken = r.engines.reduce((n, e) => n + e.alreadyTaken, 0);
      const names = r.engines.map((e) => chainName(shell.engines.find((s) => s.id === e.engine) ?? { id: e.engine, chain_id: null })).join(', ');
      return { tone: 'success', text: t('shell.toast.scheduled', { scheduled, taken, engines: names }), action: { label: t('shell.toast.showJobs'), run: () => shell.go('jobs') } };
    }
    case 'unschedule': {
      const r = resultOf<BulkUnscheduleResult>(task, 'unscheduled');
      if (!r) break;
      return { tone: 'success', text: t('shell.toast.unscheduled', { unscheduled: r.unscheduled, deleted: r.deleted, notScheduled: r.notScheduled }) };
    }
    case 'export-list': {
      const r = resultOf<ListExportResult>(task, 'rows');
      if (!r) break;
      const action = showInFolder(shell, r.path);
      return { tone: 'success', text: t('shell.toast.exported', { rows: r.rows, file: r.fileName, downloaded: r.path ? 'no' : 'yes' }), ...(action ? { action } : {}) };
    }
    case 'export-proofs': {
      const r = resultOf<ProofExportResult>(task, 'written');
      if (!r) break;
      const action = showInFolder(shell, r.folder);
      return { tone: 'success', text: t('shell.toast.proofsSaved', { written: r.written, folder: r.folder, without: r.withoutCertificate }), ...(action ? { action } : {}) };
    }
    default:
      break;
  }
  return { tone: 'success', text: t('shell.toast.done', { task: taskLabel(task) }) };
}

/** The toast for a task that ended (done, failed or cancelled); null while it runs. */
export function taskToast(task: TaskInfo, shell: ToastShell): ToastInput | null {
  if (task.state === 'done') return doneToast(task, shell);
  if (task.state === 'cancelled') return { tone: 'info', text: t('shell.toast.cancelled', { task: taskLabel(task) }) };
  if (task.state === 'failed') {
    const error = task.error ?? toServiceError(new Error(t('shell.toast.unknownError')));
    const [reason] = firstSentence(error.message);
    return { tone: 'error', text: t('shell.toast.failed', { task: taskLabel(task), reason }), error: { id: error.id, message: error.message } };
  }
  return null;
}
