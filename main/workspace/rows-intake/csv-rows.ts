/**
 * CSV import's core: reads a CSV with csv-parse, applies the cells the admin changed in the
 * dialog, guesses a column mapping from its header, and turns every data row into the
 * credential it will be, with every problem found (the spec's rules, duplicate keys, links that
 * name nothing, circles of links) on the cell it is in, before anything is made. The preview
 * and the import both check with `checkCsvRows`: a re-check after an edit is the import's check.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseCsv } from '../../files/parse-csv.js';
import { MAX_ERROR_ROWS, PREVIEW_ROWS, type CsvCellEdit, type CsvMapping, type CsvPreview, type CsvProblemReason, type CsvRowCheck, type CsvRowProblem } from '../../../common/ipc/csv-import.js';
import { ServiceError } from '../../../common/errors.js';
import { checkRowFields, type FieldProblem } from '../../../common/ipc/staging.js';
import type { TaskError } from '../../../common/tasks.js';
import { isUuid } from '../../../common/validate.js';
import { splitList } from '../../intake/file-metadata.js';
import { orderByLinks } from './link-order.js';

/** A CSV read into its header and records, or why it cannot be. */
export interface CsvTable {
  file_name: string;
  columns: string[];
  /** Each data record with the line it starts on. */
  records: { line: number; fields: string[] }[];
  file_error: TaskError | null;
}

/** Largest CSV read (a spreadsheet of transcripts is far smaller). */
const MAX_CSV_BYTES = 200 * 1024 * 1024;

/**
 * Reads and parses a CSV file with the one CSV reader (main/files/parse-csv.ts): semicolon-separated
 * files (many locales' spreadsheets) work too; a quoted field never closed refuses the file, naming its line.
 */
