import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState, type MutableRefObject } from 'react';
import type { CsvMapping, CsvPreview, CsvRowCheck, CsvRowProblem } from '../../common/ipc/csv-import.js';
import { useT } from '../i18n/use-t.js';
import { columnUseOf, useCsvImportStore, type ColumnUse } from './csv-import-store.js';
import { editedRows, rowStateOf, type RowState } from './row-state.js';

const USES: readonly ColumnUse[] = ['title', 'key', 'tags', 'expiry_date', 'link', 'metadata', 'ignore'];

/** The cell being edited. */
export interface CellEditing {
  row: number;
  column: string;
}

/** Rows drawn beyond the visible ones, so keyboard moves and quick scrolls find them drawn. */
const OVERSCAN = 12;

const cellId = (row: number, column: string) => `csv-cell-${row}-${encodeURIComponent(column)}`;
const problemId = (row: number, column: string | null) => `csv-problem-${row}-${column === null ? '' : encodeURIComponent(column)}`;

/** Moves focus back to a cell's button once it is drawn again (after an edit ends). */
function focusCell(row: number, column: string) {
  requestAnimationFrame(() => document.getElementById(cellId(row, column))?.focus());
}

/**
 * Moves focus to the cell button beside a cell (arrow keys, as in a spreadsheet): along the row,
 * or in the same column of the row drawn above or below. Spacer rows and read-only cells are skipped.
 */
function moveFrom(cell: HTMLElement, key: string): boolean {
  const td = cell.closest('td');
  const tr = td?.parentElement;
  if (!td || !tr) return false;
  const rtl = getComputedStyle(td).direction === 'rtl';
  const step = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [rtl ? 1 : -1, 0], ArrowRight: [rtl ? -1 : 1, 0] }[key];
  if (!step) return false;
  const [dx, dy] = step as [number, number];
  const index = [...tr.children].indexOf(td);
  let target: Element | null = null;
  if (dx !== 0) {
    for (let i = index + dx; !target && i >= 0 && i < tr.children.length; i += dx) target = tr.children[i]!.querySelector('button.csv-cell-button');
  } else {
    for (let row = dy < 0 ? tr.previousElementSibling : tr.nextElementSibling; !target && row; row = dy < 0 ? row.previousElementSibling : row.nextElementSibling) {
      target = row.children[index]?.querySelector('button.csv-cell-button') ?? null;
    }
  }
  if (!(target instanceof HTMLElement)) return false;
  target.focus();
  return true;
}

/** One problem in plain words, naming its cell; the spec's id and the technical text under Details. */
function Problem({ row, problem }: { row: number; problem: CsvRowProblem }) {
  const t = useT();
  const text = t(`csvImport.problem.${problem.reason}`);
  return (
    <div className="row-error" id={problemId(row, problem.column)}>
      {problem.column === null ? text : t('csvImport.problem.cell', { column: problem.column, problem: text })}
      <details className="csv-details">
        <summary>{t('csvImport.details')}</summary>
        <code>{problem.id}</code> {problem.message}
      </details>
    </div>
  );
}

function StateCell({ row, state }: { row: CsvRowCheck; state: RowState }) {
  const t = useT();
  switch (state.kind) {
    case 'created':
      return <span className="row-ok">{t('csvImport.state.created')}</span>;
    case 'problem':
      return (
        <>
          {row.errors.map((p, i) => (
            <Problem key={i} row={row.row} problem={p} />
          ))}
        </>
      );
    case 'refused':
    case 'not_created':
      return (
        <div className="row-error">
          {state.kind === 'refused' ? t('csvImport.state.refused') : t('csvImport.state.notCreated')}
          <details className="csv-details">
            <summary>{t('csvImport.details')}</summary>
            {state.kind === 'refused' ? (
              <>
                <code>{state.error.id}</code> {state.error.message}
              </>
            ) : (
              state.reason
            )}
          </details>
        </div>
      );
    case 'ready':
      return <span className="row-ok">{state.edited ? t('csvImport.state.fixed') : t('csvImport.state.ready')}</span>;
  }
}

/**
 * A cell: its text as a button (Enter or F2 edits it, arrow keys move to the next cell) or, while
 * edited, a text field (Enter keeps, Escape cancels).
 */
