/**
 * What bringing records in puts into the Records view: the `Add files` / `Add folder` / `Import CSV`
 * buttons for its toolbar, and the drop region, the staging list and the CSV import dialog.
 * The detail panel is renderer/detail/detail-panel.tsx.
 */
import { CsvImportButton, CsvImportDialog } from '../csv-import/csv-import-dialog.js';
import { AddFilesButtons, DropZone } from './drop-zone.js';
import { StagingView } from './staging-view.js';

export function BringInActions() {
  return (
    <>
      <AddFilesButtons />
      <CsvImportButton />
    </>
  );
}

export function BringInPanels() {
  return (
    <>
      <DropZone />
      <StagingView />
      <CsvImportDialog />
    </>
  );
}
