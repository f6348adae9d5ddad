/**
 * The staging grid's keyboard, mouse, clipboard and focus handling, on the grid element (the
 * events come up from the cells' fields, which carry their position as data attributes).
 * The rules themselves are in sheet-selection.ts.
 */
import type React from 'react';
import { t } from '../i18n/i18n-store.js';
import { cellText, useStagingStore } from './staging-store.js';
import {
  applyAnchorEdits,
  copyBlock,
  extendTo,
  fillDownEdits,
  isBlock,
  moveBy,
  parseBlock,
  pasteEdits,
  selectCell,
  selectedCells,
  toggleCell,
  type SheetCell,
  type SheetEdit,
  type SheetSelection,
} from './sheet-selection.js';

/** The cell a field stands for, from its data attributes; null for anything else. */
export function cellOf(target: EventTarget | null): SheetCell | null {
  if (!(target instanceof HTMLElement) || target.dataset['sheetRow'] === undefined) return null;
  return { row: Number(target.dataset['sheetRow']), col: Number(target.dataset['sheetCol']) };
}

const same = (a: SheetCell, b: SheetCell) => a.row === b.row && a.col === b.col;

/** Set while the grid itself moves the focus: that focus event follows the selection, it does not set it. */
let moving = false;

/**
 * Focuses the field of the selection's active cell, when its row is rendered (answers whether
 * it was). Read at the time of the call: keys pressed meanwhile may have moved it further.
 */
export function focusActiveCell(grid: HTMLElement | null): boolean {
  const active = useStagingStore.getState().selection?.active;
  if (!active || !grid) return true;
  const field = grid.querySelector<HTMLElement>(`[data-sheet-row="${active.row}"][data-sheet-col="${active.col}"]`);
  if (!field) return false;
  moving = true;
  try {
    field.focus();
  } finally {
    moving = false;
  }
  return true;
}

/**
 * The selection to work from when a key is pressed in this cell. The store's, when there is
 * one: keys pressed quickly may still reach the field the focus is leaving (it moves on the
 * next frame), and the focus coming by Tab or a click has already set it.
 */
function selectionAt(cell: SheetCell): SheetSelection {
  return useStagingStore.getState().selection ?? selectCell(cell);
}

const valueOf = (row: number, col: number) => {
  const staged = useStagingStore.getState().rows[row];
  return staged ? cellText(staged, col) : '';
};

/** Changes cells, selects what changed, and says how many (in the grid's status line). */
function applyEdits(edits: SheetEdit[], say: (text: string) => void, message: 'staging.pasted' | 'staging.filled'): void {
  const { setCells, select, selection } = useStagingStore.getState();
  const changed = setCells(edits);
  say(t(message, { count: changed }));
  if (edits.length === 0 || !selection) return;
  const rows = [...new Set(edits.map((e) => e.row))].sort((a, b) => a - b);
  const cols = edits.map((e) => e.col);
  select({ ...selection, rows, kept: rows, cols: [Math.min(...cols), Math.max(...cols)] });
}

/** Fill down in the current selection (Ctrl+D and the `Fill down` button). */
export function fillDown(say: (text: string) => void): void {
  const sel = useStagingStore.getState().selection;
  if (sel) applyEdits(fillDownEdits(sel, valueOf), say, 'staging.filled');
}

/** The selection's first cell's value into every selected row (Ctrl+Enter and `Apply to selected rows`). */
export function applyToSelected(say: (text: string) => void): void {
  const sel = useStagingStore.getState().selection;
  if (sel) applyEdits(applyAnchorEdits(sel, valueOf), say, 'staging.filled');
}

/** Whether a text field's caret sits at the edge an arrow leaves by (no text selected). */
function atEdge(field: HTMLElement, key: 'ArrowLeft' | 'ArrowRight'): boolean {
  if (field instanceof HTMLInputElement && field.type === 'checkbox') return true;
  if (!(field instanceof HTMLInputElement) || field.type !== 'text') return false;
  const { selectionStart: from, selectionEnd: to, value } = field;
  if (from === null || from !== to) return false;
  return key === 'ArrowLeft' ? from === 0 : from === value.length;
}