function Cell({ row, column, value, wrong, locked, editing }: { row: CsvRowCheck; column: string; value: string; wrong: boolean; locked: boolean; editing: MutableRefObject<CellEditing | null> }) {
  const t = useT();
  const [draft, setDraft] = useState<string | null>(null);
  const editCell = useCsvImportStore((s) => s.editCell);
  const start = () => {
    if (locked) return;
    editing.current = { row: row.row, column };
    setDraft(value);
  };
  const end = (keep: boolean) => {
    if (draft === null) return;
    editing.current = null;
    setDraft(null);
    if (keep && draft !== value) void editCell(row.row, column, draft);
    focusCell(row.row, column);
  };
  if (draft !== null) {
    return (
      <td className={wrong ? 'csv-cell cell-wrong' : 'csv-cell'}>
        <input
          className="csv-cell-input"
          autoFocus
          value={draft}
          aria-label={t('csvImport.cell.input', { column, row: row.row })}
          aria-describedby={wrong ? problemId(row.row, column) : undefined}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => end(true)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              end(true);
            } else if (e.key === 'Escape') {
              // The edit ends, the dialog stays open.
              e.preventDefault();
              e.stopPropagation();
              end(false);
            }
          }}
        />
      </td>
    );
  }
  return (
    <td className={wrong ? 'csv-cell cell-wrong' : 'csv-cell'}>
      <button
        type="button"
        id={cellId(row.row, column)}
        className="csv-cell-button"
        disabled={locked}
        title={value}
        aria-describedby={wrong ? problemId(row.row, column) : undefined}
        onClick={start}
        onDoubleClick={start}
        onKeyDown={(e) => {
          if (e.key === 'F2') {
            e.preventDefault();
            start();
          } else if (moveFrom(e.currentTarget, e.key)) e.preventDefault();
        }}
      >
        {value === '' ? <span className="muted">{t('csvImport.cell.empty')}</span> : value}
      </button>
    </td>
  );
}

/**
 * The one preview table: the row number, its state (problems in plain words on the cells they
 * concern), then every column of the file with its use chosen in the head. Virtualized: only
 * the rows in view (and a few around) are drawn.
 */
export function CsvPreviewTable({ preview, mapping, rows, running, editing }: { preview: CsvPreview; mapping: CsvMapping; rows: CsvRowCheck[]; running: boolean; editing: MutableRefObject<CellEditing | null> }) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const created = useCsvImportStore((s) => s.created);
  const result = useCsvImportStore((s) => s.result);
  const edits = useCsvImportStore((s) => s.edits);
  const checking = useCsvImportStore((s) => s.checking);
  const setUse = useCsvImportStore((s) => s.setUse);
  const edited = editedRows(edits);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => 40, overscan: OVERSCAN, getItemKey: (i) => rows[i]!.row });
  const items = virtualizer.getVirtualItems();
  const before = items.length > 0 ? items[0]!.start : 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const span = preview.columns.length + 2;
  return (
    <div className="csv-scroll" ref={scroller}>
      <table className="plain-table csv-table" aria-label={t('csvImport.preview')} aria-rowcount={rows.length + 1}>
        <thead>
          <tr>
            <th scope="col">{t('csvImport.column.row')}</th>
            <th scope="col" className="csv-state-head">
              {t('csvImport.column.check')}
            </th>
            {preview.columns.map((column) => (
              <th scope="col" key={column}>
                <span className="csv-column-name">{column}</span>
                <select aria-label={t('csvImport.mapping.useColumn', { column })} value={columnUseOf(mapping, column)} disabled={checking || running} onChange={(e) => void setUse(column, e.target.value as ColumnUse)}>
                  {USES.map((use) => (
                    <option key={use} value={use}>
                      {t('csvImport.use', { use })}
                    </option>
                  ))}
                </select>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr aria-hidden="true" className="csv-spacer">
              <td colSpan={span} style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => {
            const row = rows[item.index]!;
            const state = rowStateOf(row, created, result, edited);
            const wrongColumns = new Set(state.kind === 'problem' ? row.errors.map((e) => e.column) : []);
            return (
              <tr key={item.key} data-index={item.index} ref={virtualizer.measureElement} aria-rowindex={item.index + 2} className={state.kind === 'problem' || state.kind === 'refused' ? 'csv-row-refused' : undefined}>
                <th scope="row">{row.row}</th>
                <td className="csv-state">
                  <StateCell row={row} state={state} />
                </td>
                {preview.columns.map((column, i) =>
                  state.kind === 'created' ? (
                    <td key={column} className="csv-cell">
                      <span className="csv-cell-text" title={row.cells[i]}>
                        {row.cells[i]}
                      </span>
                    </td>
                  ) : (
                    <Cell key={column} row={row} column={column} value={row.cells[i] ?? ''} wrong={wrongColumns.has(column)} locked={running} editing={editing} />
                  ),
                )}
              </tr>
            );
          })}
          {after > 0 && (
            <tr aria-hidden="true" className="csv-spacer">
              <td colSpan={span} style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
