import { describe, expect, it } from 'vitest';
import {
  EMPTY_COLUMN_STATE,
  MIN_COLUMN_PX,
  isShown,
  moveColumn,
  orderedColumns,
  parseColumnState,
  placeColumns,
  setPinned,
  setShown,
  setWidth,
  type ColumnShape,
} from './column-state.js';

const COLUMNS: ColumnShape[] = [
  { id: 'title', width: 'minmax(12rem, 3fr)', identifying: true },
  { id: 'tags', width: 'minmax(8rem, 2fr)' },
  { id: 'files', width: '5.5rem' },
  { id: 'uploaded', width: '8rem' },
  { id: 'meta:student', width: 'minmax(8rem, 2fr)', defaultHidden: true },
];
const ids = (columns: readonly ColumnShape[]) => columns.map((c) => c.id);
const shownIds = (state = EMPTY_COLUMN_STATE) => placeColumns(COLUMNS, state).map((p) => p.column.id);

describe('column state', () => {
  it('shows the default columns in their order, metadata columns hidden until chosen', () => {
    expect(shownIds()).toEqual(['title', 'tags', 'files', 'uploaded']);
    const withStudent = setShown(EMPTY_COLUMN_STATE, COLUMNS[4]!, true);
    expect(shownIds(withStudent)).toEqual(['title', 'tags', 'files', 'uploaded', 'meta:student']);
    // Back to the default: nothing is remembered for it.
    expect(setShown(withStudent, COLUMNS[4]!, false).visible).toEqual({});
  });

  it('never hides, unpins or moves the identifying column', () => {
    const title = COLUMNS[0]!;
    expect(setShown(EMPTY_COLUMN_STATE, title, false)).toBe(EMPTY_COLUMN_STATE);
    expect(setPinned(EMPTY_COLUMN_STATE, title, false)).toBe(EMPTY_COLUMN_STATE);
    expect(moveColumn(COLUMNS, EMPTY_COLUMN_STATE, 'title', 1)).toBe(EMPTY_COLUMN_STATE);
    // Another column moved before it still comes after it.
    const moved = moveColumn(COLUMNS, EMPTY_COLUMN_STATE, 'tags', -1);
    expect(shownIds(moved)[0]).toBe('title');
    expect(isShown(setShown(EMPTY_COLUMN_STATE, COLUMNS[1]!, false), COLUMNS[1]!)).toBe(false);
  });

  it('moves a column among the shown ones, skipping hidden columns, and not past either end', () => {
    const right = moveColumn(COLUMNS, EMPTY_COLUMN_STATE, 'tags', 1);
    expect(shownIds(right)).toEqual(['title', 'files', 'tags', 'uploaded']);
    const twice = moveColumn(COLUMNS, right, 'tags', 1);
    expect(shownIds(twice)).toEqual(['title', 'files', 'uploaded', 'tags']);
    // The hidden metadata column is not a place to move to: already last of the shown.
    expect(moveColumn(COLUMNS, twice, 'tags', 1)).toBe(twice);
    expect(moveColumn(COLUMNS, EMPTY_COLUMN_STATE, 'tags', -1)).toBe(EMPTY_COLUMN_STATE);
    // A column shown later appears where the table has it, after the last ordered column before it.
    const student = setShown(twice, COLUMNS[4]!, true);
    expect(shownIds(student)).toEqual(['title', 'files', 'uploaded', 'tags', 'meta:student']);
  });

  it('puts pinned columns right after the identifying column, numbered for where each sticks', () => {
    const pinned = setPinned(setWidth(EMPTY_COLUMN_STATE, 'uploaded', 150), COLUMNS[3]!, true);
    const placed = placeColumns(COLUMNS, pinned);
    expect(placed.map((p) => p.column.id)).toEqual(['title', 'uploaded', 'tags', 'files']);
    expect(placed.map((p) => p.track)).toEqual(['minmax(12rem, 3fr)', '150px', 'minmax(8rem, 2fr)', '5.5rem']);
    expect(placed.map((p) => p.pin)).toEqual([0, 1, null, null]);
    const two = setPinned(pinned, COLUMNS[2]!, true);
    expect(placeColumns(COLUMNS, two).map((p) => p.pin)).toEqual([0, 1, 2, null]);
    // Unpinned, it goes back among the others, in its place.
    expect(shownIds(setPinned(two, COLUMNS[3]!, false))).toEqual(['title', 'files', 'tags', 'uploaded']);
  });

  it('keeps a column pinned by default pinned until the admin unpins it, and remembers that', () => {
    const withState: ColumnShape[] = [...COLUMNS, { id: 'state:local', width: '9.5rem', defaultPinned: true }];
    expect(placeColumns(withState, EMPTY_COLUMN_STATE).map((p) => [p.column.id, p.pin])).toEqual([
      ['title', 0],
      ['state:local', 1],
      ['tags', null],
      ['files', null],
      ['uploaded', null],
    ]);
    const unpinned = setPinned(EMPTY_COLUMN_STATE, withState[5]!, false);
    expect(unpinned.unpinned).toEqual(['state:local']);
    expect(placeColumns(withState, unpinned).map((p) => p.column.id)).toEqual(['title', 'tags', 'files', 'uploaded', 'state:local']);
    expect(setPinned(unpinned, withState[5]!, true)).toEqual(EMPTY_COLUMN_STATE);
  });

  it('moves pinned columns among the pinned only', () => {
    const two = setPinned(setPinned(EMPTY_COLUMN_STATE, COLUMNS[3]!, true), COLUMNS[2]!, true);
    expect(shownIds(two)).toEqual(['title', 'uploaded', 'files', 'tags']);
    const swapped = moveColumn(COLUMNS, two, 'files', -1);
    expect(shownIds(swapped)).toEqual(['title', 'files', 'uploaded', 'tags']);
    expect(moveColumn(COLUMNS, swapped, 'uploaded', 1)).toBe(swapped);
  });

  it('clamps widths and forgets one set back to the default', () => {
    expect(setWidth(EMPTY_COLUMN_STATE, 'tags', 3).widths['tags']).toBe(MIN_COLUMN_PX);
    expect(setWidth(setWidth(EMPTY_COLUMN_STATE, 'tags', 300), 'tags', null).widths).toEqual({});
  });

  it('reads back what it stored, and ignores what it did not (a hand-edited value)', () => {
    const state = moveColumn(COLUMNS, setWidth(setPinned(EMPTY_COLUMN_STATE, COLUMNS[2]!, true), 'tags', 222), 'uploaded', -1);
    expect(parseColumnState(JSON.stringify(state))).toEqual(state);
    expect(parseColumnState('not json')).toEqual(EMPTY_COLUMN_STATE);
    expect(parseColumnState(null)).toEqual(EMPTY_COLUMN_STATE);
    expect(parseColumnState('{"order":[1,"tags"],"visible":{"files":"no","tags":false},"widths":{"tags":1e9}}')).toEqual({
      order: ['tags'],
      visible: { tags: false },
      pinned: [],
      unpinned: [],
      widths: { tags: 1200 },
    });
  });

  it('keeps the order of ids the table does not have now, for when they come back', () => {
    const state = { ...EMPTY_COLUMN_STATE, order: ['title', 'meta:gone', 'files', 'tags', 'uploaded'] };
    expect(ids(orderedColumns(COLUMNS, state))).toEqual(['title', 'files', 'tags', 'uploaded', 'meta:student']);
    expect(moveColumn(COLUMNS, state, 'tags', -1).order).toContain('meta:gone');
  });
});
