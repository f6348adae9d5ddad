/**
 * One sheet of rows written to a file as it comes, in either export format: CSV (UTF-8 with a
 * byte order mark, so Excel reads the accents; CRLF lines; every text through csvField, which
 * quotes and defuses formulas) or an Excel workbook through exceljs's streaming writer (each
 * row is committed and flushed, so 100,000 rows never sit in memory). Text is written as text
 * cells and numbers as number cells; nothing is ever written as a formula.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import { csvField } from '../../../common/csv-field.js';
import type { ListExportFormat } from '../../../common/ipc/list-export.js';

/** A cell: text, a plain number, or empty. */
export type Cell = string | number | null;

export interface SheetWriter {
  /** Appends rows (the first call's first row is the header); resolves once they are handed to the file. */
  write(rows: readonly (readonly Cell[])[]): Promise<void>;
  /** Finishes the file and closes it. */
  close(): Promise<void>;
  /** Stops writing and closes the file as it is (the caller removes it). */
  abort(): Promise<void>;
}

const BOM = '\uFEFF';

function csvCell(cell: Cell): string {
  if (cell === null) return '';
  return typeof cell === 'number' ? String(cell) : csvField(cell);
}

async function ended(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  stream.end();
  await once(stream, 'close');
}

function csvSheet(path: string): SheetWriter {
  const stream = createWriteStream(path, { mode: 0o600 });
  const failed = once(stream, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => undefined); // raised where a write or close awaits it
  stream.write(BOM);
  return {
    async write(rows) {
      const text = rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
      if (!stream.write(text)) await Promise.race([once(stream, 'drain'), failed]);
    },
    close: () => Promise.race([ended(stream), failed]),
    abort: () => ended(stream).catch(() => undefined),
  };
}

function xlsxSheet(path: string, sheetName: string): SheetWriter {
  // The file stream is ours, with its error listened to at once: exceljs listens only while it
  // commits, and a disk that fills up before then must fail the export, not the process.
  const stream = createWriteStream(path, { mode: 0o600 });
  let failure: Error | null = null;
  stream.on('error', (error) => (failure = error));
  const check = () => {
    if (failure) throw failure;
  };
  // No shared strings table: it would keep every distinct text of the export in memory.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet(sheetName);
  return {
    async write(rows) {
      check();
      for (const row of rows) sheet.addRow(row as Cell[]).commit();
      // Let the zip stream drain between pages.
      await new Promise<void>((done) => setImmediate(done));
    },
    async close() {
      check();
      sheet.commit();
      await workbook.commit();
      if (!stream.closed) await once(stream, 'close');
      check();
    },
    async abort() {
      stream.destroy();
      if (!stream.closed) await once(stream, 'close');
    },
  };
}

/**
 * Opens a new sheet file at `path` (overwritten if it exists).
 *
 * @example const sheet = openSheet('csv', '/tmp/records.csv', 'Records'); await sheet.write([header]); await sheet.close();
 */
export function openSheet(format: ListExportFormat, path: string, sheetName: string): SheetWriter {
  return format === 'csv' ? csvSheet(path) : xlsxSheet(path, sheetName);
}
