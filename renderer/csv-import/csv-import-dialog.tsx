import { useRef, useState } from 'react';
import { saveText } from '../shell/save-text.js';
import { useShellStore } from '../shell/shell-store.js';
import { commandHint } from '../commands/command-hint.js';
import { useCommandHandler } from '../commands/command-registry.js';
import { useCsvImportStore } from './csv-import-store.js';
import { editedRows, rowsToImport, visibleRows } from './row-state.js';
import { CsvPreviewTable, type CellEditing } from './csv-preview-table.js';
import './csv-import.css';
import type { EngineStatus } from '../../common/ipc/app.js';
import { PREVIEW_ROWS } from '../../common/ipc/csv-import.js';
import { ErrorLine } from '../shell/error-line.js';
import { useT } from '../i18n/use-t.js';
import { taskLabel } from '../shell/task-label.js';
import { engineDisplayName } from '../format/chain-display.js';

/** One empty list: a selector must not answer a new [] on every render (zustand would loop). */
const NO_ENGINES: EngineStatus[] = [];

/** `Import CSV`: choose a file; the dialog (below) maps, checks, fixes and imports it. */
export function CsvImportButton() {
  const input = useRef<HTMLInputElement>(null);
  const choose = useCsvImportStore((s) => s.choose);
  useCommandHandler('file.importCsv', () => input.current?.click());
  const t = useT();
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} {...commandHint('file.importCsv')}>
        {t('csvImport.button')}
      </button>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        hidden
        aria-label={t('csvImport.input')}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void choose(file);
        }}
      />
    </>
  );
}

/**
 * The import dialog: one preview table (every row's check on the cell it concerns, mapping in
 * the column heads, "Errors only"), cells fixed in place and checked again by main, and a footer
 * with Cancel and Import that stays in view however long the table is.
 */
export function CsvImportDialog() {
  const { open, preview, mapping, checking, task, result, created, edits, errorsOnly, error } = useCsvImportStore();
  const { run, cancel, close, setErrorsOnly } = useCsvImportStore.getState();
  const engines = useShellStore((s) => s.status?.engines) ?? NO_ENGINES;
  const [engine, setEngine] = useState('');
  /** The cell being edited: while it is, Escape cancels the edit, not the dialog. */
  const editing = useRef<CellEditing | null>(null);
  const t = useT();
  if (!open) return null;
  const running = task?.state === 'running';
  const target = engine === '' ? null : engine;
  const edited = editedRows(edits);
  const toImport = preview ? rowsToImport(preview, created) : 0;
  const problems = preview ? preview.total_rows - preview.valid_rows : 0;
  const shown = preview ? visibleRows(preview, errorsOnly, created, result, edited) : [];

  return (
    <dialog
      ref={(node) => {
        if (node && !node.open) node.showModal();
      }}
      aria-labelledby="csv-import-title"
      className="csv-dialog"
      onCancel={(e) => {
        if (editing.current) e.preventDefault();
      }}
      onClose={close}
    >
      <header className="csv-header">
        <h2 id="csv-import-title">{t('csvImport.button')}</h2>
        <button type="button" onClick={() => void window.proofdesk.csvImportTemplate().then((template) => saveText(template.file_name, template.text, 'text/csv'))}>
          {t('csvImport.template')}
        </button>
        <button type="button" className="link-button" aria-label={t('csvImport.close')} onClick={close}>
          ×
        </button>
      </header>
      <div className="csv-body">
        <ErrorLine error={error} />
        {checking && !preview && <p role="status">{t('csvImport.reading')}</p>}
        {preview && mapping && (
          <>
            <p role="status">{t('csvImport.summary', { file: preview.file_name, total: preview.total_rows, valid: toImport, errors: problems, created: created.size })}</p>
            <ErrorLine error={preview.file_error} />
            {result && (
              <section aria-label={t('csvImport.result')} className="csv-result">
                <p role="status">{t('csvImport.result.counts', { created: result.created.length, refused: result.refused.length, notCreated: result.not_created.length })}</p>
              </section>
            )}
            <div className="csv-toolbar">
              <label>
                <input type="checkbox" checked={errorsOnly} onChange={(e) => setErrorsOnly(e.target.checked)} /> {t('csvImport.errorsOnly', { count: problems })}
              </label>
              <span className="muted">{t('csvImport.editHint')}</span>
            </div>
            {preview.total_rows > PREVIEW_ROWS && <p className="muted">{t('csvImport.partial', { shown: preview.rows.length, total: preview.total_rows })}</p>}
            <CsvPreviewTable preview={preview} mapping={mapping} rows={shown} running={running} editing={editing} />
            {errorsOnly && shown.length === 0 && <p className="muted">{t('csvImport.noneToFix')}</p>}
          </>
        )}
      </div>
      <footer className="csv-footer">
        {running && task && <progress aria-label={taskLabel(task)} max={task.total ?? undefined} value={task.total === null ? undefined : task.done} />}
        <label className="csv-engine">
          <span>{t('csvImport.after')} </span>
          <select aria-label={t('csvImport.scheduleOn')} value={engine} onChange={(e) => setEngine(e.target.value)}>
            <option value="">{t('csvImport.createOnly')}</option>
            {engines.map((e) => (
              <option key={e.id} value={e.id}>
                {t('csvImport.scheduleOnEngine', { engine: engineDisplayName(e.id, engines) })}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => (running ? void cancel() : close())}>
          {running || created.size === 0 ? t('common.cancel') : t('common.close')}
        </button>
        <button type="button" className="primary" disabled={!preview || checking || running || toImport === 0 || preview.file_error !== null} onClick={() => void run(target)}>
          {t('csvImport.import', { count: toImport })}
        </button>
      </footer>
    </dialog>
  );
}
