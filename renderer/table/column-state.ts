/**
 * The admin's choices about a table's columns (order, shown or hidden, pinned, widths) as plain
 * data, and the pure rules that apply them to a table's columns. A view keeps one such state per
 * table (./column-store.ts remembers it); ids the table no longer has are kept but ignored, so a
 * metadata key that comes back finds its column as it was.
 */
import type { TableColumn } from './table-column.js';

/** What the admin changed; everything absent is the table's default. */
export interface ColumnState {
  /** Column ids in the admin's order; columns missing here keep their default place after them. */
  order: string[];
  /** Shown (true) or hidden (false) where that differs from the column's default. */
  visible: Record<string, boolean>;
  /** Ids of columns pinned at the start, beside the identifying column, in the order pinned. */
  pinned: string[];
  /** Ids of columns pinned by default that the admin unpinned. */
  unpinned: string[];
  /** Widths in CSS pixels of resized columns. */
  widths: Record<string, number>;
}

/** What the rules need to know of a column. */
export type ColumnShape = Pick<TableColumn<unknown>, 'id' | 'width' | 'identifying' | 'defaultHidden' | 'defaultPinned'>;

/** A column as the table lays it out. */
export interface PlacedColumn<C extends ColumnShape> {
  column: C;
  /** The CSS grid track it gets. */
  track: string;
  /** Its place among the pinned columns (0 for the first), or null when it scrolls. */
  pin: number | null;
}

export const EMPTY_COLUMN_STATE: ColumnState = { order: [], visible: {}, pinned: [], unpinned: [], widths: {} };

/** The narrowest a column may be resized to, in CSS pixels. */
export const MIN_COLUMN_PX = 48;
/** The widest a column may be resized to, in CSS pixels. */
export const MAX_COLUMN_PX = 1200;

/** Whether a column is shown under the state. */
export function isShown(state: ColumnState, column: ColumnShape): boolean {
  if (column.identifying) return true;
  return state.visible[column.id] ?? !column.defaultHidden;
}

/** Whether a column is pinned under the state. */
export function isPinned(state: ColumnState, column: ColumnShape): boolean {
  if (column.identifying || state.pinned.includes(column.id)) return true;
  return column.defaultPinned === true && !state.unpinned.includes(column.id);
}

/** The columns in the admin's order (hidden ones too): the identifying column first, then the pinned, then the rest. */
export function orderedColumns<C extends ColumnShape>(columns: readonly C[], state: ColumnState): C[] {
  const rank = new Map(state.order.map((id, i) => [id, i]));
  const pinRank = new Map(state.pinned.map((id, i) => [id, i]));
  // Columns the state has not ordered (a metadata key or engine new since) come after the ordered ones.
  const place = (c: C, i: number) => rank.get(c.id) ?? state.order.length + i;
  // The identifying column first, then those pinned by default, those the admin pinned (in the
  // order pinned), then the rest.
  const group = (c: C) => (c.identifying ? -2 : pinRank.get(c.id) ?? (isPinned(state, c) ? -1 : Infinity));
  return columns
    .map((c, i) => ({ c, g: group(c), p: place(c, i) }))
    .sort((a, b) => (a.g === b.g ? a.p - b.p : a.g - b.g))
    .map((k) => k.c);
}

/** The shown columns in order with their tracks (a resized one in pixels) and their places among the pinned. */
export function placeColumns<C extends ColumnShape>(columns: readonly C[], state: ColumnState): PlacedColumn<C>[] {
  let pins = 0;
  return orderedColumns(columns, state)
    .filter((c) => isShown(state, c))
    .map((column) => {
      const px = state.widths[column.id];
      return { column, track: px !== undefined ? `${px}px` : column.width, pin: isPinned(state, column) ? pins++ : null };
    });
}

