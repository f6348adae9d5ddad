import { useCallback, useEffect, useMemo } from 'react';
import type { VerifyRow } from '../../common/ipc/verify.js';
import { VERIFICATION_STATUSES, VERIFICATION_STEP_NAMES, type VerificationStepKey } from '../../common/wire-types.js';
import { onAppEvent } from '../shell/app-events.js';
import { FilePicker } from '../shell/file-picker.js';
import { useWindowDrop } from '../shell/window-drop.js';
import { DataTable, type TableColumn } from '../table/data-table.js';
import { ColumnsButton } from '../table/column-menu.js';
import { ToolbarButton, useFittedToolbar } from '../table/toolbar-button.js';
import { ErrorLine } from '../shell/error-line.js';
import { Message, useT } from '../i18n/use-t.js';
import { EndpointSettings, NetworkSetting, UnmatchedOriginals } from './verify-extras.js';
import { VerifyDetailPane } from './verify-detail.js';
import { StepReason, stepReasonText } from './step-reason.js';
import { useVerifyStore, verifyRowAt } from './verify-store.js';
import { useRowMenu } from '../commands/row-menu.js';
import { verifyRowMenu } from './verify-row-menu.js';
import './verify.css';

type T = ReturnType<typeof useT>;

/** The key of a step by the spec's name a row carries, or null for a name of no step. */
function stepKeyOf(name: string): VerificationStepKey | null {
  const found = Object.entries(VERIFICATION_STEP_NAMES).find(([, spec]) => spec === name);
  return found ? (found[0] as VerificationStepKey) : null;
}

/** A row's first step that did not pass, in the window's language (main names it as the spec does). */
function stepTitle(r: VerifyRow, t: T): string {
  const key = stepKeyOf(r.step);
  return key ? t('verify.step', { step: key }) : r.step;
}

/** The Why column: the first step that did not pass and main's reason for it. */
function why(r: VerifyRow, t: T) {
  // An ok row with a reason: another issuer's credential, whose Proofdesk-only steps do not apply.
  if (r.result === 'ok' && !r.reason) return t('verify.why.allPassed');
  const reason = <StepReason reason={r.reason} code={r.reason_code} t={t} />;
  if (!r.step) return reason;
  return <Message id="verify.why.step" values={{ step: stepTitle(r, t), reason }} />;
}

function whyText(r: VerifyRow, t: T): string {
  if (r.result === 'ok' && !r.reason) return t('verify.why.allPassed');
  const reason = r.reason_code ? stepReasonText(r.reason_code, t) : r.reason;
  return r.step ? t('verify.why.step', { step: stepTitle(r, t), reason }) : reason;
}

function verifyColumns(t: T): TableColumn<VerifyRow>[] {
  const result = (r: VerifyRow) => t('verify.result', { result: r.result });
  return [
    { id: 'name', header: t('verify.column.name'), width: 'minmax(10rem, 2fr)', identifying: true, cell: (r) => r.name },
    { id: 'result', header: t('verify.column.result'), width: '6.5rem', defaultPinned: true, cell: (r) => <span className={`state verify-${r.result}`}>{result(r)}</span>, text: result },
    { id: 'title', header: t('verify.column.title'), width: 'minmax(8rem, 1.5fr)', cell: (r) => r.title || '—' },
    { id: 'issuer', header: t('verify.column.issuer'), width: 'minmax(6rem, 1fr)', cell: (r) => r.issuer || '—' },
    {
      id: 'original',
      header: t('verify.column.original'),
      width: 'minmax(6rem, 1fr)',
      cell: (r) => (r.original ? t('verify.original', { name: r.original.split('/').pop(), by: r.matched_by }) : '—'),
    },
    { id: 'reason', header: t('verify.column.why'), width: 'minmax(10rem, 3fr)', cell: (r) => why(r, t), text: (r) => whyText(r, t) },
  ];
}

