/**
 * Each table's column choices, per view id (`records`, `jobs`, ...), remembered in the page's
 * localStorage (`proofdesk.columns.<view>`) so they survive a reload and a restart; and which
 * view's `Columns` dialog is open (the button sits in the view's toolbar, the dialog with the table).
 */
import { create } from 'zustand';
import { EMPTY_COLUMN_STATE, parseColumnState, type ColumnState } from './column-state.js';
import { keep, readKept } from '../shell/kept.js';

const KEY_PREFIX = 'proofdesk.columns.';

/** What storage held for each view, read once (a selector may ask on every render). */
const loaded = new Map<string, ColumnState>();

function load(view: string): ColumnState {
  let state = loaded.get(view);
  if (state) return state;
  state = parseColumnState(readKept(KEY_PREFIX + view));
  loaded.set(view, state);
  return state;
}

function save(view: string, state: ColumnState | null): void {
  keep(KEY_PREFIX + view, state === null ? null : JSON.stringify(state));
}

export interface ColumnStore {
  views: Record<string, ColumnState>;
  /** The view whose `Columns` dialog is open, or null. */
  dialog: string | null;
  /** A view's state, read from storage the first time. */
  stateOf(view: string): ColumnState;
  update(view: string, change: (state: ColumnState) => ColumnState): void;
  /** Back to the table's default columns, forgetting what was stored. */
  reset(view: string): void;
  openDialog(view: string): void;
  closeDialog(): void;
}

export const useColumnStore = create<ColumnStore>()((set, get) => ({
  views: {},
  dialog: null,
  stateOf: (view) => get().views[view] ?? load(view),
  update: (view, change) => {
    const next = change(get().stateOf(view));
    save(view, next);
    set((s) => ({ views: { ...s.views, [view]: next } }));
  },
  reset: (view) => {
    save(view, null);
    set((s) => ({ views: { ...s.views, [view]: EMPTY_COLUMN_STATE } }));
  },
  openDialog: (view) => set({ dialog: view }),
  closeDialog: () => set({ dialog: null }),
}));

/** A view's column state, re-rendering when it changes. */
export function useColumnState(view: string): ColumnState {
  return useColumnStore((s) => s.views[view] ?? load(view));
}
