import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import './commands.css';

/** One item of a popup menu. */
export interface MenuEntry {
  key: string;
  label: string;
  /** The shortcut as people read it (`Ctrl+Shift+T`), shown at the item's end. */
  shortcut?: string;
  /** `aria-keyshortcuts` of the item. */
  keyShortcuts?: string;
  disabled?: boolean;
  run(): void;
}

/** Items that belong together; a line separates the groups. */
export interface MenuGroup {
  /** The group's accessible name (a menu's section: `File`, `Edit`, ...), if it has one. */
  label?: string;
  entries: MenuEntry[];
}

/**
 * An in-page popup menu (role `menu`, WAI-ARIA's menu pattern): the first item takes the focus,
 * ↑ ↓ Home End and a letter move it, Enter or Space runs the item, Escape or Tab closes the
 * menu, a click outside closes it. Focus goes back where it was (`actOn`, else `returnFocus`)
 * before the chosen item runs, so an item acts on what the admin was working on.
 * Used by the browser bridge's menu button and by every context menu.
 */
export function PopupMenu({
  label,
  groups,
  at,
  onClose,
  returnFocus,
  actOn,
  owner,
}: {
  label: string;
  groups: MenuGroup[];
  /** Where the menu's top left corner goes (viewport pixels); it is moved inside the window. */
  at: { x: number; y: number };
  onClose(): void;
  /** Where focus goes back to when the menu closes (Escape). */
  returnFocus: HTMLElement | null;
  /** Where focus goes before a chosen item runs, when not `returnFocus`. */
  actOn?: HTMLElement | null;
  /** The button that opened the menu: a press on it toggles the menu, it does not close it first. */
  owner?: HTMLElement | null;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState(at);
  const entries = groups.flatMap((g) => g.entries);

  const items = () => [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const focusAt = (index: number) => {
    const all = items();
    if (all.length === 0) return;
    all[(index + all.length) % all.length]?.focus();
  };

  useLayoutEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    const box = menu.getBoundingClientRect();
    const x = Math.max(4, Math.min(at.x, window.innerWidth - box.width - 4));
    const y = Math.max(4, Math.min(at.y, window.innerHeight - box.height - 4));
    setPosition({ x, y });
    const first = items().findIndex((item) => item.getAttribute('aria-disabled') !== 'true');
    focusAt(Math.max(0, first));
  }, [at.x, at.y]);

  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!ref.current?.contains(target) && !owner?.contains(target)) onClose();
    };
    const onBlur = () => onClose();
    document.addEventListener('pointerdown', onPointer, true);
    window.addEventListener('blur', onBlur);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      window.removeEventListener('blur', onBlur);
    };
  }, [onClose, owner]);

  const close = () => {
    onClose();
    returnFocus?.focus();
  };
  const choose = (entry: MenuEntry) => {
    if (entry.disabled) return;
    onClose();
    (actOn ?? returnFocus)?.focus();
    entry.run();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = items();
    const current = all.indexOf(document.activeElement as HTMLElement);
    const key = event.key;
    if (key === 'ArrowDown') focusAt(current + 1);
    else if (key === 'ArrowUp') focusAt(current - 1);
    else if (key === 'Home') focusAt(0);
    else if (key === 'End') focusAt(all.length - 1);
    else if (key === 'Escape') close();
    else if (key === 'Tab') onClose();
    else if (key === 'Enter' || key === ' ') {
      const entry = entries[current];
      if (entry) choose(entry);
    } else if (key.length === 1 && /\S/.test(key)) {
      // Type-ahead: the next item whose label starts with the letter.
      const letter = key.toLowerCase();
      const order = [...entries.keys()].map((i) => (current + 1 + i) % entries.length);
      const next = order.find((i) => entries[i]!.label.toLowerCase().startsWith(letter));
      if (next !== undefined) focusAt(next);
    } else return;
    if (key !== 'Tab') event.preventDefault();
    event.stopPropagation();
  };

  return createPortal(
    <div ref={ref} role="menu" aria-label={label} className="popup-menu" style={{ left: position.x, top: position.y }} onKeyDown={onKeyDown} onContextMenu={(e) => {
        e.preventDefault();
        e.stopPropagation();
      }}>
      {groups.map((group, g) =>
        group.entries.length === 0 ? null : (
          <div key={group.label ?? g} role="group" aria-label={group.label} className="popup-menu-group">
            {group.entries.map((entry) => (
              <div
                key={entry.key}
                role="menuitem"
                tabIndex={-1}
                aria-disabled={entry.disabled ? true : undefined}
                aria-keyshortcuts={entry.keyShortcuts}
                className="popup-menu-item"
                onClick={() => choose(entry)}
                onMouseMove={(e) => e.currentTarget.focus()}
              >
                <span>{entry.label}</span>
                {entry.shortcut && (
                  <kbd className="popup-menu-shortcut" aria-hidden="true">
                    {entry.shortcut}
                  </kbd>
                )}
              </div>
            ))}
          </div>
        ),
      )}
    </div>,
    document.body,
  );
}

/**
 * A menu's state for a component that opens one: where it is and where focus returns, or null.
 *
 * @example const menu = useMenuAnchor(); ... onContextMenu={(e) => menu.openAt(e)}
 */
export function useMenuAnchor() {
  const [anchor, setAnchor] = useState<{ at: { x: number; y: number }; returnFocus: HTMLElement | null } | null>(null);
  return {
    anchor,
    open(at: { x: number; y: number }) {
      setAnchor({ at, returnFocus: document.activeElement instanceof HTMLElement ? document.activeElement : null });
    },
    close: () => setAnchor(null),
  };
}
