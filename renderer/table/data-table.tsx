/**
 * The one data table of the app (Records, Jobs, and later Verify results): TanStack Table
 * for columns, headers and sort state (./table-header.tsx), TanStack Virtual for the rows, and the pure rules of
 * ./selection.ts for selecting. Rows are addressed by index and fetched by the owner as they
 * scroll into view (`onRangeChange`); the table never holds more than what is on screen.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useId, useMemo, useRef, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { PopupMenu, useMenuAnchor } from '../commands/popup-menu.js';
import { columnMenuGroups, ColumnsDialog } from './column-menu.js';
import { EMPTY_COLUMN_STATE, placeColumns, setWidth, type PlacedColumn } from './column-state.js';
import { useColumnState, useColumnStore } from './column-store.js';
import { tableMinWidth } from './column-widths.js';
import { TableHeader, type HeaderColumnActions } from './table-header.js';
import { pinStyle, type TableColumn, type TableSort } from './table-column.js';

export type { TableColumn, TableSort } from './table-column.js';
import { clearSelection, clickRow, extendTo, isMoveKey, isSelected, moveWithKey, selectAll, toggleFocused, toggleRow, type TableSelection } from './selection.js';
import { t } from '../i18n/i18n-store.js';

/** The full text of a loaded cell: the column's `text`, else what `cell` gave when it is plain text. */
function cellText<T>(column: TableColumn<T>, row: T, content: ReactNode): string | undefined {
  if (column.text) return column.text(row);
  return typeof content === 'string' || typeof content === 'number' ? String(content) : undefined;
}

export interface DataTableProps<T> {
  /** The accessible name (UI.md: `Credentials`, `Jobs`). */
  label: string;
  columns: TableColumn<T>[];
  rowCount: number;
  /** The row at an index, or undefined while it is being fetched. */
  rowAt: (index: number) => T | undefined;
  /** Called with the indices on screen (plus overscan), for the owner to fetch. */
  onRangeChange: (start: number, end: number) => void;
  selection: TableSelection;
  onSelectionChange: (selection: TableSelection) => void;
  /** Enter or double click on a row. */
  onOpen?: (index: number, row: T) => void;
  sort?: TableSort;
  onSortChange?: (sort: TableSort) => void;
  rowHeight?: number;
  emptyText?: string;
  /**
   * A row's context menu is asked for: a right click on it (which first selects it unless it
   * is selected already, as in a file manager), or Shift+F10 / the context-menu key on the
   * focused row. `at` is where the menu goes, in viewport pixels.
   */
  onRowMenu?: (index: number, row: T, at: { x: number; y: number }) => void;
  /**
   * The view whose column choices the table remembers (`records`, `jobs`): with it, columns can
   * be resized, moved, hidden and pinned (header menu, resize handles, the `Columns` dialog).
   */
  columnsView?: string;
  /** A sentence at the end of the `Columns` dialog (e.g. why no metadata columns are offered). */
  columnsNote?: string;
}


