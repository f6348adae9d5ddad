import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ErrorLine } from '../shell/error-line.js';
import type { RecordRow, RecordSortField } from '../../common/records.js';
import { DetailPanel } from '../detail/detail-panel.js';
import { openDetail } from '../detail/detail-store.js';
import { ExportDialog } from '../jobs/export-dialog.js';
import { openListExport } from '../list-export/list-export-store.js';
import { onAppEvent } from '../shell/app-events.js';
import { commandHint } from '../commands/command-hint.js';
import { useCommandHandler } from '../commands/command-registry.js';
import { AddFilesButtons, DropZone } from '../staging/drop-zone.js';
import { CsvImportButton, CsvImportDialog } from '../csv-import/csv-import-dialog.js';
import { StagingView } from '../staging/staging-view.js';
import { DataTable, type DataTableProps, type TableSort } from '../table/data-table.js';
import { useRowMenu } from '../commands/row-menu.js';
import { ColumnsButton } from '../table/column-menu.js';
import { ToolbarButton, useFittedToolbar } from '../table/toolbar-button.js';
import { recordMenu } from './record-menu.js';
import { metadataColumnsNote, recordColumns } from './record-columns.js';
import { useMetadataKeysStore } from './metadata-keys-store.js';
import { searchWords } from './search-highlight.js';
import { useColumnState } from '../table/column-store.js';
import { RecordFilters } from './record-filters.js';
import { recordAt, useRecordsStore, useSelectedCount } from './records-store.js';
import { ScheduleDialog } from './schedule-dialog.js';
import { TagDialog, type TagDialogMode } from './tag-dialog.js';
import { useT } from '../i18n/use-t.js';
import { useShellStore } from '../shell/shell-store.js';

type Dialog = { kind: 'tags'; mode: TagDialogMode } | { kind: 'schedule' } | { kind: 'unschedule' } | { kind: 'export' } | null;

/**
 * Records: every credential of the Partner in one virtualized table (`Credentials`), fetched
 * page by page from main; filters, selection like a file manager, bulk tagging and scheduling.
 */
