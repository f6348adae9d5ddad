/**
 * The IPC slice of CSV import: metadata-only credentials from a CSV file.
 * Preview and check first (column mapping, every row's problems, each on its cell), fix refused
 * cells in the dialog (the edits travel with every call and are checked by the same code the
 * import runs), then import as a task; the result lists what was created and what was refused
 * with the reason. The CSV itself stays on disk, unchanged: only its path crosses.
 */
import type { TaskError, TaskInfo } from '../tasks.js';
import { ServiceError } from '../errors.js';
import { argsOf, expectArgCount, expectObject, expectString, expectInteger, type IpcValidators } from './slice.js';

/** Which column becomes what. Column names are the CSV header's; null means "not used". */
export interface CsvMapping {
  title: string | null;
  /** Tags, several separated by `;` or `|`. */
  tags: string | null;
  expiry_date: string | null;
  /** A row's own key, which other rows' link column may name. */
  key: string | null;
  /** Links: another row's key or an existing credential's uid; several separated by `;` or `|`. */
  link: string | null;
  /** Columns that become metadata, each under its metadata key. */
  metadata: { column: string; key: string }[];
}

/** A cell the admin changed in the dialog; applied in memory, never written to the file. */
export interface CsvCellEdit {
  /** 1-based data row. */
  row: number;
  /** The header's name of the column. */
  column: string;
  value: string;
}

/**
 * What is wrong with a row, as a code the dialog turns into a plain sentence (the spec's id and
 * the technical message stay beside it, for the details).
 */
export type CsvProblemReason =
  | 'title_missing'
  | 'title_too_long'
  | 'metadata_missing'
  | 'metadata_invalid'
  | 'tags_invalid'
  | 'tags_duplicated'
  | 'date_invalid'
  | 'links_invalid'
  | 'link_unknown'
  | 'link_self'
  | 'link_circle'
  | 'link_blocked'
  | 'key_duplicate'
  | 'too_many_fields';

/** One problem of a row: the spec's id, the technical message, the cell it is in and why in a code. */
export interface CsvRowProblem extends TaskError {
  /** The header's name of the column whose cell is wrong; null for the row as a whole. */
  column: string | null;
  reason: CsvProblemReason;
}

/** One data row as it will be created (or why it cannot be). */
export interface CsvRowCheck {
  /** 1-based data row (the header is row 0). */
  row: number;
  /** The line of the file it starts on. */
  line: number;
  key: string | null;
  title: string;
  tags: string[];
  expiry_date: string | null;
  metadata: Record<string, string>;
  links: string[];
  /** The row's cells in the header's order (edits applied), for the preview table. */
  cells: string[];
  /** Every problem found, each with the spec's error id. Empty: the row can be created. */
  errors: CsvRowProblem[];
}

export interface CsvPreview {
  file_name: string;
  columns: string[];
  /** The mapping used (the one given, or one guessed from the header). */
  mapping: CsvMapping;
  total_rows: number;
  valid_rows: number;
  /**
   * The rows of the preview table, in row order: the first PREVIEW_ROWS, every row with a
   * problem (at most MAX_ERROR_ROWS) and every edited row.
   */
  rows: CsvRowCheck[];
  /** A problem with the file as a whole (no header, unreadable): nothing can be imported. */
  file_error: TaskError | null;
}

export interface CsvImportOptions {
  /** Schedule every created credential on this engine; null creates only. */
  engine: string | null;
  /** Only these data rows (those not created yet); null means every row. */
  rows: number[] | null;
  /** Cells changed in the dialog, applied before the rows are checked and created. */
  edits: CsvCellEdit[];
}

export interface CsvImportResult {
  created: { row: number; uid: string; title: string }[];
  refused: { row: number; line: number; title: string; error: TaskError }[];
  /** Rows not tried: the import was cancelled first, or a row they link to was not created. */
  not_created: { row: number; line: number; title: string; reason: string }[];
}

