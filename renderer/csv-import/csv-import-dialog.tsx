import { useRef, useState } from 'react';
import type { CsvRowCheck } from '../../common/ipc/csv-import.js';
import { saveText } from '../detail/detail-store.js';
import { useShellStore } from '../shell/shell-store.js';
import { commandHint } from '../commands/command-hint.js';
import { useCommandHandler } from '../commands/command-registry.js';
import { columnUseOf, useCsvImportStore, type ColumnUse } from './csv-import-store.js';
import './csv-import.css';
import type { EngineStatus } from '../../common/ipc/app.js';
import { ColumnHeads } from '../shell/column-heads.js';
import { ErrorLine } from '../shell/error-line.js';
import { useT } from '../i18n/use-t.js';
import { taskLabel } from '../shell/task-label.js';

/** One empty list: a selector must not answer a new [] on every render (zustand would loop). */
const NO_ENGINES: EngineStatus[] = [];

const USES: readonly ColumnUse[] = ['title', 'key', 'tags', 'expiry_date', 'link', 'metadata', 'ignore'];

function RowsTable({ label, rows }: { label: string; rows: CsvRowCheck[] }) {
  const t = useT();
  return (
    <table className="plain-table csv-table" aria-label={label}>
      <ColumnHeads names={[t('csvImport.column.row'), t('csvImport.column.line'), t('csvImport.column.title'), t('csvImport.column.tags'), t('csvImport.column.links'), t('csvImport.column.metadata'), t('csvImport.column.check')]} />
      <tbody>
        {rows.map((r) => (
          <tr key={r.row}>
            <td>{r.row}</td>
            <td>{r.line}</td>
            <td>{r.title}</td>
            <td>{r.tags.join(', ')}</td>
            <td>{r.links.join(', ')}</td>
            <td>
              {Object.entries(r.metadata)
                .map(([k, v]) => `${k}: ${v}`)
                .join('; ')}
            </td>
            <td>
              {r.errors.length === 0 ? (
                <span className="row-ok">{t('csvImport.rowOk')}</span>
              ) : (
                r.errors.map((e, i) => (
                  <div key={i} className="row-error">
                    <code>{e.id}</code> {e.message}
                  </div>
                ))
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `Import CSV`: choose a file, map its columns, see every row's errors, import, see what was refused and retry it. */
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

export function CsvImportDialog() {
  const { open, preview, mapping, checking, task, result, error } = useCsvImportStore();
  const { setUse, run, retryRefused, cancel, close, choose } = useCsvImportStore.getState();
  const corrected = useRef<HTMLInputElement>(null);
  const engines = useShellStore((s) => s.status?.engines) ?? NO_ENGINES;
  const [engine, setEngine] = useState('');
  const t = useT();
  if (!open) return null;
  const running = task?.state === 'running';
  const target = engine === '' ? null : engine;

  return (
    <dialog
      ref={(node) => {
        if (node && !node.open) node.showModal();
      }}
      aria-labelledby="csv-import-title"
      className="csv-dialog"
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
      <ErrorLine error={error} />
      {checking && !preview && <p role="status">{t('csvImport.reading')}</p>}
      {preview && mapping && (
        <>
          <p role="status">
            {t('csvImport.summary', { file: preview.file_name, total: preview.total_rows, valid: preview.valid_rows, errors: preview.total_rows - preview.valid_rows })}
          </p>
          <ErrorLine error={preview.file_error} />
          <table className="plain-table csv-table" aria-label={t('csvImport.mapping')}>
            <ColumnHeads names={[t('csvImport.mapping.column'), t('csvImport.mapping.use')]} />
            <tbody>
              {preview.columns.map((column) => (
                <tr key={column}>
                  <th scope="row">{column}</th>
                  <td>
                    <select aria-label={t('csvImport.mapping.useColumn', { column })} value={columnUseOf(mapping, column)} disabled={checking || running} onChange={(e) => void setUse(column, e.target.value as ColumnUse)}>
                      {USES.map((use) => (
                        <option key={use} value={use}>
                          {t('csvImport.use', { use })}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {preview.error_rows.length > 0 && (
            <>
              <h3>{t('csvImport.errorRows')}</h3>
              <RowsTable label={t('csvImport.errorRows')} rows={preview.error_rows} />
            </>
          )}
          <h3>{t('csvImport.preview')}</h3>
          <RowsTable label={t('csvImport.preview')} rows={preview.rows} />
          <div className="csv-actions">
            <label>
              <span>{t('csvImport.after')} </span>
              <select aria-label={t('csvImport.scheduleOn')} value={engine} onChange={(e) => setEngine(e.target.value)}>
                <option value="">{t('csvImport.createOnly')}</option>
                {engines.map((e) => (
                  <option key={e.id} value={e.id}>
                    {t('csvImport.scheduleOnEngine', { engine: e.id })}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="primary" disabled={checking || running || preview.valid_rows === 0 || preview.file_error !== null} onClick={() => void run(target)}>
              {t('csvImport.import', { count: preview.valid_rows })}
            </button>
          </div>
        </>
      )}
      {running && task && (
        <p className="staging-progress">
          <progress aria-label={taskLabel(task)} max={task.total ?? undefined} value={task.total === null ? undefined : task.done} />
          <button type="button" onClick={() => void cancel()}>
            {t('common.cancel')}
          </button>
        </p>
      )}
      {result && (
        <section aria-label={t('csvImport.result')}>
          <h3>{t('csvImport.result.heading')}</h3>
          <p role="status">{t('csvImport.result.counts', { created: result.created.length, refused: result.refused.length, notCreated: result.not_created.length })}</p>
          {result.not_created.length > 0 && (
            <table className="plain-table csv-table" aria-label={t('csvImport.notCreated')}>
              <ColumnHeads names={[t('csvImport.column.row'), t('csvImport.column.title'), t('csvImport.column.why')]} />
              <tbody>
                {result.not_created.map((r) => (
                  <tr key={r.row}>
                    <td>{r.row}</td>
                    <td>{r.title}</td>
                    <td>{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {result.refused.length + result.not_created.length > 0 && (
            <>
              <table className="plain-table csv-table" aria-label={t('csvImport.refused')}>
                <ColumnHeads names={[t('csvImport.column.row'), t('csvImport.column.title'), t('csvImport.column.reason')]} />
                <tbody>
                  {result.refused.map((r) => (
                    <tr key={r.row}>
                      <td>{r.row}</td>
                      <td>{r.title}</td>
                      <td className="row-error">
                        <code>{r.error.id}</code> {r.error.message}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="muted">{t('csvImport.retryHelp')}</p>
              <button type="button" disabled={running} onClick={() => corrected.current?.click()}>
                {t('csvImport.chooseCorrected')}
              </button>
              <input
                ref={corrected}
                type="file"
                accept=".csv,text/csv"
                hidden
                aria-label={t('csvImport.corrected')}
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) void choose(file, true);
                }}
              />{' '}
              <button type="button" disabled={running || checking} onClick={() => void retryRefused(target)}>
                {t('csvImport.retry')}
              </button>
            </>
          )}
        </section>
      )}
    </dialog>
  );
}
