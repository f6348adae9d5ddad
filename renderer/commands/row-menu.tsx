import { useState } from 'react';
import { PopupMenu, type MenuGroup } from './popup-menu.js';

/** An open context menu: for which row, where, and where focus goes back. */
interface RowMenuState<T> {
  row: T;
  at: { x: number; y: number };
  returnFocus: HTMLElement | null;
}

/**
 * A table's context menu (UI.md: a right click on a row, or Shift+F10 / the context-menu key
 * on the focused row, opens a `menu` of what can be done with it; Escape closes it). Give
 * `open` to the table's `onRowMenu` and render `menu`.
 *
 * @example const rowMenu = useRowMenu<Job>('Job', (job) => [...]); <DataTable onRowMenu={rowMenu.open} />{rowMenu.menu}
 */
export function useRowMenu<T>(label: string, groupsFor: (row: T) => MenuGroup[]) {
  const [state, setState] = useState<RowMenuState<T> | null>(null);
  return {
    open: (_index: number, row: T, at: { x: number; y: number }) => {
      setState({ row, at, returnFocus: document.activeElement instanceof HTMLElement ? document.activeElement : null });
    },
    menu: state ? <PopupMenu label={label} groups={groupsFor(state.row)} at={state.at} returnFocus={state.returnFocus} onClose={() => setState(null)} /> : null,
  };
}
