/**
 * Writes a list export to a file as a task: page after page into a hidden file beside the
 * target, renamed onto it once complete, so the target is the whole export or untouched.
 * Progress is the rows written of the list's total; a cancel stops between pages and removes
 * the partial file.
 */
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ListExportFormat } from '../../../common/ipc/list-export.js';
import type { TaskContext } from '../../../common/tasks.js';
import type { ExportRows } from './list-rows.js';
import { openSheet } from './sheet-writer.js';

export interface ListExportTarget {
  format: ListExportFormat;
  /** The file to write (made or replaced). */
  path: string;
  /** The workbook's sheet name (`Records`, `Jobs`). */
  sheetName: string;
}

/**
 * Writes the rows to the target; answers the number of data rows written.
 *
 * @example const rows = await writeListExport({ format: 'xlsx', path, sheetName: 'Jobs' }, jobRows(service, undefined, sort), task)
 */
export async function writeListExport(target: ListExportTarget, list: ExportRows, task: TaskContext): Promise<number> {
  const partial = join(dirname(target.path), `.${basename(target.path)}.${randomUUID()}.partial`);
  const sheet = openSheet(target.format, partial, target.sheetName);
  let written = 0;
  try {
    await sheet.write([list.header]);
    for await (const page of list.pages) {
      task.signal.throwIfAborted();
      await sheet.write(page.rows);
      written += page.rows.length;
      task.progress(written, Math.max(page.total, written));
    }
    task.signal.throwIfAborted();
    await sheet.close();
    await rename(partial, target.path);
    return written;
  } catch (error) {
    await sheet.abort();
    await rm(partial, { force: true });
    throw error;
  }
}
