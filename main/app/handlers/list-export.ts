/**
 * Handler of list exports (common/ipc/list-export.ts): the Records or Jobs list, as the view
 * filters and sorts it, written by main page by page as a task. The Electron window asks where
 * with the OS save dialog; the browser bridge writes into its private downloads folder and the
 * page downloads the finished file. A finished export is logged as `exported` in the activity
 * log of the embedded engine.
 */
import { stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute } from 'node:path';
import { ServiceError } from '../../../common/errors.js';
import { DEFAULT_JOB_SORT } from '../../../common/ipc/jobs.js';
import type { ListExportFormat, LIST_EXPORT_IPC, ListExportRequest, ListExportResult } from '../../../common/ipc/list-export.js';
import { recordPartnerActivity } from '../../engine/activity.js';
import { jobRows, recordRows, type ExportRows } from '../../workspace/list-export/list-rows.js';
import { writeListExport } from '../../workspace/list-export/write-list-export.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';
import { exportDownloads } from './list-export-downloads.js';
import { credentialCount } from './records.js';
import type { TaskLabelCode } from '../../../common/tasks.js';

const MEDIA_TYPES: Record<ListExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** `records-2026-11-26.csv`: the list and the day (UTC) it was exported. */
export function exportFileName(request: Pick<ListExportRequest, 'list' | 'format'>, now = new Date()): string {
  return `${request.list}-${now.toISOString().slice(0, 10)}.${request.format}`;
}

/**
 * Checks the path the save dialog answered: absolute, in an existing folder, not a folder
 * itself; the format's extension is added when the name lacks it.
 */
export async function checkSavePath(chosen: string, format: ListExportFormat): Promise<string> {
  if (!isAbsolute(chosen) || chosen.includes('\0')) throw new ServiceError('invalid_value', `Cannot save to ${JSON.stringify(chosen)}: choose a file in a folder.`);
  const path = extname(chosen).toLowerCase() === `.${format}` ? chosen : `${chosen}.${format}`;
  const folder = await stat(dirname(path)).catch(() => null);
  if (!folder?.isDirectory()) throw new ServiceError('invalid_value', `The folder ${dirname(path)} does not exist.`);
  const existing = await stat(path).catch(() => null);
  if (existing && !existing.isFile()) throw new ServiceError('invalid_value', `${path} is not a file; choose another name.`);
  return path;
}

export function createListExportHandlers(ctx: AppContext): HandlersOf<typeof LIST_EXPORT_IPC> {
  /** The rows of the list, its total and the task's words for it; checks the request first. */
  const listOf = async (request: ListExportRequest): Promise<{ rows: ExportRows; total: number; what: string }> => {
    const { service } = ctx.require();
    if (request.list === 'jobs') {
      const total = (await service.listJobs({ ...(request.status ? { status: request.status } : {}), per_page: 1 })).total_items;
      const what = `${total.toLocaleString('en-US')} ${request.status ? `${request.status} ` : ''}job${total === 1 ? '' : 's'}`;
      return { rows: jobRows(service, request.status, request.sort ?? DEFAULT_JOB_SORT), total, what };
    }
    const records = ctx.records();
    // A state column of an unknown engine fails now (wrong_blockchain_engine), before a task starts.
    records.checkEngines(request.columns.filter((column) => column.startsWith('state:')).map((column) => column.slice('state:'.length)));
    const total = await records.total(request.filter);
    return { rows: recordRows((window) => records.window(window), request.filter, request.sort, request.columns), total, what: credentialCount(total) };
  };

  return {
    'listExport:start': async (request) => {
      const { rows, total, what } = await listOf(request);
      const fileName = exportFileName(request);
      // The activity log is the embedded engine's; the scope is taken now, as the Partner may change meanwhile.
      const scope = ctx.engine ? ctx.scope() : null;
      let path: string;
      let download: { token: string; url: string } | null = null;
      if (ctx.chooseFile) {
        const chosen = await ctx.chooseFile({ kind: 'save', title: 'native.dialog.exportList', defaultName: fileName, extensions: [request.format], filterName: request.format === 'csv' ? 'native.filter.csv' : 'native.filter.xlsx' });
        if (chosen === null) return null;
        path = await checkSavePath(chosen, request.format);
      } else {
        const reserved = exportDownloads.reserve(fileName, MEDIA_TYPES[request.format]);
        path = reserved.path;
        download = reserved;
      }
      const sheetName = request.list === 'records' ? 'Records' : 'Jobs';
      const label = `Exporting ${what} to ${request.format === 'csv' ? 'CSV' : 'an Excel workbook'}`;
      const code: TaskLabelCode =
        request.list === 'jobs' ? { id: 'exportJobs', count: total, format: request.format, ...(request.status ? { name: request.status } : {}) } : { id: 'exportRecords', count: total, format: request.format };
      return ctx.tasks.start<ListExportResult>(
        'export-list',
        { text: label, code },
        async (task) => {
          let written: number;
          try {
            written = await writeListExport({ format: request.format, path, sheetName }, rows, task);
          } catch (error) {
            if (download) await exportDownloads.drop(download.token);
            throw error;
          }
          if (download) exportDownloads.ready(download.token);
          else ctx.written.remember(path);
          if (scope) recordPartnerActivity(scope, 'exported', { list: request.list, format: request.format, rows: written, file: download ? fileName : path });
          return { list: request.list, format: request.format, rows: written, fileName, path: download ? null : path, download: download?.url ?? null };
        },
        total,
      );
    },
  };
}
