import { useCallback, useEffect, useRef } from 'react';
import type { VerifyRow } from '../../common/ipc/verify.js';
import { VERIFICATION_STATUSES } from '../../common/wire-types.js';
import { onAppEvent } from '../shell/app-events.js';
import { carriesFiles } from '../staging/file-intake.js';
import { useWindowDrop } from '../shell/window-drop.js';
import { DataTable, type TableColumn } from '../table/data-table.js';
import { EndpointSettings, NetworkSetting, UnmatchedOriginals } from './verify-extras.js';
import { VerifyDetailPane } from './verify-detail.js';
import { useVerifyStore, verifyRowAt } from './verify-store.js';
import { useRowMenu } from '../commands/row-menu.js';
import { verifyRowMenu } from './verify-row-menu.js';
import './verify.css';

/** The Why column: the first step that did not pass and the reason. */
function whyText(r: VerifyRow): string {
  // An ok row with a reason: another issuer's credential, whose Proofdesk-only steps do not apply.
  if (r.result === 'ok') return r.reason || 'All six steps passed';
  return `${r.step ? `${r.step}: ` : ''}${r.reason}`;
}

const COLUMNS: TableColumn<VerifyRow>[] = [
  { id: 'result', header: 'Result', width: '6.5rem', cell: (r) => <span className={`state verify-${r.result}`}>{r.result}</span>, text: (r) => r.result },
  { id: 'name', header: 'Proof file', width: 'minmax(10rem, 2fr)', cell: (r) => r.name },
  { id: 'title', header: 'Credential', width: 'minmax(8rem, 1.5fr)', cell: (r) => r.title || '—' },
  { id: 'issuer', header: 'Issuer', width: 'minmax(6rem, 1fr)', cell: (r) => r.issuer || '—' },
  { id: 'original', header: 'Original', width: 'minmax(6rem, 1fr)', cell: (r) => (r.original ? `${r.original.split('/').pop()} (by ${r.matched_by})` : '—') },
  { id: 'reason', header: 'Why', width: 'minmax(10rem, 3fr)', cell: (r) => whyText(r) },
];