export interface CsvImportIpc {
  /** Reads and checks the file with the edits applied: columns, a mapping, the rows to show, every row's problems. Creates nothing. */
  'csvImport:preview': { args: [path: string, mapping: CsvMapping | null, edits: CsvCellEdit[]]; result: CsvPreview };
  /** Imports the rows as a task, in link order; each row all or nothing. */
  'csvImport:run': { args: [path: string, mapping: CsvMapping, options: CsvImportOptions]; result: TaskInfo<CsvImportResult> };
  /** What an import task created and refused, also after a cancel (a cancelled task carries no result). Null for an unknown task. */
  'csvImport:outcome': { args: [taskId: string]; result: CsvImportResult | null };
  /** A template CSV to fill in: its name and text. */
  'csvImport:template': { args: []; result: { file_name: string; text: string } };
}

export const PREVIEW_ROWS = 1000;
/** Most edits one import carries (a dialog is for fixing the refused, not retyping a file). */
export const MAX_EDITS = 10_000;
const CELL_MAX = 100_000;
export const MAX_ERROR_ROWS = 1000;

const COLUMN_MAX = 200;

function column(value: unknown, name: string): string | null {
  return value === null ? null : expectString(value, name, COLUMN_MAX);
}

/** Checks a mapping from the renderer. */
export function expectMapping(value: unknown): CsvMapping {
  const raw = expectObject(value, 'mapping');
  if (!Array.isArray(raw.metadata) || raw.metadata.length > 500) throw new ServiceError('invalid_value', 'mapping.metadata must be a list of at most 500 columns');
  return {
    title: column(raw.title, 'mapping.title'),
    tags: column(raw.tags, 'mapping.tags'),
    expiry_date: column(raw.expiry_date, 'mapping.expiry_date'),
    key: column(raw.key, 'mapping.key'),
    link: column(raw.link, 'mapping.link'),
    metadata: raw.metadata.map((m: unknown, i) => {
      const entry = expectObject(m, `mapping.metadata[${i}]`);
      return { column: expectString(entry.column, `mapping.metadata[${i}].column`, COLUMN_MAX), key: expectString(entry.key, `mapping.metadata[${i}].key`, COLUMN_MAX) };
    }),
  };
}

/** A cell's new text: any text, empty too (emptying a cell is an edit). */
function expectCell(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length > CELL_MAX) throw new ServiceError('invalid_value', `${name} must be a text of at most ${CELL_MAX} characters`);
  return value;
}

/** Checks the cell edits from the renderer (that each names a row and column of the file is checked in main). */
export function expectEdits(value: unknown): CsvCellEdit[] {
  if (!Array.isArray(value) || value.length > MAX_EDITS) throw new ServiceError('invalid_value', `edits must be a list of at most ${MAX_EDITS} changed cells`);
  return value.map((e: unknown, i) => {
    const edit = expectObject(e, `edits[${i}]`);
    return { row: expectInteger(edit.row, `edits[${i}].row`, 1, 10_000_000), column: expectString(edit.column, `edits[${i}].column`, COLUMN_MAX), value: expectCell(edit.value, `edits[${i}].value`) };
  });
}

export const CSV_IMPORT_IPC: IpcValidators<CsvImportIpc> = {
  'csvImport:preview': (args) => {
    expectArgCount('csvImport:preview', args, 3);
    return [expectString(args[0], 'path', 4096), args[1] === null ? null : expectMapping(args[1]), expectEdits(args[2])];
  },
  'csvImport:run': (args) => {
    expectArgCount('csvImport:run', args, 3);
    const options = expectObject(args[2], 'options');
    const engine = options.engine === null ? null : expectString(options.engine, 'options.engine', 100);
    let rows: number[] | null = null;
    if (options.rows !== null) {
      if (!Array.isArray(options.rows) || options.rows.length === 0 || options.rows.length > 1_000_000) {
        throw new ServiceError('invalid_value', 'options.rows must list the rows to import, or be null for all');
      }
      rows = options.rows.map((r: unknown, i) => expectInteger(r, `options.rows[${i}]`, 1, 10_000_000));
    }
    return [expectString(args[0], 'path', 4096), expectMapping(args[1]), { engine, rows, edits: expectEdits(options.edits) }];
  },
  'csvImport:outcome': (args) => {
    expectArgCount('csvImport:outcome', args, 1);
    return [expectString(args[0], 'taskId', 200)];
  },
  'csvImport:template': argsOf('csvImport:template', []),
};
