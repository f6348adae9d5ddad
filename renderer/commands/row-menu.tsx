import { useState, type KeyboardEvent, type MouseEvent } from 'react';
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

/**
 * The context menu of one element that is not a table row (a watch folder's card): a right
 * click on it, or Shift+F10 / the context-menu key while focus is inside it, opens the menu.
 * Spread `target` on the element and render `menu`.
 *
 * @example const folderMenu = useElementMenu('Watch folder', () => [...]); <article {...folderMenu.target}>…</article>{folderMenu.menu}
 */
export function useElementMenu(label: string, groups: () => MenuGroup[]) {
  const [state, setState] = useState<RowMenuState<null> | null>(null);
  const openAt = (at: { x: number; y: number }) => setState({ row: null, at, returnFocus: document.activeElement instanceof HTMLElement ? document.activeElement : null });
  return {
    target: {
      onContextMenu: (event: MouseEvent) => {
        event.preventDefault();
        // From the keyboard the event's point is not where the admin looks: under the focus.
        const box = (event.target as HTMLElement).getBoundingClientRect();
        openAt(event.clientX === 0 && event.clientY === 0 ? { x: box.left, y: box.bottom } : { x: event.clientX, y: event.clientY });
      },
      onKeyDown: (event: KeyboardEvent) => {
        if (!((event.key === 'F10' && event.shiftKey) || event.key === 'ContextMenu')) return;
        event.preventDefault();
        const box = (event.target as HTMLElement).getBoundingClientRect();
        openAt({ x: box.left, y: box.bottom });
      },
    },
    menu: state ? <PopupMenu label={label} groups={groups()} at={state.at} returnFocus={state.returnFocus} onClose={() => setState(null)} /> : null,
  };
}