export async function readCsvTable(path: string): Promise<CsvTable> {
  const file_name = basename(path);
  const empty = (message: string): CsvTable => ({ file_name, columns: [], records: [], file_error: { id: 'invalid_value', message } });
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MAX_CSV_BYTES) return empty(`${file_name} is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB; split it into smaller files`);
    text = bytes.toString('utf8');
  } catch (error) {
    return empty(`${file_name} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const { records: rows, errors } = parseCsv(text);
  if (errors.length > 0) return empty(`${file_name} ${errors[0]!.message}`);
  if (rows.length === 0) return empty(`${file_name} is empty: it needs a header line and one line per credential`);
  const columns = rows[0]!.fields.map((c) => c.trim());
  if (columns.some((c) => c === '')) return empty(`${file_name} line 1: every column needs a name in the header`);
  const dup = columns.find((c, i) => columns.indexOf(c) !== i);
  if (dup !== undefined) return empty(`${file_name} line 1: the column "${dup}" appears twice`);
  const records = rows.slice(1);
  return { file_name, columns, records, file_error: null };
}

/**
 * The table with the dialog's edits applied, in memory (the file is never written). An edit
 * naming a row or column the file does not have is refused with `invalid_value`.
 */
export function applyEdits(table: CsvTable, edits: readonly CsvCellEdit[]): CsvTable {
  if (edits.length === 0 || table.file_error) return table;
  const records = [...table.records];
  for (const edit of edits) {
    const i = table.columns.indexOf(edit.column);
    if (i < 0) throw new ServiceError('invalid_value', `The file has no column "${edit.column}"`);
    const record = records[edit.row - 1];
    if (!record) throw new ServiceError('invalid_value', `The file has no row ${edit.row}`);
    const fields = [...record.fields];
    while (fields.length <= i) fields.push('');
    fields[i] = edit.value;
    records[edit.row - 1] = { ...record, fields };
  }
  return { ...table, records };
}

const GUESS: Record<Exclude<keyof CsvMapping, 'metadata'>, RegExp> = {
  title: /^(title|name)$/i,
  tags: /^tags?$/i,
  expiry_date: /^(expiry|expiry[_ ]date|expires|expiration[_ ]date)$/i,
  key: /^(key|ref|reference|row[_ ]key)$/i,
  link: /^(links?|linked[_ ]to|credentials|parent)$/i,
};

/** A mapping from the header's names: known names to fields, `meta.X` and every other column to metadata. */
export function guessMapping(columns: string[]): CsvMapping {
  const mapping: CsvMapping = { title: null, tags: null, expiry_date: null, key: null, link: null, metadata: [] };
  for (const column of columns) {
    const field = (Object.keys(GUESS) as (keyof typeof GUESS)[]).find((f) => mapping[f] === null && GUESS[f].test(column));
    if (field) mapping[field] = column;
    else mapping.metadata.push({ column, key: /^meta\./i.test(column) ? column.slice(5) : column });
  }
  return mapping;
}

/** Every column a mapping names must be in the header; throws the first it does not find. */
function mappingProblem(columns: string[], mapping: CsvMapping): TaskError | null {
  const named = [mapping.title, mapping.tags, mapping.expiry_date, mapping.key, mapping.link, ...mapping.metadata.map((m) => m.column)].filter((c): c is string => c !== null);
  const missing = named.find((c) => !columns.includes(c));
  if (missing !== undefined) return { id: 'invalid_value', message: `The mapping names a column "${missing}" that the file does not have` };
  if (mapping.title === null) return { id: 'missing_field', message: 'Choose the column that holds each credential’s title' };
  const keys = mapping.metadata.map((m) => m.key);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined) return { id: 'invalid_value', message: `Two columns are mapped to the metadata field "${twice}"` };
  return null;
}

/** The plain reason of a field problem of `checkRowFields` (its ids are the spec's, shared by several causes). */
function fieldReason(problem: FieldProblem): CsvProblemReason {
  switch (problem.field) {
    case 'title':
      return problem.id === 'missing_field' ? 'title_missing' : 'title_too_long';
    case 'metadata':
      return problem.id === 'missing_file_and_metadata' ? 'metadata_missing' : 'metadata_invalid';
    case 'tags':
      return problem.id === 'duplicated_tags' ? 'tags_duplicated' : 'tags_invalid';
    case 'expiry_date':
      return 'date_invalid';
    case 'links':
      return 'links_invalid';
  }
}

/** The plain reason of a link-order problem (link-order.ts). */
function linkReason(error: TaskError): CsvProblemReason {
  if (error.id === 'missing_credential') return 'link_unknown';
  if (/itself/.test(error.message)) return 'link_self';
  return /circle/.test(error.message) ? 'link_circle' : 'link_blocked';
}

/** The internal key of a data row: its key cell, or a name no cell can have. */
export function rowKey(check: Pick<CsvRowCheck, 'row' | 'key'>): string {
  return check.key ?? `\u0000row ${check.row}`;
}

/**
 * Checks every row against a mapping.
 *
 * @param isExisting whether a link that names no row's key is an existing credential's uid
 */
export function checkCsvRows(table: CsvTable, mapping: CsvMapping, isExisting: (uid: string) => boolean, now: number): { checks: CsvRowCheck[]; file_error: TaskError | null } {
  if (table.file_error) return { checks: [], file_error: table.file_error };
  const fileError = mappingProblem(table.columns, mapping);
  if (fileError) return { checks: [], file_error: fileError };
  const at = (name: string | null) => (name === null ? -1 : table.columns.indexOf(name));
  const [iTitle, iTags, iExpiry, iKey, iLink] = [at(mapping.title), at(mapping.tags), at(mapping.expiry_date), at(mapping.key), at(mapping.link)];
  const cell = (fields: string[], i: number) => (i < 0 ? '' : (fields[i] ?? '').trim());
  /** The column a field problem is in: metadata's is the first metadata column (a row with none fills any). */
  const columnOf = (field: FieldProblem['field']): string | null =>
    ({ title: mapping.title, metadata: mapping.metadata[0]?.column ?? null, tags: mapping.tags, expiry_date: mapping.expiry_date, links: mapping.link })[field];
  const keyRows = new Map<string, number>();
  const checks = table.records.map(({ line, fields }, index): CsvRowCheck => {
    const row = index + 1;
    const metadata: Record<string, string> = {};
    for (const m of mapping.metadata) {
      const value = cell(fields, table.columns.indexOf(m.column));
      if (value !== '') metadata[m.key] = value;
    }
    const check: CsvRowCheck = {
      row,
      line,
      key: cell(fields, iKey) || null,
      title: cell(fields, iTitle),
      tags: splitList(cell(fields, iTags)),
      expiry_date: cell(fields, iExpiry) || null,
      metadata,
      links: splitList(cell(fields, iLink)),
      cells: table.columns.map((_, i) => fields[i] ?? ''),
      errors: [],
    };
    if (fields.length > table.columns.length) {
      check.errors.push({ id: 'invalid_value', message: `Line ${line} has ${fields.length} fields, but the header has ${table.columns.length}`, column: null, reason: 'too_many_fields' });
    }
    check.errors.push(...checkRowFields(check, false, now).map((p) => ({ id: p.id, message: p.message, column: columnOf(p.field), reason: fieldReason(p) })));
    if (check.key !== null) {
      const first = keyRows.get(check.key);
      if (first !== undefined) check.errors.push({ id: 'invalid_value', message: `The key "${check.key}" is also the key of row ${first}`, column: mapping.key, reason: 'key_duplicate' });
      else keyRows.set(check.key, row);
    }
    return check;
  });
  // Links: another row's key, or an existing credential; created in dependency order.
  const plan = orderByLinks(
    checks.map((c) => ({ key: rowKey(c), links: c.links })),
    (link) => isUuid(link) && isExisting(link),
    (key) => {
      const target = checks.find((c) => rowKey(c) === key);
      return target ? `row ${target.row}` : JSON.stringify(key);
    },
    new Set(checks.filter((c) => c.errors.length > 0).map(rowKey)),
  );
  for (const check of checks) {
    const error = plan.errors.get(rowKey(check));
    if (error && !check.errors.some((e) => e.message === error.message)) check.errors.push({ ...error, column: mapping.link, reason: linkReason(error) } satisfies CsvRowProblem);
  }
  return { checks, file_error: null };
}

/**
 * The preview the import dialog shows: one list of rows in row order — the first PREVIEW_ROWS,
 * every row with a problem (up to MAX_ERROR_ROWS) and every edited row, so a fixed row stays in
 * view.
 */
export function toPreview(table: CsvTable, mapping: CsvMapping, checked: { checks: CsvRowCheck[]; file_error: TaskError | null }, edits: readonly CsvCellEdit[] = []): CsvPreview {
  const edited = new Set(edits.map((e) => e.row));
  let problems = 0;
  let valid = 0;
  const rows = checked.checks.filter((c, i) => {
    if (c.errors.length === 0) valid++;
    else problems++;
    return i < PREVIEW_ROWS || edited.has(c.row) || (c.errors.length > 0 && problems <= MAX_ERROR_ROWS);
  });
  return {
    file_name: table.file_name,
    columns: table.columns,
    mapping,
    total_rows: table.records.length,
    valid_rows: valid,
    rows,
    file_error: checked.file_error,
  };
}

/** The template the import dialog offers for download. */
export const CSV_TEMPLATE = [
  'title,key,tags,expiry_date,link,meta.student,meta.course,meta.grade',
  'Transcript of Alice Example,alice-2026,transcript;spring-2026,,,Alice Example,Mathematics,A',
  'Course result: Linear Algebra,alice-la,course-result,2031-06-30,alice-2026,Alice Example,Linear Algebra,B+',
  '',
].join('\r\n');

/** Every link cell value of the table that looks like a uid (to look up before checking). */
export function uidLinks(table: CsvTable, mapping: CsvMapping): string[] {
  const i = mapping.link === null ? -1 : table.columns.indexOf(mapping.link);
  if (i < 0) return [];
  return [...new Set(table.records.flatMap((r) => splitList(r.fields[i] ?? '')).filter((v) => isUuid(v)))];
}