export function RecordsView() {
  const total = useRecordsStore((s) => s.total);
  const selection = useRecordsStore((s) => s.selection);
  const status = useRecordsStore((s) => s.status);
  const error = useRecordsStore((s) => s.error);
  const { refresh, selectAllMatching } = useRecordsStore.getState();
  const count = useSelectedCount();
  const [dialog, setDialog] = useState<Dialog>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const mainBar = useFittedToolbar();
  const selectionBar = useFittedToolbar();
  const t = useT();

  // Fresh rows whenever the view opens (the table's own range callbacks need rows to exist).
  useEffect(() => refresh(), [refresh]);
  useEffect(() => onAppEvent('counts', ({ scopes }) => scopes.includes('credentials') && refresh()), [refresh]);
  useEffect(() => onAppEvent('partner', () => refresh()), [refresh]);
  // The metadata keys the `Columns` dialog offers, asked again as credentials change.
  const loadKeys = useMetadataKeysStore((s) => s.load);
  useEffect(() => void loadKeys(), [loadKeys]);
  useEffect(() => onAppEvent('counts', ({ scopes }) => scopes.includes('credentials') && void loadKeys()), [loadKeys]);
  useEffect(() => onAppEvent('partner', () => void loadKeys()), [loadKeys]);

  // The command table's Records commands (menu, palette, shortcuts): enabled while Records is
  // open, the selection ones when something is selected (common/commands.ts judges).
  useCommandHandler('edit.find', () => searchRef.current?.focus());
  useCommandHandler('edit.addTags', () => setDialog({ kind: 'tags', mode: 'add' }));
  useCommandHandler('edit.schedule', () => setDialog({ kind: 'schedule' }));
  useCommandHandler('edit.selectAllMatching', selectAllMatching);

  const none = count === 0;
  const rowMenu = useRowMenu<RecordRow>(t('records.menu.label'), (row) =>
    recordMenu(row, {
      tags: (mode) => setDialog({ kind: 'tags', mode }),
      schedule: () => setDialog({ kind: 'schedule' }),
      unschedule: () => setDialog({ kind: 'unschedule' }),
      exportProofs: () => setDialog({ kind: 'export' }),
    }),
  );

  return (
    <div className="records-layout">
      <section className="view" aria-labelledby="records-title">
        <div ref={mainBar.ref} className={`toolbar ${mainBar.className}`}>
          <h1 id="records-title">{t('records.title')}</h1>
          <span className="muted" data-testid="records-total">
            {status === 'loading' && total === 0 ? t('common.loading') : t('records.count', { count: total })}
          </span>
          <span className="spacer" />
          <AddFilesButtons />
          <CsvImportButton />
          <ColumnsButton view="records" />
          <ToolbarButton icon="export" label={t('listExport.button')} {...commandHint('file.exportList')} disabled={total === 0} onClick={() => openListExport('records')} />
        </div>
        <RecordFilters searchRef={searchRef} />
        <div ref={selectionBar.ref} className={`toolbar selection-bar ${selectionBar.className}`}>
          <span role="status" data-testid="selected-count">
            {none ? t('records.selection.none') : t('records.selection.count', { count })}
          </span>
          <ToolbarButton
            icon="selectAll"
            label={t('records.toolbar.selectAllMatching')}
            {...commandHint('edit.selectAllMatching')}
            onClick={selectAllMatching}
            disabled={total === 0 || (selection.all && selection.ranges.length === 0)}
          />
          <span className="spacer" />
          <ToolbarButton icon="tagAdd" label={t('records.toolbar.addTags')} disabled={none} {...commandHint('edit.addTags')} onClick={() => setDialog({ kind: 'tags', mode: 'add' })} />
          <ToolbarButton icon="tagReplace" label={t('records.toolbar.replaceTags')} disabled={none} onClick={() => setDialog({ kind: 'tags', mode: 'replace' })} />
          <ToolbarButton icon="tagRemove" label={t('records.toolbar.removeTag')} disabled={none} onClick={() => setDialog({ kind: 'tags', mode: 'remove' })} />
          <ToolbarButton icon="schedule" label={t('records.toolbar.schedule')} disabled={none} {...commandHint('edit.schedule')} onClick={() => setDialog({ kind: 'schedule' })} />
          <ToolbarButton icon="unschedule" label={t('records.toolbar.unschedule')} disabled={none} onClick={() => setDialog({ kind: 'unschedule' })} />
          <ToolbarButton icon="proof" label={t('records.toolbar.exportProofs')} disabled={none} onClick={() => setDialog({ kind: 'export' })} />
        </div>
        <ErrorLine error={error} className="error-panel" />
        <StagingView />
        <RecordsTable onRowMenu={rowMenu.open} />
        {rowMenu.menu}
        <DropZone />
      </section>
      <DetailPanel />
      <CsvImportDialog />
      {dialog?.kind === 'tags' && <TagDialog mode={dialog.mode} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'schedule' && <ScheduleDialog onClose={() => setDialog(null)} />}
      {dialog?.kind === 'unschedule' && <ScheduleDialog mode="unschedule" onClose={() => setDialog(null)} />}
      {dialog?.kind === 'export' && (
        <ExportDialog
          source={async () => ({ kind: 'selection', selection: await useRecordsStore.getState().selectionForMain() })}
          what={t('records.export.what', { count })}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

/** The engines while the status is loading: one array, so the selector returns the same value. */
const NO_ENGINES: never[] = [];

/** The `Credentials` table alone: rows arriving from main re-render it, not the toolbars. */
function RecordsTable({ onRowMenu }: { onRowMenu: DataTableProps<RecordRow>['onRowMenu'] }) {
  const total = useRecordsStore((s) => s.total);
  const engines = useRecordsStore((s) => s.engines);
  const chains = useShellStore((s) => s.status?.engines ?? NO_ENGINES);
  const sort = useRecordsStore((s) => s.sort);
  const selection = useRecordsStore((s) => s.selection);
  const status = useRecordsStore((s) => s.status);
  useRecordsStore((s) => s.pages); // re-render as pages arrive
  const { ensureRange, setSelection, setSort } = useRecordsStore.getState();
  const onRangeChange = useCallback((start: number, end: number) => ensureRange(start, end), [ensureRange]);
  const tableSort: TableSort = { id: sort.by, desc: sort.order === 'desc' };
  const search = useRecordsStore((s) => s.filter.search);
  const metadataKeys = useMetadataKeysStore((s) => s.keys);
  const columnState = useColumnState('records');
  const t = useT();
  // The metadata columns the admin chose (hidden until chosen); as one string, so a resize or a
  // move does not make new columns (and re-render every row).
  const chosen = Object.keys(columnState.visible).filter((id) => id.startsWith('meta:') && columnState.visible[id]).map((id) => id.slice('meta:'.length)).join('\n');
  const shownKeys = useMemo(() => new Set(chosen ? chosen.split('\n') : []), [chosen]);
  const words = useMemo(() => searchWords(search), [search]);
  const columns = useMemo(() => recordColumns({ engines, chains, metadataKeys, shownKeys, search: words }, t), [engines, chains, metadataKeys, shownKeys, words, t]);
  return (
    <DataTable
      label={t('records.table.label')}
      columns={columns}
      columnsView="records"
      columnsNote={metadataColumnsNote(metadataKeys, t)}
      rowCount={total}
      rowAt={recordAt}
      onRangeChange={onRangeChange}
      selection={selection}
      onSelectionChange={setSelection}
      onOpen={(_index, row) => openDetail(row.uid)}
      onRowMenu={onRowMenu}
      sort={tableSort}
      onSortChange={(s) => setSort({ by: s.id as RecordSortField, order: s.desc ? 'desc' : 'asc' })}
      emptyText={status === 'loading' ? t('common.loading') : t('records.table.empty')}
    />
  );
}