/** `Choose proof files` and `Choose a folder`: the same as a drop. */
function ChooseButtons({ disabled }: { disabled: boolean }) {
  const verifyFiles = useVerifyStore((s) => s.verifyFiles);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const take = (input: HTMLInputElement | null) => {
    const files = [...(input?.files ?? [])];
    if (input) input.value = '';
    if (files.length > 0) void verifyFiles(files);
  };
  useEffect(() => {
    // React has no prop for it: the folder picker is a file input with webkitdirectory.
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, []);
  return (
    <>
      <button type="button" onClick={() => filesInput.current?.click()} disabled={disabled}>
        Choose proof files
      </button>
      <button type="button" onClick={() => folderInput.current?.click()} disabled={disabled}>
        Choose a folder
      </button>
      <input ref={filesInput} type="file" multiple hidden aria-label="Proof files to verify" onChange={(e) => take(e.target)} />
      <input ref={folderInput} type="file" hidden aria-label="Folder to verify" onChange={(e) => take(e.target)} />
    </>
  );
}

/** Verify: proof files dropped on the window, verified in main, their results streamed into `Verification results`. */
export function VerifyView() {
  const reading = useVerifyStore((s) => s.reading);
  const summary = useVerifyStore((s) => s.summary);
  const task = useVerifyStore((s) => s.task);
  const failuresOnly = useVerifyStore((s) => s.failuresOnly);
  const total = useVerifyStore((s) => s.total);
  const selection = useVerifyStore((s) => s.selection);
  const detail = useVerifyStore((s) => s.detail);
  const error = useVerifyStore((s) => s.error);
  useVerifyStore((s) => s.pages);
  const { verifyDrop, onTask, cancel, setFailuresOnly, ensureRange, setSelection, open, report, loadEndpoints, loadNetwork, warm } = useVerifyStore.getState();

  useEffect(() => onAppEvent('task', ({ task: t }) => onTask(t)), [onTask]);
  useEffect(() => void loadEndpoints(), [loadEndpoints]);
  useEffect(() => void loadNetwork(), [loadNetwork]);
  const onDrop = useCallback((data: DataTransfer) => void verifyDrop(data), [verifyDrop]);
  const dragging = useWindowDrop(onDrop);
  useEffect(() => {
    // The drag, not the drop, starts main's workers: they run by the time the files land.
    const enter = (e: DragEvent) => {
      if (carriesFiles(e.dataTransfer)) warm();
    };
    window.addEventListener('dragenter', enter);
    return () => window.removeEventListener('dragenter', enter);
  }, [warm]);
  const onRangeChange = useCallback((start: number, end: number) => ensureRange(start, end), [ensureRange]);
  const rowMenu = useRowMenu<VerifyRow>('Verification result', verifyRowMenu);

  const running = task?.state === 'running';
  const failures = summary ? summary.done - summary.counts.ok : 0;
  return (
    <div className="records-layout">
      <section className="view verify-view" aria-labelledby="verify-title">
        <div className="toolbar">
          <h1 id="verify-title">Verify</h1>
          <ChooseButtons disabled={reading} />
          {summary && (
            <>
              <button type="button" onClick={() => void report('csv')} disabled={running}>
                Download report (CSV)
              </button>
              <button type="button" onClick={() => void report('html')} disabled={running}>
                Download printable report (HTML)
              </button>
            </>
          )}
        </div>
        <div role="region" aria-label="Drop proof files to verify" className={`drop-zone${dragging ? ' drop-zone-active' : ''}`}>
          {reading
            ? 'Reading the dropped files…'
            : dragging
              ? 'Drop to verify these proof files'
              : 'Drop proof files (NAME.proof.json), with or without their original files, or whole folders anywhere on the window to verify them. An original dropped alone is looked up: “Which credential is this?”'}
        </div>
        {error && (
          <div className="error-panel" role="alert">
            {error}
          </div>
        )}
        {summary && (
          <div className="toolbar verify-summary" role="group" aria-label="Verification summary">
            <span role="status" data-testid="verify-progress">
              {running ? `Verifying: ${summary.done.toLocaleString('en-US')} of ${(task.total ?? summary.total).toLocaleString('en-US')} proofs` : `${summary.done.toLocaleString('en-US')} proofs verified${task?.state === 'cancelled' ? ' (cancelled)' : ''}`}
            </span>
            {running && (
              <button type="button" onClick={() => void cancel()}>
                Cancel verification
              </button>
            )}
            <ul className="verify-counts" aria-label="Results by kind">
              {VERIFICATION_STATUSES.map((s) => (
                <li key={s} className={`verify-${s}`} data-testid={`verify-count-${s}`}>
                  {s} {summary.counts[s].toLocaleString('en-US')}
                </li>
              ))}
            </ul>
            <button type="button" aria-pressed={failuresOnly} onClick={() => setFailuresOnly(!failuresOnly)}>
              Show only failures ({failures.toLocaleString('en-US')})
            </button>
          </div>
        )}
        <DataTable
          label="Verification results"
          columns={COLUMNS}
          rowCount={total}
          rowAt={verifyRowAt}
          onRangeChange={onRangeChange}
          selection={selection}
          onSelectionChange={(next) => {
            setSelection(next);
            const row = next.focus !== null ? verifyRowAt(next.focus) : undefined;
            if (row && !next.all) void open(row.index);
          }}
          onOpen={(_index, row) => void open(row.index)}
          onRowMenu={rowMenu.open}
          emptyText={summary ? (failuresOnly ? 'No failures.' : 'No proofs verified yet.') : 'Drop proof files to see their results here.'}
        />
        {rowMenu.menu}
        {summary && summary.unmatched_originals.length > 0 && <UnmatchedOriginals originals={summary.unmatched_originals} />}
        {summary && summary.skipped.length > 0 && (
          <p className="muted">
            Not read: {summary.skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}
          </p>
        )}
        <NetworkSetting />
        <EndpointSettings />
      </section>
      {detail && <VerifyDetailPane detail={detail} />}
    </div>
  );
}