/** The table. See the file comment. */
export function DataTable<T>(props: DataTableProps<T>) {
  const { label, columns: given, rowCount, rowAt, onRangeChange, selection, onSelectionChange, onOpen, sort, onSortChange, rowHeight = 34, emptyText = t('table.empty'), onRowMenu, columnsView, columnsNote } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const idPrefix = useId().replace(/:/g, '');

  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    // Rows have one fixed height and are never measured; a few rows beyond the screen are
    // enough for the keyboard and the wheel, and each one costs layout and paint per frame.
    overscan: 3,
  });
  const items = virtualizer.getVirtualItems();
  // Rows are keyed by index modulo the most rows ever on screen: any window of consecutive
  // rows then uses (nearly) every key, so even a jump far down hands the rows on screen their
  // new data in the nodes they have instead of unmounting and building them again.
  const slots = useRef(1);
  slots.current = Math.max(slots.current, items.length);
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    if (last >= first) onRangeChange(first, last);
  }, [first, last, onRangeChange]);

  // The header re-renders only when its columns or sort change, never on a scroll frame.
  const onSort = useRef(onSortChange);
  onSort.current = onSortChange;
  const sortChanged = useCallback((next: TableSort) => onSort.current?.(next), []);

  // The columns as the admin arranged them (or the table's own, first one pinned).
  const columnState = useColumnState(columnsView ?? '');
  const all = useMemo(() => (given.some((c) => c.identifying) || given.length === 0 ? given : [{ ...given[0]!, identifying: true }, ...given.slice(1)]), [given]);
  const placed = useMemo(() => placeColumns(all, columnsView ? columnState : EMPTY_COLUMN_STATE), [all, columnsView, columnState]);
  const columns = useMemo(() => placed.map((p) => p.column), [placed]);
  const columnMenu = useMenuAnchor();
  const menuFor = useRef<string | null>(null);
  const dialogOpen = useColumnStore((s) => columnsView !== undefined && s.dialog === columnsView);
  const headerActions = useMemo<HeaderColumnActions | null>(
    () =>
      columnsView
        ? {
            resize: (id, px) => useColumnStore.getState().update(columnsView, (s) => setWidth(s, id, px)),
            menu: (id, at) => {
              menuFor.current = id;
              columnMenu.open(at);
            },
          }
        : null,
    // columnMenu.open only sets state: the actions stay the same for the header's memo.
    [columnsView],
  );

  const template = placed.map((p) => p.track).join(' ');
  const minWidth = tableMinWidth(placed.map((p) => p.track));
  const pageSize = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? rowHeight * 10) / rowHeight) - 1);

  const change = (next: TableSelection) => {
    onSelectionChange(next);
    if (next.focus !== null && next.focus !== selection.focus) virtualizer.scrollToIndex(next.focus, { align: 'auto' });
  };

  /** The focused row's menu, under the row (the keyboard's way to a context menu). */
  const rowMenuForFocus = (): boolean => {
    const index = selection.focus;
    const row = index !== null ? rowAt(index) : undefined;
    if (!onRowMenu || index === null || row === undefined) return false;
    const box = document.getElementById(`${idPrefix}-row-${index}`)?.getBoundingClientRect();
    onRowMenu(index, row, box ? { x: box.left + 24, y: box.bottom } : { x: 0, y: 0 });
    return true;
  };

  const onContextMenu = (event: MouseEvent<HTMLDivElement>) => {
    if (!onRowMenu) return;
    const rowElement = (event.target as HTMLElement).closest<HTMLElement>('[role="row"][aria-rowindex]');
    const index = rowElement ? Number(rowElement.getAttribute('aria-rowindex')) - 2 : null;
    const row = index !== null && index >= 0 ? rowAt(index) : undefined;
    if (index === null || index < 0) {
      // From the keyboard the event is the grid's own: the focused row's menu.
      if (event.target === event.currentTarget && rowMenuForFocus()) event.preventDefault();
      return;
    }
    event.preventDefault();
    if (row === undefined) return;
    if (!isSelected(selection, index)) change(clickRow(selection, index));
    onRowMenu(index, row, { x: event.clientX, y: event.clientY });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Keys on a header's resize handle are the handle's.
    if (event.target !== event.currentTarget) return;
    const ctrl = event.ctrlKey || event.metaKey;
    if ((event.key === 'F10' && event.shiftKey) || event.key === 'ContextMenu') {
      if (rowMenuForFocus()) event.preventDefault();
    } else if (isMoveKey(event.key)) {
      event.preventDefault();
      change(moveWithKey(selection, event.key, rowCount, pageSize, { shift: event.shiftKey, ctrl }));
    } else if (ctrl && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      change(selectAll(selection));
    } else if (event.key === 'Escape' && (selection.all || selection.ranges.length > 0)) {
      event.preventDefault();
      change(clearSelection(selection));
    } else if (event.key === ' ' && selection.focus !== null) {
      event.preventDefault();
      change(ctrl ? toggleFocused(selection) : clickRow(selection, selection.focus));
    } else if (event.key === 'Enter' && selection.focus !== null && onOpen) {
      const row = rowAt(selection.focus);
      if (row !== undefined) {
        event.preventDefault();
        onOpen(selection.focus, row);
      }
    }
  };

  // Stable callbacks (they read the latest props through a ref), so a row whose index, data and
  // selection did not change is not re-rendered at all.
  const latest = useRef({ selection, onOpen, rowAt, change: (_next: TableSelection) => {} });
  latest.current = { selection, onOpen, rowAt, change };
  const onRowMouseDown = useCallback((event: MouseEvent, index: number) => {
    if (event.button !== 0) return;
    const { selection: current, change: apply } = latest.current;
    const ctrl = event.ctrlKey || event.metaKey;
    if (event.shiftKey) event.preventDefault(); // no text selection on Shift-click
    apply(event.shiftKey ? extendTo(current, index, ctrl) : ctrl ? toggleRow(current, index) : clickRow(current, index));
  }, []);
  const onOpenRow = useCallback((index: number) => {
    const row = latest.current.rowAt(index);
    if (row !== undefined) latest.current.onOpen?.(index, row);
  }, []);

  const focusId = selection.focus !== null && selection.focus < rowCount ? `${idPrefix}-row-${selection.focus}` : undefined;

  return (
    <>
      <div
        ref={scrollRef}
        className="data-table"
        role="grid"
        aria-label={label}
        aria-rowcount={rowCount + 1}
        aria-colcount={columns.length}
        aria-multiselectable="true"
        aria-activedescendant={focusId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onContextMenu={onContextMenu}
        // One grid template and row height for every row, set once here rather than on each row;
        // below the columns' smallest widths the table scrolls sideways instead of cutting them off.
        style={{ '--dt-columns': template, '--dt-row-height': `${rowHeight}px`, '--dt-min-width': minWidth } as CSSProperties}
      >
        <TableHeader placed={placed} sortId={sort?.id ?? null} sortDesc={sort?.desc ?? false} onSortChange={sortChanged} actions={headerActions} />
        <div role="rowgroup" className="dt-body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => (
            <TableRow
              // Keyed by slot, not by index: rows scrolled away hand their DOM nodes to the rows
              // scrolling in, so a frame updates text instead of building new nodes.
              key={item.index % slots.current}
              id={`${idPrefix}-row-${item.index}`}
              index={item.index}
              start={item.start}
              row={rowAt(item.index)}
              selected={isSelected(selection, item.index)}
              focused={selection.focus === item.index}
              placed={placed}
              onMouseDown={onRowMouseDown}
              onOpen={onOpenRow}
            />
          ))}
        </div>
        {rowCount === 0 && <div className="dt-empty">{emptyText}</div>}
      </div>
      {/* Beside the grid, not in it: its keys (Space, arrows) are the rows', not the menu's or the dialog's. */}
      {columnsView && columnMenu.anchor && menuFor.current && (
        <PopupMenu
          label={t('table.columns.menu', { column: all.find((c) => c.id === menuFor.current)?.header ?? '' })}
          groups={columnMenuGroups(columnsView, all, menuFor.current)}
          at={columnMenu.anchor.at}
          returnFocus={columnMenu.anchor.returnFocus}
          onClose={columnMenu.close}
        />
      )}
      {dialogOpen && columnsView && <ColumnsDialog view={columnsView} columns={all} note={columnsNote} />}
    </>
  );
}

