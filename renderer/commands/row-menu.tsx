import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { PopupMenu, useMenuAnchor, type MenuGroup } from './popup-menu.js';

/**
 * A table's context menu (UI.md: a right click on a row, or Shift+F10 / the context-menu key
 * on the focused row, opens a `menu` of what can be done with it; Escape closes it). Give
 * `open` to the table's `onRowMenu` and render `menu`.
 *
 * @example const rowMenu = useRowMenu<Job>('Job', (job) => [...]); <DataTable onRowMenu={rowMenu.open} />{rowMenu.menu}
 */
export function useRowMenu<T>(label: string, groupsFor: (row: T) => MenuGroup[]) {
  const menu = useMenuAnchor();
  const [target, setTarget] = useState<{ row: T } | null>(null);
  return {
    open: (_index: number, row: T, at: { x: number; y: number }) => {
      setTarget({ row });
      menu.open(at);
    },
    menu: menu.anchor && target ? <PopupMenu label={label} groups={groupsFor(target.row)} at={menu.anchor.at} returnFocus={menu.anchor.returnFocus} onClose={menu.close} /> : null,
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
  const menu = useMenuAnchor();
  const under = (event: MouseEvent | KeyboardEvent) => {
    const box = (event.target as HTMLElement).getBoundingClientRect();
    return { x: box.left, y: box.bottom };
  };
  return {
    target: {
      onContextMenu: (event: MouseEvent) => {
        event.preventDefault();
        // From the keyboard the event's point is not where the admin looks: under the focus.
        menu.open(event.clientX === 0 && event.clientY === 0 ? under(event) : { x: event.clientX, y: event.clientY });
      },
      onKeyDown: (event: KeyboardEvent) => {
        if (!((event.key === 'F10' && event.shiftKey) || event.key === 'ContextMenu')) return;
        event.preventDefault();
        menu.open(under(event));
      },
    },
    menu: menu.anchor ? <PopupMenu label={label} groups={groups()} at={menu.anchor.at} returnFocus={menu.anchor.returnFocus} onClose={menu.close} /> : null,
  };
}
