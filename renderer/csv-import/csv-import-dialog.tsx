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

/** One empty list: a selector must not answer a new [] on every render (zustand would loop). */
const NO_ENGINES: EngineStatus[] = [];

const USES: { value: ColumnUse; text: string }[] = [
  { value: 'title', text: 'Title' },
  { value: 'key', text: 'Row key (for links)' },
  { value: 'tags', text: 'Tags' },
  { value: 'expiry_date', text: 'Expiry date' },
  { value: 'link', text: 'Link (row key or uid)' },
  { value: 'metadata', text: 'Metadata' },
  { value: 'ignore', text: 'Not imported' },
];

function RowsTable({ label, rows }: { label: string; rows: CsvRowCheck[] }) {
  return (
    <table className="plain-table csv-table" aria-label={label}>
      <ColumnHeads names={['Row', 'Line', 'Title', 'Tags', 'Links', 'Metadata', 'Check']} />
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
                <span className="row-ok">ok</span>
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
        <h2 id="csv-import-title">Import CSV</h2>
        <button type="button" onClick={() => void window.proofdesk.csvImportTemplate().then((t) => saveText(t.file_name, t.text, 'text/csv'))}>
          Download template
        </button>
        <button type="button" className="link-button" aria-label="Close import" onClick={close}>
          ×
        </button>
      </header>
      <ErrorLine error={error} />
      {checking && !preview && <p role="status">Reading the file…</p>}
      {preview && mapping && (
        <>
          <p role="status">
            {preview.file_name}: {preview.total_rows.toLocaleString('en-US')} rows, {preview.valid_rows.toLocaleString('en-US')} ready to import,{' '}
            {(preview.total_rows - preview.valid_rows).toLocaleString('en-US')} with errors.
          </p>
          <ErrorLine error={preview.file_error} />
          <table className="plain-table csv-table" aria-label="Column mapping">
            <ColumnHeads names={['Column', 'Imported as']} />
            <tbody>
              {preview.columns.map((column) => (
                <tr key={column}>
                  <th scope="row">{column}</th>
                  <td>
                    <select aria-label={`Use column ${column} as`} value={columnUseOf(mapping, column)} disabled={checking || running} onChange={(e) => void setUse(column, e.target.value as ColumnUse)}>
                      {USES.map((u) => (
                        <option key={u.value} value={u.value}>
                          {u.text}
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
              <h3>Rows with errors</h3>
              <RowsTable label="Rows with errors" rows={preview.error_rows} />
            </>
          )}
          <h3>Preview</h3>
          <RowsTable label="Preview" rows={preview.rows} />
          <div className="csv-actions">
            <label>
              <span>After import </span>
              <select aria-label="Schedule imported credentials on" value={engine} onChange={(e) => setEngine(e.target.value)}>
                <option value="">create only</option>
                {engines.map((e) => (
                  <option key={e.id} value={e.id}>
                    schedule on {e.id}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="primary" disabled={checking || running || preview.valid_rows === 0 || preview.file_error !== null} onClick={() => void run(target)}>
              Import {preview.valid_rows.toLocaleString('en-US')} rows
            </button>
          </div>
        </>
      )}
      {running && task && (
        <p className="staging-progress">
          <progress aria-label={task.label} max={task.total ?? undefined} value={task.total === null ? undefined : task.done} />
          <button type="button" onClick={() => void cancel()}>
            Cancel
          </button>
        </p>
      )}
      {result && (
        <section aria-label="Import result">
          <h3>Result</h3>
          <p role="status">
            Created {result.created.length.toLocaleString('en-US')}, refused {result.refused.length.toLocaleString('en-US')}
            {result.not_created.length > 0 && `, not created ${result.not_created.length.toLocaleString('en-US')}`}.
          </p>
          {result.not_created.length > 0 && (
            <table className="plain-table csv-table" aria-label="Rows not created">
              <ColumnHeads names={['Row', 'Title', 'Why']} />
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
              <table className="plain-table csv-table" aria-label="Refused rows">
                <ColumnHeads names={['Row', 'Title', 'Reason']} />
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
              <p className="muted">Correct the refused rows in the file, choose it again, then retry them (rows not created are tried again too).</p>
              <button type="button" disabled={running} onClick={() => corrected.current?.click()}>
                Choose the corrected file
              </button>
              <input
                ref={corrected}
                type="file"
                accept=".csv,text/csv"
                hidden
                aria-label="Corrected CSV file"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) void choose(file, true);
                }}
              />{' '}
              <button type="button" disabled={running || checking} onClick={() => void retryRefused(target)}>
                Retry the refused
              </button>
            </>
          )}
        </section>
      )}
    </dialog>
  );
}
