import { create } from 'zustand';
import type { ExportList } from '../../common/ipc/list-export.js';

/** Which list's `Export list` dialog is open: opened by the toolbars and the command `file.exportList`. */
export const useListExportStore = create<{ open: ExportList | null }>()(() => ({ open: null }));

/** Opens the `Export list` dialog of a list. */
export function openListExport(list: ExportList): void {
  useListExportStore.setState({ open: list });
}

/** Closes it. */
export function closeListExport(): void {
  useListExportStore.setState({ open: null });
}