interface TableRowProps<T> {
  id: string;
  index: number;
  start: number;
  row: T | undefined;
  selected: boolean;
  focused: boolean;
  placed: PlacedColumn<TableColumn<T>>[];
  onMouseDown: (event: MouseEvent, index: number) => void;
  onOpen: (index: number) => void;
}

/**
 * One row, memoized on plain props: a scroll frame re-renders only the slots that now show
 * another row, and a row still loading has the same cells as a loaded one (empty), so its
 * data arriving fills text into nodes that exist instead of building new ones.
 */
const TableRow = memo(function TableRow<T>({ id, index, start, row, selected, focused, placed, onMouseDown, onOpen }: TableRowProps<T>) {
  return (
    <div
      id={id}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      aria-busy={row === undefined || undefined}
      className={focused ? 'dt-row dt-focused' : 'dt-row'}
      style={{ transform: `translateY(${start}px)` }}
      onMouseDown={(event) => onMouseDown(event, index)}
      onDoubleClick={() => onOpen(index)}
    >
      {placed.map(({ column, pin: place }, i) => {
        const pin = pinStyle(place);
        const className = place === null ? 'dt-cell' : 'dt-cell dt-pinned';
        if (row === undefined) {
          return (
            <div key={column.id} role="gridcell" className={`${className} muted`} style={pin}>
              {i === 0 ? t('common.loading') : null}
            </div>
          );
        }
        const content = column.cell(row);
        // Every cell may be cut to an ellipsis by its column's width: its full text is its title.
        return (
          <div key={column.id} role="gridcell" className={className} style={pin} title={cellText(column, row, content)}>
            {content}
          </div>
        );
      })}
    </div>
  );
}) as <T>(props: TableRowProps<T>) => ReactNode;
