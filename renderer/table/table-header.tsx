/**
 * The data table's header row: TanStack Table holds the columns, headers and sort state. It gets
 * no rows (100,000 Row objects would cost for nothing; the body renders only the rows on screen),
 * and it is memoized on its columns and sort, so a scroll frame never renders it.
 */
import { createColumnHelper, rowSortingFeature, tableFeatures, useTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { memo, useMemo, type ReactNode } from 'react';
import type { TableColumn, TableSort } from './data-table.js';

const features = tableFeatures({ rowSortingFeature });
type Features = typeof features;
type Slot<T> = { index: number; row: T | undefined };
const NO_ROWS: never[] = [];

interface TableHeaderProps<T> {
  columns: TableColumn<T>[];
  sortId: string | null;
  sortDesc: boolean;
  onSortChange: (sort: TableSort) => void;
}

export const TableHeader = memo(function TableHeader<T>({ columns, sortId, sortDesc, onSortChange }: TableHeaderProps<T>) {
  const columnDefs = useMemo(() => {
    const helper = createColumnHelper<Features, Slot<T>>();
    return columns.map((column) =>
      // An accessor (not a display column): only those can sort. Sorting is done by the owner
      // (manualSorting); the value is the row's position, never compared here.
      helper.accessor((slot) => slot.index, {
        id: column.id,
        header: column.header,
        enableSorting: column.sortable === true,
        sortDescFirst: false,
      }),
    ) as ColumnDef<Features, Slot<T>, unknown>[];
  }, [columns]);
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
  return (
    <div role="rowgroup" className="dt-head">
      {table.getHeaderGroups().map((group) => (
        <div key={group.id} role="row" aria-rowindex={1} className="dt-header">
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
  );
}) as <T>(props: TableHeaderProps<T>) => ReactNode;
