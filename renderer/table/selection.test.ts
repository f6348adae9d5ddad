import { describe, expect, it } from 'vitest';
import {
  EMPTY_SELECTION,
  clearSelection,
  clickRow,
  extendTo,
  isSelected,
  moveWithKey,
  movedIndex,
  normalize,
  rangesForMain,
  selectAll,
  selectedCount,
  selectedIndices,
  toggleRow,
  type TableSelection,
} from './selection.js';

const selected = (s: TableSelection, count = 20) => Array.from({ length: count }, (_, i) => i).filter((i) => isSelected(s, i));

describe('table selection rules', () => {
  it('a click selects that row alone and sets the anchor', () => {
    const s = clickRow(toggleRow(clickRow(EMPTY_SELECTION, 1), 4), 7);
    expect(selected(s)).toEqual([7]);
    expect(s.anchor).toBe(7);
  });

  it('Shift-click selects from the anchor to the row, in either direction, replacing the rest', () => {
    const s = extendTo(clickRow(EMPTY_SELECTION, 5), 2);
    expect(selected(s)).toEqual([2, 3, 4, 5]);
    expect(selected(extendTo(s, 8))).toEqual([5, 6, 7, 8]);
    expect(extendTo(s, 8).anchor).toBe(5);
  });

  it('Ctrl/Cmd-click toggles one row and keeps the others', () => {
    let s = clickRow(EMPTY_SELECTION, 1);
    s = toggleRow(s, 3);
    s = toggleRow(s, 5);
    expect(selected(s)).toEqual([1, 3, 5]);
    s = toggleRow(s, 3);
    expect(selected(s)).toEqual([1, 5]);
  });

  it('Ctrl+Shift-click adds a range to the selection', () => {
    let s = toggleRow(clickRow(EMPTY_SELECTION, 0), 10);
    s = extendTo(s, 12, true);
    expect(selected(s)).toEqual([0, 10, 11, 12]);
  });

  it('select all covers every matching row, without listing them; Ctrl-click then takes rows out', () => {
    let s = selectAll(clickRow(EMPTY_SELECTION, 3));
    expect(selectedCount(s, 100_000)).toBe(100_000);
    expect(s.ranges).toEqual([]);
    s = toggleRow(s, 4);
    expect(isSelected(s, 4)).toBe(false);
    expect(isSelected(s, 99_999)).toBe(true);
    expect(selectedCount(s, 100_000)).toBe(99_999);
    expect(() => selectedIndices(s)).toThrow();
  });

  it('counts ranges, clipped to the rows there are', () => {
    const s: TableSelection = { all: false, ranges: [{ from: 0, to: 4 }, { from: 8, to: 30 }], anchor: null, focus: null };
    expect(selectedCount(s, 10)).toBe(7);
  });

  it('merges overlapping and adjacent ranges', () => {
    expect(normalize([{ from: 5, to: 7 }, { from: 0, to: 2 }, { from: 3, to: 3 }, { from: 6, to: 9 }, { from: 4, to: 4 }])).toEqual([{ from: 0, to: 9 }]);
    expect(normalize([{ from: 0, to: 2 }, { from: 4, to: 5 }])).toEqual([{ from: 0, to: 2 }, { from: 4, to: 5 }]);
  });

  it('arrow keys move and select; Shift extends from the anchor; Ctrl moves the focus only', () => {
    let s = clickRow(EMPTY_SELECTION, 2);
    s = moveWithKey(s, 'ArrowDown', 10, 5, { shift: false, ctrl: false });
    expect(selected(s)).toEqual([3]);
    s = moveWithKey(s, 'ArrowDown', 10, 5, { shift: true, ctrl: false });
    s = moveWithKey(s, 'ArrowDown', 10, 5, { shift: true, ctrl: false });
    expect(selected(s)).toEqual([3, 4, 5]);
    s = moveWithKey(s, 'ArrowUp', 10, 5, { shift: false, ctrl: true });
    expect(s.focus).toBe(4);
    expect(selected(s)).toEqual([3, 4, 5]);
  });

  it('movement is clamped to the rows; Home, End and pages jump', () => {
    expect(movedIndex(null, 'ArrowDown', 10, 5)).toBe(0);
    expect(movedIndex(0, 'ArrowUp', 10, 5)).toBe(0);
    expect(movedIndex(8, 'PageDown', 10, 5)).toBe(9);
    expect(movedIndex(8, 'PageUp', 10, 5)).toBe(3);
    expect(movedIndex(4, 'End', 10, 5)).toBe(9);
    expect(movedIndex(4, 'Home', 10, 5)).toBe(0);
    expect(movedIndex(null, 'End', 0, 5)).toBeNull();
  });

  it('Escape clears the selection but keeps the keyboard position', () => {
    const s = clearSelection(extendTo(clickRow(EMPTY_SELECTION, 1), 4));
    expect(selected(s)).toEqual([]);
    expect(s.focus).toBe(4);
  });

  it('describes a Shift-range of any size to main as its ends, never its rows', () => {
    const s = extendTo(clickRow(EMPTY_SELECTION, 60_000), 10);
    expect(rangesForMain(s, 100_000)).toEqual({ all: false, ranges: [{ from: 10, to: 60_000 }], ends: [10, 60_000] });
    // Ctrl-clicked rows and ranges, one row alone has one end; ranges past the last row are clipped.
    const mixed = extendTo(toggleRow(toggleRow(clickRow(EMPTY_SELECTION, 3), 7), 90), 120, true);
    expect(rangesForMain(mixed, 100)).toEqual({ all: false, ranges: [{ from: 3, to: 3 }, { from: 7, to: 7 }, { from: 90, to: 99 }], ends: [3, 7, 90, 99] });
    // All matching, then rows taken out: the taken-out ranges, flagged all.
    expect(rangesForMain(toggleRow(selectAll(EMPTY_SELECTION), 5), 10)).toEqual({ all: true, ranges: [{ from: 5, to: 5 }], ends: [5] });
  });
});
