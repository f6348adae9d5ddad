/**
 * The selection rules of the one data table, as small pure functions (GitHub Desktop's
 * list/selection.ts): click, Shift-range, Ctrl/Cmd toggle, select all, keyboard movement.
 *
 * Rows are addressed by index in the current filtered, sorted list, because a virtualized
 * table over 100,000 records has most rows not loaded: a range is two numbers, never a list of
 * uids. "All" means every row matching the filter (Ctrl/Cmd+A, `Select all matching`); then
 * the ranges are the rows taken out again. A new filter or sort starts a new selection.
 */

/** Inclusive index range, from ≤ to. */
export interface IndexRange {
  from: number;
  to: number;
}

export interface TableSelection {
  /** True: every row is selected except those in `ranges`. False: exactly `ranges`. */
  all: boolean;
  /** Sorted, disjoint, non-adjacent. */
  ranges: readonly IndexRange[];
  /** Where Shift-click and Shift+arrow ranges start. */
  anchor: number | null;
  /** The row the keyboard is on. */
  focus: number | null;
}

export const EMPTY_SELECTION: TableSelection = { all: false, ranges: [], anchor: null, focus: null };

/** Sorts and merges ranges (overlapping or adjacent ones become one). */
export function normalize(ranges: readonly IndexRange[]): IndexRange[] {
  const sorted = ranges.filter((r) => r.to >= r.from).sort((a, b) => a.from - b.from);
  const out: IndexRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else out.push({ ...r });
  }
  return out;
}

function inRanges(ranges: readonly IndexRange[], index: number): boolean {
  return ranges.some((r) => index >= r.from && index <= r.to);
}

/** Removes one index from ranges. */
function without(ranges: readonly IndexRange[], index: number): IndexRange[] {
  const out: IndexRange[] = [];
  for (const r of ranges) {
    if (index < r.from || index > r.to) out.push(r);
    else {
      if (r.from <= index - 1) out.push({ from: r.from, to: index - 1 });
      if (index + 1 <= r.to) out.push({ from: index + 1, to: r.to });
    }
  }
  return out;
}

export function isSelected(selection: TableSelection, index: number): boolean {
  return selection.all !== inRanges(selection.ranges, index);
}

/** How many rows are selected, out of `total`. */
export function selectedCount(selection: TableSelection, total: number): number {
  const inside = selection.ranges.reduce((n, r) => n + Math.max(0, Math.min(r.to, total - 1) - r.from + 1), 0);
  return selection.all ? total - inside : inside;
}

/** A plain click: that row alone, and the anchor moves there. */
export function clickRow(_selection: TableSelection, index: number): TableSelection {
  return { all: false, ranges: [{ from: index, to: index }], anchor: index, focus: index };
}

/** Ctrl/Cmd-click: toggles one row, keeps the rest; the anchor moves there. */
export function toggleRow(selection: TableSelection, index: number): TableSelection {
  const ranges = inRanges(selection.ranges, index) ? without(selection.ranges, index) : normalize([...selection.ranges, { from: index, to: index }]);
  return { ...selection, ranges, anchor: index, focus: index };
}

/**
 * Shift-click (or Shift+arrow): the rows from the anchor to `index`. With `keep` (Ctrl/Cmd
 * held too) the range is added to what was selected; otherwise it replaces it. The anchor stays.
 */
export function extendTo(selection: TableSelection, index: number, keep = false): TableSelection {
  const anchor = selection.anchor ?? selection.focus ?? index;
  const range = { from: Math.min(anchor, index), to: Math.max(anchor, index) };
  if (keep && !selection.all) return { ...selection, ranges: normalize([...selection.ranges, range]), anchor, focus: index };
  if (keep && selection.all) {
    let ranges: IndexRange[] = [...selection.ranges];
    for (let i = range.from; i <= range.to && ranges.length > 0; i++) ranges = without(ranges, i);
    return { ...selection, ranges, anchor, focus: index };
  }
  return { all: false, ranges: [range], anchor, focus: index };
}

/** Ctrl/Cmd+A and `Select all matching`: every row the filter matches. */
export function selectAll(selection: TableSelection): TableSelection {
  return { all: true, ranges: [], anchor: selection.anchor, focus: selection.focus };
}

/** Escape: nothing selected; the keyboard stays where it is. */
export function clearSelection(selection: TableSelection): TableSelection {
  return { ...EMPTY_SELECTION, focus: selection.focus };
}

export type MoveKey = 'ArrowUp' | 'ArrowDown' | 'Home' | 'End' | 'PageUp' | 'PageDown';

export function isMoveKey(key: string): key is MoveKey {
  return key === 'ArrowUp' || key === 'ArrowDown' || key === 'Home' || key === 'End' || key === 'PageUp' || key === 'PageDown';
}

/** Where a movement key takes the focus, clamped to the rows. */
export function movedIndex(focus: number | null, key: MoveKey, rowCount: number, pageSize: number): number | null {
  if (rowCount === 0) return null;
  const current = focus ?? -1;
  const target = {
    ArrowUp: focus === null ? 0 : current - 1,
    ArrowDown: current + 1,
    Home: 0,
    End: rowCount - 1,
    PageUp: focus === null ? 0 : current - pageSize,
    PageDown: current + Math.max(1, pageSize),
  }[key];
  return Math.max(0, Math.min(rowCount - 1, target));
}

/**
 * A movement key: moves the focus and selects that row (Shift: extends from the anchor,
 * Ctrl/Cmd: moves the focus only, as in a file manager).
 */
export function moveWithKey(selection: TableSelection, key: MoveKey, rowCount: number, pageSize: number, modifiers: { shift: boolean; ctrl: boolean }): TableSelection {
  const index = movedIndex(selection.focus, key, rowCount, pageSize);
  if (index === null) return selection;
  if (modifiers.shift) return extendTo(selection, index, modifiers.ctrl);
  if (modifiers.ctrl) return { ...selection, focus: index };
  return clickRow(selection, index);
}

/** Space with Ctrl/Cmd toggles the focused row (a file manager's keyboard toggle). */
export function toggleFocused(selection: TableSelection): TableSelection {
  return selection.focus === null ? selection : toggleRow(selection, selection.focus);
}

/**
 * A selection as main resolves it (records' `kind: 'ranges'`): the ranges clipped to the rows
 * there are, and the indices at their ends, whose uids the owner looks up so main can tell the
 * list has not changed. A Shift-range of 50,000 rows is one range and two indices.
 */
export function rangesForMain(selection: TableSelection, total: number): { all: boolean; ranges: IndexRange[]; ends: number[] } {
  const ranges = normalize(selection.ranges.map((r) => ({ from: Math.max(0, r.from), to: Math.min(r.to, total - 1) })));
  const ends = [...new Set(ranges.flatMap((r) => [r.from, r.to]))];
  return { all: selection.all, ranges, ends };
}

/** Every selected index when not `all` (for turning a small selection into uids). */
export function selectedIndices(selection: TableSelection): number[] {
  if (selection.all) throw new Error('selectedIndices: an "all" selection is resolved by its filter');
  const out: number[] = [];
  for (const r of selection.ranges) for (let i = r.from; i <= r.to; i++) out.push(i);
  return out;
}
