/**
 * The one data table of the app (Records, Jobs, and later Verify results): TanStack Table
 * for columns, headers and sort state, TanStack Virtual for the rows, and the pure rules of
 * ./selection.ts for selecting. Rows are addressed by index and fetched by the owner as they
 * scroll into view (`onRangeChange`); the table never holds more than what is on screen.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { createColumnHelper, rowSortingFeature, tableFeatures, useTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { memo, useEffect, useId, useMemo, useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { clearSelection, clickRow, extendTo, isMoveKey, isSelected, moveWithKey, selectAll, toggleFocused, toggleRow, type TableSelection } from './selection.js';

const features = tableFeatures({ rowSortingFeature });
type Features = typeof features;

/** One column: its header, CSS grid width, and how a loaded row shows in it. */
export interface TableColumn<T> {
  id: string;
  header: string;
  /** A CSS grid track, e.g. `2fr` or `8rem`. */
  width: string;
  sortable?: boolean;
  cell: (row: T) => ReactNode;
}

export interface TableSort {
  id: string;
  desc: boolean;
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
}

type Slot<T> = { index: number; row: T | undefined };
const NO_ROWS: never[] = [];
/** More than the rows ever on screen plus overscan (consecutive indices modulo this are unique). */
const ROW_SLOTS = 256;

/** The table. See the file comment. */
export function DataTable<T>(props: DataTableProps<T>) {
  const { label, columns, rowCount, rowAt, onRangeChange, selection, onSelectionChange, onOpen, sort, onSortChange, rowHeight = 34, emptyText = 'Nothing here yet.' } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const idPrefix = useId().replace(/:/g, '');

  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    if (last >= first) onRangeChange(first, last);
  }, [first, last, onRangeChange]);

  // TanStack Table holds the columns, headers and sort state; it gets no rows: 100,000 Row
  // objects would cost for nothing, and the body renders only the slots on screen (RowCells).
  const columnDefs = useMemo(() => {
    const helper = createColumnHelper<Features, Slot<T>>();
    return columns.map((column) =>
      // An accessor (not a display column): only those can sort. Sorting is done in main
      // (manualSorting); the value is the row's position, never compared here.
      helper.accessor((slot) => slot.index, {
        id: column.id,
        header: column.header,
        enableSorting: column.sortable === true,
        sortDescFirst: false,
        cell: (context) => {
          const row = context.row.original.row;
          return row === undefined ? null : column.cell(row);
        },
      }),
    ) as ColumnDef<Features, Slot<T>, unknown>[];
  }, [columns]);
  const sorting: SortingState = useMemo(() => (sort ? [{ id: sort.id, desc: sort.desc }] : []), [sort?.id, sort?.desc]);
  const table = useTable({
    features,
    columns: columnDefs,
    data: NO_ROWS as Slot<T>[],
    manualSorting: true,
    enableSortingRemoval: false,
    state: { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const head = next[0];
      if (head && onSortChange) onSortChange({ id: head.id, desc: head.desc });
    },
  });

  const template = columns.map((c) => c.width).join(' ');
  const pageSize = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? rowHeight * 10) / rowHeight) - 1);

  const change = (next: TableSelection) => {
    onSelectionChange(next);
    if (next.focus !== null && next.focus !== selection.focus) virtualizer.scrollToIndex(next.focus, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const ctrl = event.ctrlKey || event.metaKey;
    if (isMoveKey(event.key)) {
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

  const onRowMouseDown = (event: MouseEvent, index: number) => {
    if (event.button !== 0) return;
    const ctrl = event.ctrlKey || event.metaKey;
    if (event.shiftKey) event.preventDefault(); // no text selection on Shift-click
    change(event.shiftKey ? extendTo(selection, index, ctrl) : ctrl ? toggleRow(selection, index) : clickRow(selection, index));
  };

  const focusId = selection.focus !== null && selection.focus < rowCount ? `${idPrefix}-row-${selection.focus}` : undefined;

  return (
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
    >
      <div role="rowgroup" className="dt-head">
        {table.getHeaderGroups().map((group) => (
          <div key={group.id} role="row" aria-rowindex={1} className="dt-header" style={{ gridTemplateColumns: template }}>
            {group.headers.map((header) => {
              const sorted = header.column.getIsSorted();
              return (
                <div
                  key={header.id}
                  role="columnheader"
                  className="dt-header-cell"
                  aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                >
                  {header.column.getCanSort() ? (
                    <button type="button" tabIndex={-1} onClick={header.column.getToggleSortingHandler()}>
                      <table.FlexRender header={header} />
                      {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}
                    </button>
                  ) : (
                    <table.FlexRender header={header} />
                  )}
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <div role="rowgroup" className="dt-body" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rowAt(item.index);
          return (
            <div
              // Keyed by slot, not by index: rows scrolled away hand their DOM nodes to the rows
              // scrolling in, so a frame updates text instead of building ~250 new nodes.
              key={item.index % ROW_SLOTS}
              id={`${idPrefix}-row-${item.index}`}
              role="row"
              aria-rowindex={item.index + 2}
              aria-selected={isSelected(selection, item.index)}
              className={`dt-row${selection.focus === item.index ? ' dt-focused' : ''}`}
              style={{ height: item.size, transform: `translateY(${item.start}px)`, gridTemplateColumns: template }}
              onMouseDown={(event) => onRowMouseDown(event, item.index)}
              onDoubleClick={() => row !== undefined && onOpen?.(item.index, row)}
            >
              {row === undefined ? (
                <div role="gridcell" className="dt-cell muted">
                  Loading…
                </div>
              ) : (
                <RowCells row={row} columns={columns} />
              )}
            </div>
          );
        })}
      </div>
      {rowCount === 0 && <div className="dt-empty">{emptyText}</div>}
    </div>
  );
}

/**
 * A loaded row's cells. Memoized on the row object: scrolling and selecting re-render the
 * row boxes (position, aria-selected) but not the cells of rows already on screen.
 */
const RowCells = memo(function RowCells<T>({ row, columns }: { row: T; columns: TableColumn<T>[] }) {
  return (
    <>
      {columns.map((column) => (
        <div key={column.id} role="gridcell" className="dt-cell">
          {column.cell(row)}
        </div>
      ))}
    </>
  );
}) as <T>(props: { row: T; columns: TableColumn<T>[] }) => ReactNode;
