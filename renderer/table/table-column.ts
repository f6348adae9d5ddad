/** What the data table is told about a column, and where a pinned one sticks. */
import type { CSSProperties, ReactNode } from 'react';

/** One column: its header, CSS grid width, and how a loaded row shows in it. */
export interface TableColumn<T> {
  id: string;
  header: string;
  /** The header's tooltip, e.g. the technical name behind a display name. */
  headerTitle?: string;
  /** A CSS grid track, e.g. `2fr` or `8rem`. */
  width: string;
  sortable?: boolean;
  cell: (row: T) => ReactNode;
  /**
   * The cell's full text, shown on hover and given to assistive technology when the cell is
   * cut to an ellipsis; needed when `cell` returns elements rather than a string or number.
   */
  text?: (row: T) => string;
  /** Names the row (Records' Title, Jobs' Status): always shown and pinned first. Default: the first column. */
  identifying?: boolean;
  /** Offered in the `Columns` dialog but hidden until chosen (metadata keys). */
  defaultHidden?: boolean;
  /** Pinned beside the identifying column unless the admin unpins it (Records' state columns). */
  defaultPinned?: boolean;
  /** A list of its own in the `Columns` dialog (e.g. `Metadata`), with a sentence under its heading. */
  group?: string;
  groupHint?: string;
  /** A note beside the column's name in the `Columns` dialog (e.g. how many credentials have the key). */
  hint?: string;
}

export interface TableSort {
  id: string;
  desc: boolean;
}

/**
 * Where a pinned cell sticks: after the pinned columns before it, whose widths the header
 * measures into `--dt-pin-<n>` on the table (table-header.tsx), so pinned columns keep flexible widths.
 */
export function pinStyle(pin: number | null): CSSProperties | undefined {
  return pin === null ? undefined : { insetInlineStart: pin === 0 ? 0 : `var(--dt-pin-${pin}, 0px)` };
}
