/**
 * Where each row of the CSV import's preview stands, from its check, the cells fixed in the
 * dialog and what the imports so far did: pure functions, tested without a DOM.
 */
import type { CsvCellEdit, CsvImportResult, CsvPreview, CsvRowCheck } from '../../common/ipc/csv-import.js';
import type { TaskError } from '../../common/tasks.js';

/** Where a row of the preview stands: created, refused (by the check or at import), not created, or ready. */
export type RowState =
  | { kind: 'created' }
  | { kind: 'problem' }
  | { kind: 'refused'; error: TaskError }
  | { kind: 'not_created'; reason: string }
  | { kind: 'ready'; edited: boolean };

/** A row's state from its check, the edits and what imports so far did. */
export function rowStateOf(row: CsvRowCheck, created: ReadonlySet<number>, result: CsvImportResult | null, edited: ReadonlySet<number>): RowState {
  if (created.has(row.row)) return { kind: 'created' };
  if (row.errors.length > 0) return { kind: 'problem' };
  // A row refused by the service at import, and not changed since, is still refused.
  if (!edited.has(row.row)) {
    const refused = result?.refused.find((r) => r.row === row.row);
    if (refused) return { kind: 'refused', error: refused.error };
    const notCreated = result?.not_created.find((r) => r.row === row.row);
    if (notCreated) return { kind: 'not_created', reason: notCreated.reason };
  }
  return { kind: 'ready', edited: edited.has(row.row) };
}

/** The rows an "Errors only" view shows: those that need the admin, and those fixed (so a fix stays in view). */
export function visibleRows(preview: CsvPreview, errorsOnly: boolean, created: ReadonlySet<number>, result: CsvImportResult | null, edited: ReadonlySet<number>): CsvRowCheck[] {
  if (!errorsOnly) return preview.rows;
  return preview.rows.filter((r) => {
    // A fixed row stays (ready, then created): the admin sees what the fix did.
    if (edited.has(r.row)) return true;
    const kind = rowStateOf(r, created, result, edited).kind;
    return kind === 'problem' || kind === 'refused' || kind === 'not_created';
  });
}

/** How many rows Import would create now: every row that passes its check and is not created yet. */
export function rowsToImport(preview: CsvPreview, created: ReadonlySet<number>): number {
  // Created rows passed their check and cannot be edited, so they are among the valid ones.
  return Math.max(0, preview.valid_rows - created.size);
}

/** The rows edited, from the edits. */
export function editedRows(edits: ReadonlyMap<string, CsvCellEdit>): Set<number> {
  return new Set([...edits.values()].map((e) => e.row));
}
