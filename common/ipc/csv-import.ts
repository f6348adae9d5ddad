/**
 * The IPC slice of CSV import: metadata-only credentials from a CSV file.
 * Preview and check first (column mapping, every row's problems, each on its cell), fix refused
 * cells in the dialog (the edits travel with every call and are checked by the same code the
 * import runs), then import as a task; the result lists what was created and what was refused
 * with the reason. The CSV itself stays on disk, unchanged: only its path crosses.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { TaskError, TaskInfo } from '../tasks.js';
import { argsOf } from './slice.js';

const COLUMN_MAX = 200;
const CELL_MAX = 100_000;
/** Most edits one import carries (a dialog is for fixing the refused, not retyping a file). */
export const MAX_EDITS = 10_000;

const Column = Type.String({ minLength: 1, maxLength: COLUMN_MAX });
const MappedColumn = Type.Union([Column, Type.Null()]);
const CsvPath = Type.String({ minLength: 1, maxLength: 4096 });
const DataRow = Type.Integer({ minimum: 1, maximum: 10_000_000 });

/** Which column becomes what. Column names are the CSV header's; null means "not used". */
const CsvMappingSchema = Type.Object(
  {
    title: MappedColumn,
    /** Tags, several separated by `;` or `|`. */
    tags: MappedColumn,
    expiry_date: MappedColumn,
    /** A row's own key, which other rows' link column may name. */
    key: MappedColumn,
    /** Links: another row's key or an existing credential's uid; several separated by `;` or `|`. */
    link: MappedColumn,
    /** Columns that become metadata, each under its metadata key. */
    metadata: Type.Array(Type.Object({ column: Column, key: Column }, { additionalProperties: false }), { maxItems: 500 }),
  },
  { additionalProperties: false },
);
export type CsvMapping = Static<typeof CsvMappingSchema>;

/** A cell the admin changed in the dialog; applied in memory, never written to the file. */
const CsvCellEditSchema = Type.Object(
  {
    /** 1-based data row (that it is a row of the file is checked in main). */
    row: DataRow,
    /** The header's name of the column. */
    column: Column,
    /** Any text, empty too (emptying a cell is an edit). */
    value: Type.String({ maxLength: CELL_MAX }),
  },
  { additionalProperties: false },
);
export type CsvCellEdit = Static<typeof CsvCellEditSchema>;
const CsvEditsSchema = Type.Array(CsvCellEditSchema, { maxItems: MAX_EDITS });

const CsvImportOptionsSchema = Type.Object(
  {
    /** Schedule every created credential on this engine; null creates only. */
    engine: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()]),
    /** Only these data rows (those not created yet); null means every row. */
    rows: Type.Union([Type.Array(DataRow, { minItems: 1, maxItems: 1_000_000 }), Type.Null()]),
    /** Cells changed in the dialog, applied before the rows are checked and created. */
    edits: CsvEditsSchema,
  },
  { additionalProperties: false },
);
export type CsvImportOptions = Static<typeof CsvImportOptionsSchema>;

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

export interface CsvImportResult {
  created: { row: number; uid: string; title: string }[];
  refused: { row: number; line: number; title: string; error: TaskError }[];
  /** Rows not tried: the import was cancelled first, or a row they link to was not created. */
  not_created: { row: number; line: number; title: string; reason: string }[];
}

export const PREVIEW_ROWS = 1000;
export const MAX_ERROR_ROWS = 1000;

export const CSV_IMPORT_IPC = {
  /** Reads and checks the file with the edits applied: columns, a mapping, the rows to show, every row's problems. Creates nothing. */
  'csvImport:preview': argsOf('csvImport:preview', ['path', 'mapping', 'edits'], CsvPath, Type.Union([CsvMappingSchema, Type.Null()]), CsvEditsSchema).returns<CsvPreview>(),
  /** Imports the rows as a task, in link order; each row all or nothing. */
  'csvImport:run': argsOf('csvImport:run', ['path', 'mapping', 'options'], CsvPath, CsvMappingSchema, CsvImportOptionsSchema).returns<TaskInfo<CsvImportResult>>(),
  /** What an import task created and refused, also after a cancel (a cancelled task carries no result). Null for an unknown task. */
  'csvImport:outcome': argsOf('csvImport:outcome', ['taskId'], Type.String({ minLength: 1, maxLength: 200 })).returns<CsvImportResult | null>(),
  /** A template CSV to fill in: its name and text. */
  'csvImport:template': argsOf('csvImport:template', []).returns<{ file_name: string; text: string }>(),
};
