import { describe, expect, it } from 'vitest';
import { applyAnchorEdits, copyBlock, extendTo, fillDownEdits, isBlock, moveBy, parseBlock, pasteEdits, selectCell, selectedCells, toggleCell } from './sheet-selection.js';

/** A 10-row grid whose cell text is `r<row>c<col>`. */
const valueOf = (row: number, col: number) => `r${row}c${col}`;

describe('selecting', () => {
  it('shift-click selects the rectangle from the anchor; ctrl-click adds and removes rows', () => {
    let sel = extendTo(selectCell({ row: 2, col: 0 }), { row: 4, col: 1 });
    expect(sel.rows).toEqual([2, 3, 4]);
    expect(sel.cols).toEqual([0, 1]);
    sel = toggleCell(sel, { row: 7, col: 0 });
    expect(sel.rows).toEqual([2, 3, 4, 7]);
    // Shift after ctrl keeps the picked rows and extends from the new anchor.
    sel = extendTo(sel, { row: 8, col: 0 });
    expect(sel.rows).toEqual([2, 3, 4, 7, 8]);
    sel = toggleCell(sel, { row: 3, col: 0 });
    expect(sel.rows).toEqual([2, 4, 7, 8]);
  });

  it('the row checkbox selects whole rows; arrows move and shift-arrows grow, within the grid', () => {
    expect(extendTo(selectCell({ row: 0, col: -1 }), { row: 1, col: -1 }).cols).toEqual([0, 3]);
    let sel = selectCell({ row: 0, col: 0 });
    sel = moveBy(sel, 3, -1, 0, false);
    expect(sel.active).toEqual({ row: 0, col: 0 });
    sel = moveBy(moveBy(sel, 3, 1, 0, true), 3, 1, 0, true);
    expect(sel.rows).toEqual([0, 1, 2]);
    sel = moveBy(sel, 3, 1, 0, true);
    expect(sel.rows).toEqual([0, 1, 2]);
    sel = moveBy(sel, 3, 0, 1, false);
    expect(selectedCells(sel)).toEqual([{ row: 2, col: 1 }]);
  });
});

describe('pasting a block', () => {
  it('reads tabs, newlines and quoted cells as a spreadsheet writes them', () => {
    expect(parseBlock('Alice\tA\r\nBob\tB\r\n')).toEqual([['Alice', 'A'], ['Bob', 'B']]);
    expect(parseBlock('"Dana ""D"" Lee"\t"two\nlines"\n\tx\n')).toEqual([['Dana "D" Lee', 'two\nlines'], ['', 'x']]);
    expect(isBlock('one title')).toBe(false);
    expect(isBlock('one title\n')).toBe(false);
    expect(isBlock('a\tb')).toBe(true);
    expect(isBlock('a\nb')).toBe(true);
  });

  it('starts at the selection and runs down past it; cells beyond the edges are dropped', () => {
    const edits = pasteEdits(selectCell({ row: 8, col: 2 }), parseBlock('x\ty\tz\nu\tv\tw\nlast\n'), 10);
    expect(edits).toEqual([
      { row: 8, col: 2, value: 'x' },
      { row: 8, col: 3, value: 'y' },
      { row: 9, col: 2, value: 'u' },
      { row: 9, col: 3, value: 'v' },
    ]);
  });

  it('one value fills every selected cell, one row every selected row', () => {
    const sel = toggleCell(extendTo(selectCell({ row: 0, col: 0 }), { row: 1, col: 1 }), { row: 5, col: 0 });
    expect(pasteEdits(sel, [['same']], 10)).toHaveLength(6);
    const rows = pasteEdits(sel, [['t', 'g']], 10);
    expect(rows.map((e) => `${e.row}:${e.col}=${e.value}`)).toEqual(['0:0=t', '0:1=g', '1:0=t', '1:1=g', '5:0=t', '5:1=g']);
  });
});

describe('filling', () => {
  it('fills down from the first selected row, or from the row above a single one', () => {
    const sel = extendTo(selectCell({ row: 3, col: 1 }), { row: 5, col: 1 });
    expect(fillDownEdits(sel, valueOf)).toEqual([
      { row: 4, col: 1, value: 'r3c1' },
      { row: 5, col: 1, value: 'r3c1' },
    ]);
    expect(fillDownEdits(selectCell({ row: 3, col: 0 }), valueOf)).toEqual([{ row: 3, col: 0, value: 'r2c0' }]);
    expect(fillDownEdits(selectCell({ row: 0, col: 0 }), valueOf)).toEqual([]);
  });

  it('applies the first cell to every selected row, and copies the selection as a block', () => {
    const sel = toggleCell(selectCell({ row: 1, col: 0 }), { row: 6, col: 0 });
    expect(applyAnchorEdits(sel, valueOf)).toEqual([
      { row: 1, col: 0, value: 'r6c0' },
      { row: 6, col: 0, value: 'r6c0' },
    ]);
    expect(copyBlock(extendTo(selectCell({ row: 0, col: 0 }), { row: 1, col: 1 }), (r, c) => (r === 1 && c === 1 ? 'a\tb' : valueOf(r, c)))).toBe('r0c0\tr0c1\nr1c0\t"a\tb"\n');
  });
});