/** The grid element's handlers; `say` puts a short result into the grid's status line. */
export function sheetHandlers(say: (text: string) => void) {
  /** A mouse press chose the selection: the focus event that follows must not reset it. */
  let pressed = false;

  return {
    onMouseDown(e: React.MouseEvent) {
      const cell = cellOf(e.target);
      if (!cell) return;
      pressed = true;
      if (cell.col < 0) return; // the row's checkbox acts on its click (mouse or Space)
      const { selection, select } = useStagingStore.getState();
      if (e.shiftKey && selection) {
        // Chromium would extend the text selection of the field that has the focus, and keep the
        // focus there: the grid moves it to the clicked field itself.
        e.preventDefault();
        select(extendTo(selection, cell));
        focusActiveCell(e.currentTarget as HTMLElement);
        pressed = false;
      } else if ((e.ctrlKey || e.metaKey) && selection) select(toggleCell(selection, cell));
      else select(selectCell(cell));
    },
    onMouseUp() {
      pressed = false;
    },
    onClick(e: React.MouseEvent) {
      const cell = cellOf(e.target);
      if (!cell || cell.col >= 0) return;
      const { selection, select } = useStagingStore.getState();
      // A checkbox adds or takes out its row, as in a file list; with Shift, the rows up to it.
      // After a selection of cells, it starts a selection of rows.
      if (e.shiftKey && selection) select(extendTo(selection, cell));
      else if (!selection || selection.rows.length === 0 || selection.anchor.col >= 0) select(selectCell(cell));
      else select(toggleCell(selection, cell));
    },
    onFocus(e: React.FocusEvent) {
      const cell = cellOf(e.target);
      if (!cell || pressed || moving) {
        pressed = false;
        return;
      }
      const { selection, select } = useStagingStore.getState();
      if (selection && same(selection.active, cell)) return;
      // Tab onto a row's checkbox moves the active cell without changing which rows are selected.
      if (cell.col < 0) select(selection ? { ...selection, active: cell } : { ...selectCell(cell), rows: [], kept: [] });
      else select(selectCell(cell));
    },
    onKeyDown(e: React.KeyboardEvent) {
      const cell = cellOf(e.target);
      if (!cell) return;
      const { rows, select } = useStagingStore.getState();
      const mod = e.ctrlKey || e.metaKey;
      if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && !mod && !e.altKey) {
        e.preventDefault();
        select(moveBy(selectionAt(cell), rows.length, e.key === 'ArrowUp' ? -1 : 1, 0, e.shiftKey), true);
      } else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && !mod && !e.altKey && atEdge(e.target as HTMLElement, e.key)) {
        const rtl = getComputedStyle(e.target as HTMLElement).direction === 'rtl';
        const step = (e.key === 'ArrowLeft') !== rtl ? -1 : 1;
        const next = moveBy(selectionAt(cell), rows.length, 0, step, e.shiftKey);
        if (same(next.active, cell)) return;
        e.preventDefault();
        select(next, true);
      } else if (mod && e.key.toLowerCase() === 'd') {
        e.preventDefault();
        select(selectionAt(cell));
        fillDown(say);
      } else if (mod && e.key === 'Enter') {
        e.preventDefault();
        select(selectionAt(cell));
        applyToSelected(say);
      }
    },
    onPaste(e: React.ClipboardEvent) {
      const cell = cellOf(e.target);
      if (!cell) return;
      const text = e.clipboardData.getData('text/plain');
      const sel = selectionAt(cell);
      // Plain text into the one field being edited is the field's own paste.
      if (!isBlock(text) && selectedCells(sel).length <= 1) return;
      e.preventDefault();
      useStagingStore.getState().select(sel);
      applyEdits(pasteEdits(sel, parseBlock(text), useStagingStore.getState().rows.length), say, 'staging.pasted');
    },
    onCopy(e: React.ClipboardEvent) {
      const cell = cellOf(e.target);
      if (!cell) return;
      const sel = selectionAt(cell);
      if (selectedCells(sel).length <= 1) return;
      e.preventDefault();
      e.clipboardData.setData('text/plain', copyBlock(sel, valueOf));
    },
  };
}