/** The state with a column shown or hidden (the identifying column is always shown). */
export function setShown(state: ColumnState, column: ColumnShape, shown: boolean): ColumnState {
  if (column.identifying) return state;
  const visible = { ...state.visible };
  if (shown === !column.defaultHidden) delete visible[column.id];
  else visible[column.id] = shown;
  return { ...state, visible };
}

/** The state with a column pinned or no longer pinned. */
export function setPinned(state: ColumnState, column: ColumnShape, pinned: boolean): ColumnState {
  if (column.identifying) return state;
  const rest = state.pinned.filter((id) => id !== column.id);
  const unpinned = state.unpinned.filter((id) => id !== column.id);
  if (pinned) return { ...state, pinned: column.defaultPinned ? rest : [...rest, column.id], unpinned };
  return { ...state, pinned: rest, unpinned: column.defaultPinned ? [...unpinned, column.id] : unpinned };
}

/** The state with a column's width set (clamped to MIN_COLUMN_PX .. MAX_COLUMN_PX), or back to its default with null. */
export function setWidth(state: ColumnState, id: string, px: number | null): ColumnState {
  const widths = { ...state.widths };
  if (px === null) delete widths[id];
  else widths[id] = Math.round(Math.min(MAX_COLUMN_PX, Math.max(MIN_COLUMN_PX, px)));
  return { ...state, widths };
}

/**
 * The state with a column moved `by` places among the shown columns of its group (the pinned
 * ones or the others); the identifying column does not move. Unchanged when it cannot move.
 */
export function moveColumn<C extends ColumnShape>(columns: readonly C[], state: ColumnState, id: string, by: number): ColumnState {
  const ordered = orderedColumns(columns, state);
  const column = ordered.find((c) => c.id === id);
  if (!column || column.identifying) return state;
  const pinned = isPinned(state, column);
  const peers = ordered.filter((c) => !c.identifying && isPinned(state, c) === pinned && isShown(state, c));
  const from = peers.indexOf(column);
  const to = from + by;
  if (from < 0 || to < 0 || to >= peers.length) return state;
  const target = peers[to]!;
  const ids = ordered.map((c) => c.id).filter((x) => x !== id);
  const at = ids.indexOf(target.id) + (by > 0 ? 1 : 0);
  ids.splice(at, 0, id);
  // Ids of columns the table does not have now keep their place at the end.
  const known = new Set(ids);
  return { ...state, order: [...ids, ...state.order.filter((x) => !known.has(x))], pinned: pinned ? reorderPinned(state.pinned, ids) : state.pinned };
}

function reorderPinned(pinned: readonly string[], order: readonly string[]): string[] {
  const rank = new Map(order.map((id, i) => [id, i]));
  return [...pinned].sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity));
}

/** A stored state read back, or the empty state when it is not one (a hand-edited or older value). */
export function parseColumnState(text: string | null): ColumnState {
  if (!text) return EMPTY_COLUMN_STATE;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return EMPTY_COLUMN_STATE;
  }
  if (typeof value !== 'object' || value === null) return EMPTY_COLUMN_STATE;
  const v = value as Record<string, unknown>;
  const strings = (x: unknown) => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);
  const record = <T>(x: unknown, ok: (y: unknown) => y is T): Record<string, T> => {
    const out: Record<string, T> = {};
    if (typeof x !== 'object' || x === null || Array.isArray(x)) return out;
    for (const [k, y] of Object.entries(x)) if (ok(y)) out[k] = y;
    return out;
  };
  const widths = record(v['widths'], (y): y is number => typeof y === 'number' && Number.isFinite(y));
  for (const k of Object.keys(widths)) widths[k] = Math.min(MAX_COLUMN_PX, Math.max(MIN_COLUMN_PX, widths[k]!));
  return {
    order: strings(v['order']),
    visible: record(v['visible'], (y): y is boolean => typeof y === 'boolean'),
    pinned: strings(v['pinned']),
    unpinned: strings(v['unpinned']),
    widths,
  };
}
