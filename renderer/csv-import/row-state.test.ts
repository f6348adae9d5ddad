import { describe, expect, it } from 'vitest';
import type { CsvCellEdit, CsvImportResult, CsvPreview, CsvRowCheck } from '../../common/ipc/csv-import.js';
import { editedRows, rowStateOf, rowsToImport, visibleRows } from './row-state.js';

function row(n: number, problem = false): CsvRowCheck {
  return {
    row: n,
    line: n + 1,
    key: null,
    title: problem ? '' : `Row ${n}`,
    tags: [],
    expiry_date: null,
    metadata: { grade: 'A' },
    links: [],
    cells: [problem ? '' : `Row ${n}`, 'A'],
    errors: problem ? [{ id: 'missing_field', message: 'A title is needed', column: 'title', reason: 'title_missing' }] : [],
  };
}

const preview = (rows: CsvRowCheck[]): CsvPreview => ({
  file_name: 'grades.csv',
  columns: ['title', 'grade'],
  mapping: { title: 'title', tags: null, expiry_date: null, key: null, link: null, metadata: [{ column: 'grade', key: 'grade' }] },
  total_rows: rows.length,
  valid_rows: rows.filter((r) => r.errors.length === 0).length,
  rows,
  file_error: null,
});

const none = new Set<number>();

describe('the rows of the CSV import dialog', () => {
  it('shows only the rows to fix with Errors only, and keeps a fixed row in view, ready and then created', () => {
    const before = preview([row(1), row(2, true), row(3), row(4, true)]);
    expect(visibleRows(before, false, none, null, none).map((r) => r.row)).toEqual([1, 2, 3, 4]);
    expect(visibleRows(before, true, none, null, none).map((r) => r.row)).toEqual([2, 4]);

    // Row 2 fixed in the dialog: main's re-check says it passes; it stays in the filtered view.
    const edits = new Map<string, CsvCellEdit>([['2\u0000title', { row: 2, column: 'title', value: 'Row 2' }]]);
    const edited = editedRows(edits);
    const after = preview([row(1), row(2), row(3), row(4, true)]);
    expect(visibleRows(after, true, none, null, edited).map((r) => r.row)).toEqual([2, 4]);
    expect(rowStateOf(after.rows[1]!, none, null, edited)).toEqual({ kind: 'ready', edited: true });
    expect(rowsToImport(after, none)).toBe(3);

    // Imported: what was created is counted out; the row still refused stays to fix.
    const created = new Set([1, 2, 3]);
    const result: CsvImportResult = { created: [], refused: [{ row: 4, line: 5, title: '', error: after.rows[3]!.errors[0]! }], not_created: [] };
    expect(rowsToImport(after, created)).toBe(0);
    expect(visibleRows(after, true, created, result, edited).map((r) => [r.row, rowStateOf(r, created, result, edited).kind])).toEqual([
      [2, 'created'],
      [4, 'problem'],
    ]);
  });

  it('says a row the service refused at import is refused until it is edited, and a row not reached is not created', () => {
    const rows = preview([row(1), row(2)]);
    const result: CsvImportResult = { created: [], refused: [{ row: 1, line: 2, title: 'Row 1', error: { id: 'internal_error', message: 'x' } }], not_created: [{ row: 2, line: 3, title: 'Row 2', reason: 'Cancelled before this row was created' }] };
    expect(rowStateOf(rows.rows[0]!, none, result, none)).toEqual({ kind: 'refused', error: { id: 'internal_error', message: 'x' } });
    expect(rowStateOf(rows.rows[1]!, none, result, none)).toEqual({ kind: 'not_created', reason: 'Cancelled before this row was created' });
    expect(visibleRows(rows, true, none, result, none).map((r) => r.row)).toEqual([1, 2]);
    expect(rowStateOf(rows.rows[0]!, none, result, new Set([1]))).toEqual({ kind: 'ready', edited: true });
  });
});
