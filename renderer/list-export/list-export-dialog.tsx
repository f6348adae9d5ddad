import { useEffect, useState } from 'react';
import type { ExportList, ListExportFormat, ListExportRequest, ListExportResult } from '../../common/ipc/list-export.js';
import type { TaskInfo } from '../../common/tasks.js';
import { useJobsStore } from '../jobs/jobs-store.js';
import { recordColumnIds } from '../records/record-columns.js';
import { useRecordsStore } from '../records/records-store.js';
import { DialogActions, DialogError, useDialogTask } from '../shell/dialog-footer.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { t as translate } from '../i18n/i18n-store.js';
import { useT } from '../i18n/use-t.js';
import './list-export.css';
import { taskLabel } from '../shell/task-label.js';
import { saveUrl } from '../shell/save-text.js';

/** The request for the list as its view shows it now: filter, sort and (Records) the table's columns in order. */
function requestFor(list: ExportList, format: ListExportFormat): ListExportRequest {
  if (list === 'records') {
    const { filter, sort, engines } = useRecordsStore.getState();
    // The uid first: the table names a record by its title, a program reading the file needs the uid.
    return { list, format, filter, sort, columns: ['uid', ...recordColumnIds(engines, translate)] };
  }
  const { status, sort } = useJobsStore.getState();
  return { list, format, ...(status ? { status } : {}), sort };
}

/**
 * `Export list`: the Records list (its filter, sort and columns) or the Jobs list (its status
 * and sort) as a CSV file or an Excel workbook. Main writes it page by page as a task; the
 * dialog shows the rows written of the total with `Cancel export`, then where the file went:
 * saved where the save dialog said (Electron), or downloaded (the browser).
 */
export function ListExportDialog({ list, onClose }: { list: ExportList; onClose: () => void }) {
  const t = useT();
  const [format, setFormat] = useState<ListExportFormat>('csv');
  const [taskId, setTaskId] = useState<string | null>(null);
  const { busy, error, run } = useDialogTask();
  const task = useShellStore((s) => (taskId ? (s.tasks[taskId] as TaskInfo<ListExportResult> | undefined) : undefined));
  const recordTotal = useRecordsStore((s) => s.total);
  const filtered = useRecordsStore((s) => Object.keys(s.filter).length > 0);
  const jobTotal = useJobsStore((s) => s.total);
  const jobStatus = useJobsStore((s) => s.status);

  const result = task?.state === 'done' ? task.result : undefined;
  // Once, when the export is done: the browser downloads the file from the bridge.
  useEffect(() => {
    if (result?.download) saveUrl(result.fileName, result.download);
  }, [result]);

  const what =
    list === 'records'
      ? t('listExport.what.records', { count: recordTotal, filtered: filtered ? 'yes' : 'no' })
      : t('listExport.what.jobs', { count: jobTotal, status: jobStatus ?? 'all' });

  if (taskId) {
    const running = !task || task.state === 'running';
    return (
      <Modal title={t('listExport.title')} onClose={() => (running ? undefined : onClose())}>
        <p>{task ? taskLabel(task) : t('listExport.exporting')}</p>
        <progress className="list-export-progress" aria-label={task ? taskLabel(task) : t('listExport.exporting')} max={task?.total ?? undefined} value={task && task.total !== null ? task.done : undefined} />
        <p role="status" data-testid="export-progress">
          {task ? t('listExport.progress', { done: task.done, total: task.total ?? 0 }) : ''}
          {task?.state === 'done' && result && (result.path ? t('listExport.saved', { path: result.path }) : t('listExport.downloaded', { file: result.fileName }))}
          {task?.state === 'cancelled' && t('listExport.cancelled')}
        </p>
        <DialogError error={task?.state === 'failed' ? (task.error ?? { id: 'internal_error', message: t('listExport.failed') }) : null} />
        <div className="dialog-actions">
          {running ? (
            <button type="button" onClick={() => void useShellStore.getState().cancelTask(taskId)}>
              {t('listExport.cancel')}
            </button>
          ) : (
            <button type="button" className="primary" onClick={onClose} autoFocus>
              {t('listExport.close')}
            </button>
          )}
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={t('listExport.title')} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            const started = await window.proofdesk.listExportStart(requestFor(list, format));
            // null: the save dialog was cancelled, nothing was written.
            if (started) setTaskId(started.id);
          });
        }}
      >
        <p className="muted">{what}</p>
        <fieldset className="field">
          <legend>{t('listExport.format')}</legend>
          <label>
            <input type="radio" name="export-format" value="csv" checked={format === 'csv'} onChange={() => setFormat('csv')} autoFocus /> {t('listExport.format.csv')}
          </label>
          <label>
            <input type="radio" name="export-format" value="xlsx" checked={format === 'xlsx'} onChange={() => setFormat('xlsx')} /> {t('listExport.format.xlsx')}
          </label>
        </fieldset>
        <DialogError error={error} />
        <DialogActions label={t('listExport.submit')} disabled={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}