/** Verify: proof files dropped on the window, verified in main, their results streamed into `Verification results`. */
export function VerifyView() {
  const t = useT();
  const reading = useVerifyStore((s) => s.reading);
  const summary = useVerifyStore((s) => s.summary);
  const task = useVerifyStore((s) => s.task);
  const failuresOnly = useVerifyStore((s) => s.failuresOnly);
  const total = useVerifyStore((s) => s.total);
  const selection = useVerifyStore((s) => s.selection);
  const detail = useVerifyStore((s) => s.detail);
  const error = useVerifyStore((s) => s.error);
  useVerifyStore((s) => s.pages);
  const { verifyDrop, verifyFiles, onTask, cancel, setFailuresOnly, ensureRange, setSelection, open, report, loadEndpoints, loadNetwork, warm } = useVerifyStore.getState();

  useEffect(() => onAppEvent('task', ({ task: next }) => onTask(next)), [onTask]);
  useEffect(() => void loadEndpoints(), [loadEndpoints]);
  useEffect(() => void loadNetwork(), [loadNetwork]);
  const onDrop = useCallback((data: DataTransfer) => void verifyDrop(data), [verifyDrop]);
  // The drag, not the drop, starts main's workers: they run by the time the files land.
  const dragging = useWindowDrop(onDrop, warm);
  const onRangeChange = useCallback((start: number, end: number) => ensureRange(start, end), [ensureRange]);
  const rowMenu = useRowMenu<VerifyRow>(t('verify.menu.label'), verifyRowMenu);
  const columns = useMemo(() => verifyColumns(t), [t]);
  // The report buttons shrink to icons rather than wrap when the detail panel narrows the view.
  const mainBar = useFittedToolbar();

  const running = task?.state === 'running';
  const failures = summary ? summary.done - summary.counts.ok : 0;
  return (
    <div className="records-layout">
      <section className="view verify-view" aria-labelledby="verify-title">
        <div ref={mainBar.ref} className={`toolbar ${mainBar.className}`}>
          <h1 id="verify-title">{t('verify.title')}</h1>
          <FilePicker
            names={{ files: t('verify.chooseFiles'), folder: t('verify.chooseFolder'), filesInput: t('verify.filesInput'), folderInput: t('verify.folderInput') }}
            onFiles={(files) => void verifyFiles(files)}
            disabled={reading}
          />
          {summary && (
            <>
              <ToolbarButton icon="export" label={t('verify.reportCsv')} onClick={() => void report('csv')} disabled={running} />
              <ToolbarButton icon="proof" label={t('verify.reportHtml')} onClick={() => void report('html')} disabled={running} />
            </>
          )}
          <span className="spacer" />
          <ColumnsButton view="verify" />
        </div>
        <div role="region" aria-label={t('verify.drop.label')} className={`drop-zone${dragging ? ' drop-zone-active' : ''}`}>
          {reading ? t('verify.drop.reading') : dragging ? t('verify.drop.active') : t('verify.drop.hint')}
        </div>
        <ErrorLine error={error} className="error-panel" />
        {summary && (
          <div className="toolbar verify-summary" role="group" aria-label={t('verify.summary.label')}>
            <span role="status" data-testid="verify-progress">
              {running
                ? t('verify.summary.running', { done: summary.done, total: task.total ?? summary.total })
                : t('verify.summary.done', { done: summary.done, cancelled: task?.state === 'cancelled' ? 'yes' : 'no' })}
            </span>
            {running && (
              <button type="button" onClick={() => void cancel()}>
                {t('verify.cancel')}
              </button>
            )}
            <ul className="verify-counts" aria-label={t('verify.counts.label')}>
              {VERIFICATION_STATUSES.map((s) => (
                <li key={s} className={`verify-${s}`} data-testid={`verify-count-${s}`}>
                  {t('verify.count', { result: s, count: summary.counts[s] })}
                </li>
              ))}
            </ul>
            <button type="button" aria-pressed={failuresOnly} onClick={() => setFailuresOnly(!failuresOnly)}>
              {t('verify.failuresOnly', { count: failures })}
            </button>
          </div>
        )}
        <DataTable
          label={t('verify.table.label')}
          columns={columns}
          columnsView="verify"
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
          emptyText={summary ? (failuresOnly ? t('verify.empty.noFailures') : t('verify.empty.noProofs')) : t('verify.empty.none')}
        />
        {rowMenu.menu}
        {summary && summary.unmatched_originals.length > 0 && <UnmatchedOriginals originals={summary.unmatched_originals} />}
        {summary && summary.skipped.length > 0 && (
          <p className="muted">
            {t('verify.skipped', { files: summary.skipped.map((s) => t('verify.skippedFile', { name: s.name, reason: s.reason })).join('; ') })}
          </p>
        )}
        <NetworkSetting />
        <EndpointSettings />
      </section>
      {detail && <VerifyDetailPane detail={detail} />}
    </div>
  );
}
