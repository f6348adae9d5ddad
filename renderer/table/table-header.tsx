/**
 * The data table's header row: TanStack Table holds the columns, headers and sort state. It gets
 * no rows (100,000 Row objects would cost for nothing; the body renders only the rows on screen),
 * and it is memoized on its columns and sort, so a scroll frame never renders it. Where the table
 * remembers its columns, each header ends in a resize handle (a `separator`: drag it, or focus it
 * and use the arrow keys) and a right click or Shift+F10 on a header opens the column menu.
 */
import { createColumnHelper, rowSortingFeature, tableFeatures, useTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { memo, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent, type ReactNode } from 'react';
import { pinStyle, type TableColumn, type TableSort } from './table-column.js';
import { MAX_COLUMN_PX, MIN_COLUMN_PX, type PlacedColumn } from './column-state.js';
import { t } from '../i18n/i18n-store.js';

const features = tableFeatures({ rowSortingFeature });
type Features = typeof features;
type Slot<T> = { index: number; row: T | undefined };
const NO_ROWS: never[] = [];

/** How far one arrow key press resizes a column (Shift: four times as far), in CSS pixels. */
const KEY_STEP_PX = 16;

/** What the header does to the columns, when the table remembers them. */
export interface HeaderColumnActions {
  resize(id: string, px: number): void;
  /** Opens the column menu of a column at a point of the viewport. */
  menu(id: string, at: { x: number; y: number }): void;
}

interface TableHeaderProps<T> {
  placed: PlacedColumn<TableColumn<T>>[];
  sortId: string | null;
  sortDesc: boolean;
  onSortChange: (sort: TableSort) => void;
  actions: HeaderColumnActions | null;
}

export const TableHeader = memo(function TableHeader<T>({ placed, sortId, sortDesc, onSortChange, actions }: TableHeaderProps<T>) {
  const columnDefs = useMemo(() => {
    const helper = createColumnHelper<Features, Slot<T>>();
    return placed.map(({ column }) =>
      // An accessor (not a display column): only those can sort. Sorting is done by the owner
      // (manualSorting); the value is the row's position, never compared here.
      helper.accessor((slot) => slot.index, {
        id: column.id,
        header: column.header,
        enableSorting: column.sortable === true,
        sortDescFirst: false,
      }),
    ) as ColumnDef<Features, Slot<T>, unknown>[];
  }, [placed]);
  const sorting: SortingState = useMemo(() => (sortId ? [{ id: sortId, desc: sortDesc }] : []), [sortId, sortDesc]);
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
      if (head) onSortChange({ id: head.id, desc: head.desc });
    },
  });

  // The columns' widths as laid out: for the resize handles' aria-valuenow, and where each
  // pinned column sticks (the sum of the pinned widths before it, as `--dt-pin-<n>` on the table).
  const rowRef = useRef<HTMLDivElement>(null);
  const [widths, setWidths] = useState<Record<string, number>>({});
  useLayoutEffect(() => {
    const row = rowRef.current;
    if (!row) return;
    const measure = () => {
      const next: Record<string, number> = {};
      const grid = row.closest<HTMLElement>('[role="grid"]');
      let offset = 0;
      for (const cell of row.querySelectorAll<HTMLElement>('[data-column-id]')) {
        const width = cell.getBoundingClientRect().width;
        next[cell.dataset['columnId']!] = Math.round(width);
        const pin = cell.dataset['pin'];
        if (pin === undefined) continue;
        grid?.style.setProperty(`--dt-pin-${pin}`, `${offset}px`);
        offset += width;
      }
      if (actions) setWidths((old) => (JSON.stringify(old) === JSON.stringify(next) ? old : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(row);
    return () => observer.disconnect();
  }, [placed, actions]);

  const headerMenu = (event: MouseEvent<HTMLDivElement>) => {
    const cell = (event.target as HTMLElement).closest<HTMLElement>('[data-column-id]');
    if (!actions || !cell) return;
    event.preventDefault();
    event.stopPropagation();
    actions.menu(cell.dataset['columnId']!, { x: event.clientX, y: event.clientY });
  };

  const byId = new Map(placed.map((p) => [p.column.id, p]));
  return (
    <div role="rowgroup" className="dt-head">
      {table.getHeaderGroups().map((group) => (
        <div key={group.id} ref={rowRef} role="row" aria-rowindex={1} className="dt-header" onContextMenu={headerMenu}>
          {group.headers.map((header) => {
            const sorted = header.column.getIsSorted();
            const place = byId.get(header.column.id);
            const name = place?.column.header ?? header.column.id;
            return (
              <div
                key={header.id}
                role="columnheader"
                data-column-id={header.column.id}
                title={place?.column.headerTitle}
                data-pin={place?.pin ?? undefined}
                className={place?.pin != null ? 'dt-header-cell dt-pinned' : 'dt-header-cell'}
                style={pinStyle(place?.pin ?? null)}
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
                {actions && <ResizeHandle id={header.column.id} name={name} width={widths[header.column.id]} actions={actions} />}
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}) as <T>(props: TableHeaderProps<T>) => ReactNode;

/** A column's resize handle: drag it, or focus it and press ← → (Shift for larger steps); Shift+F10 opens the column menu. */
function ResizeHandle({ id, name, width, actions }: { id: string; name: string; width: number | undefined; actions: HeaderColumnActions }) {
  const drag = useRef<{ x: number; width: number; sign: number } | null>(null);
  const cellWidth = (handle: HTMLElement) => Math.round(handle.parentElement!.getBoundingClientRect().width);
  // In a right-to-left page the column's end is on the left: dragging left widens it.
  const sign = (handle: HTMLElement) => (getComputedStyle(handle).direction === 'rtl' ? -1 : 1);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    handle.focus();
    drag.current = { x: event.clientX, width: cellWidth(handle), sign: sign(handle) };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    actions.resize(id, start.width + (event.clientX - start.x) * start.sign);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = null;
    event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const handle = event.currentTarget;
    const step = (event.shiftKey ? 4 : 1) * KEY_STEP_PX * sign(handle);
    if (event.key === 'ArrowRight') actions.resize(id, cellWidth(handle) + step);
    else if (event.key === 'ArrowLeft') actions.resize(id, cellWidth(handle) - step);
    else if (event.key === 'Home') actions.resize(id, MIN_COLUMN_PX);
    else if ((event.key === 'F10' && event.shiftKey) || event.key === 'ContextMenu') {
      const box = handle.parentElement!.getBoundingClientRect();
      actions.menu(id, { x: box.left, y: box.bottom });
    } else return;
    event.preventDefault();
    // The grid's own keys (rows, selection) are not for the header.
    event.stopPropagation();
  };

  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={t('table.columns.resize', { column: name })}
      aria-valuenow={width ?? MIN_COLUMN_PX}
      aria-valuemin={MIN_COLUMN_PX}
      aria-valuemax={MAX_COLUMN_PX}
      tabIndex={0}
      className="dt-resize"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onMouseDown={(event) => event.stopPropagation()}
      onDoubleClick={(event) => event.stopPropagation()}
    onKeyDown={onKeyDown}
    />
  );
}
