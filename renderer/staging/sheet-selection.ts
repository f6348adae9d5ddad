/**
 * The rules of selecting in the staging grid as a spreadsheet, as small pure functions (the
 * view only maps events onto them): cells and whole rows, click, shift-click, ctrl-click,
 * arrows with and without shift; and where a pasted block or a fill-down lands.
 */

/** The columns that take text, in the grid's order; -1 is the row's own checkbox (whole rows). */
export const SHEET_COLUMNS = ['title', 'tags', 'expiry_date', 'links'] as const;
const LAST_COL = SHEET_COLUMNS.length - 1;

/** A cell by the row's index in the list and its column's index in SHEET_COLUMNS (-1: the row). */
export interface SheetCell {
  row: number;
  col: number;
}

export interface SheetSelection {
  /** The selected rows' indices, ascending. */
  rows: number[];
  /** Rows picked with ctrl-click before the current shift range (kept when shift extends). */
  kept: number[];
  /** The selected columns, lowest and highest (the same columns of every selected row). */
  cols: [number, number];
  /** Where shift extends from. */
  anchor: SheetCell;
  /** The cell with the focus. */
  active: SheetCell;
}

/** One cell to change: its row, column and the text to put there. */
export type SheetEdit = SheetCell & { value: string };

function range(a: number, b: number): number[] {
  const lo = Math.min(a, b);
  return Array.from({ length: Math.abs(a - b) + 1 }, (_, i) => lo + i);
}

function union(a: number[], b: number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

/** The columns a rectangle between two cells covers; a row's checkbox covers them all. */
function colsBetween(a: SheetCell, b: SheetCell): [number, number] {
  if (a.col < 0 || b.col < 0) return [0, LAST_COL];
  return [Math.min(a.col, b.col), Math.max(a.col, b.col)];
}

/** A click (or the focus arriving by Tab) on one cell: only it is selected. */
export function selectCell(cell: SheetCell): SheetSelection {
  return { rows: [cell.row], kept: [], cols: colsBetween(cell, cell), anchor: cell, active: cell };
}

/** Shift-click or shift-arrow: from the anchor to this cell, keeping ctrl-picked rows. */
export function extendTo(sel: SheetSelection, cell: SheetCell): SheetSelection {
  return { ...sel, rows: union(sel.kept, range(sel.anchor.row, cell.row)), cols: colsBetween(sel.anchor, cell), active: cell };
}

/** Ctrl-click: adds this cell's row to the selection, or takes it out when it was in. */
export function toggleCell(sel: SheetSelection, cell: SheetCell): SheetSelection {
  const had = sel.rows.includes(cell.row);
  const rows = had && sel.rows.length > 1 ? sel.rows.filter((r) => r !== cell.row) : union(sel.rows, [cell.row]);
  const picked = colsBetween(cell, cell);
  const cols: [number, number] = [Math.min(sel.cols[0], picked[0]), Math.max(sel.cols[1], picked[1])];
  return { rows, kept: rows, cols, anchor: cell, active: cell };
}

/** An arrow key: one cell on (clamped to the grid); with shift the selection grows to it. */
export function moveBy(sel: SheetSelection, rowCount: number, dRow: number, dCol: number, extend: boolean): SheetSelection {
  const cell = {
    row: Math.min(rowCount - 1, Math.max(0, sel.active.row + dRow)),
    col: Math.min(LAST_COL, Math.max(-1, sel.active.col + dCol)),
  };
  return extend ? extendTo(sel, cell) : selectCell(cell);
}

/** Every selected cell, row by row. */
export function selectedCells(sel: SheetSelection): SheetCell[] {
  return sel.rows.flatMap((row) => range(sel.cols[0], sel.cols[1]).map((col) => ({ row, col })));
}

/**
 * A block copied from a spreadsheet (tab between cells, a newline between rows; a cell with a
 * tab, newline or quote comes in double quotes, quotes doubled) as rows of cells.
 */
export function parseBlock(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  const quoted = () => cell === '' && text[i] === '"';
  while (i < text.length) {
    if (quoted()) {
      i++;
      while (i < text.length) {
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else cell += text[i++];
      }
      continue;
    }
    const ch = text[i]!;
    if (ch === '\t') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
    i++;
  }
  // A spreadsheet ends what it copies with a newline: no empty row for it.
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** Whether pasted text is a block of cells (rather than text for the one field being edited). */
export function isBlock(text: string): boolean {
  return /[\t\n\r]/.test(text.replace(/\r?\n$/, ''));
}

/**
 * Where a pasted block goes: one value fills every selected cell; one row of values fills
 * every selected row; a larger block starts at the selection's first row and column and goes
 * down the selected rows, then the rows after them. Cells past the grid's edge are dropped.
 */
export function pasteEdits(sel: SheetSelection, block: string[][], rowCount: number): SheetEdit[] {
  if (block.length === 0) return [];
  if (block.length === 1 && block[0]!.length === 1) return selectedCells(sel).map((c) => ({ ...c, value: block[0]![0]! }));
  const targets = [...sel.rows];
  for (let next = sel.rows[sel.rows.length - 1]! + 1; targets.length < block.length && next < rowCount; next++) targets.push(next);
  const edits: SheetEdit[] = [];
  targets.forEach((row, i) => {
    const values = block.length === 1 ? block[0]! : block[i];
    if (!values) return;
    values.forEach((value, j) => {
      const col = sel.cols[0] + j;
      if (col <= LAST_COL) edits.push({ row, col, value });
    });
  });
  return edits;
}

/**
 * Fill down: the first selected row's values go into the other selected rows, column by
 * column; with one row selected, the values come from the row above it.
 */
export function fillDownEdits(sel: SheetSelection, valueOf: (row: number, col: number) => string): SheetEdit[] {
  const cols = range(sel.cols[0], sel.cols[1]);
  const [first, ...rest] = sel.rows;
  if (first === undefined) return [];
  if (rest.length === 0) return first === 0 ? [] : cols.map((col) => ({ row: first, col, value: valueOf(first - 1, col) }));
  return rest.flatMap((row) => cols.map((col) => ({ row, col, value: valueOf(first, col) })));
}

/**
 * The value of the cell the selection started from (typed there, then Shift+arrows or a
 * ctrl-click picked more rows) into the same column of every selected row.
 */
export function applyAnchorEdits(sel: SheetSelection, valueOf: (row: number, col: number) => string): SheetEdit[] {
  const { row, col } = sel.anchor;
  if (col < 0) return [];
  const value = valueOf(row, col);
  return sel.rows.map((r) => ({ row: r, col, value }));
}

/** The selected cells as a block a spreadsheet pastes (tabs and newlines; quoted where needed). */
export function copyBlock(sel: SheetSelection, valueOf: (row: number, col: number) => string): string {
  const quote = (v: string) => (/[\t\n\r"]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  return sel.rows.map((row) => range(sel.cols[0], sel.cols[1]).map((col) => quote(valueOf(row, col))).join('\t')).join('\n') + '\n';
}
