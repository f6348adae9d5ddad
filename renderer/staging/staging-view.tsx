import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EngineStatus } from '../../common/ipc/app.js';
import { useShellStore } from '../shell/shell-store.js';
import { ErrorLine } from '../shell/error-line.js';
import { useT } from '../i18n/use-t.js';
import type { MessageId } from '../i18n/i18n-store.js';
import { taskLabel } from '../shell/task-label.js';
import { CreateSplitButton } from './create-split-button.js';
import { applyToSelected, fillDown, focusActiveCell, sheetHandlers } from './sheet-handlers.js';
import { StagingRow } from './staging-row.js';
import { outcomeText, useStagingStore } from './staging-store.js';
import './staging.css';

const HEADS: MessageId[] = ['staging.column.file', 'staging.column.title', 'staging.column.tags', 'staging.column.expiry', 'staging.column.linked', 'staging.column.metadata', 'staging.column.state', 'staging.column.remove'];

/** A plain row's height in pixels, as staging.css sets it. */
const ROW_HEIGHT = 46;

/** One empty list: a selector must not answer a new [] on every render (zustand would loop). */
const NO_ENGINES: EngineStatus[] = [];

/**
 * The staging list (region `Staging`): what was dropped or added, to review and edit before
 * `Create` or `Create and schedule`. The grid works like a spreadsheet (sheet-handlers.ts):
 * select cells and rows, paste a block, fill down. Long lists are virtualized; creation runs
 * as a task in main with a progressbar named after the work, and cancel.
 */
export function StagingView() {
  const rows = useStagingStore((s) => s.rows);
  const skipped = useStagingStore((s) => s.skipped);
  const phase = useStagingStore((s) => s.phase);
  const adding = useStagingStore((s) => s.adding);
  const task = useStagingStore((s) => s.task);
  const outcomes = useStagingStore((s) => s.outcomes);
  const error = useStagingStore((s) => s.error);
  const allowDuplicates = useStagingStore((s) => s.allowDuplicates);
  const addingTo = useStagingStore((s) => s.addingTo);
  const selectedCount = useStagingStore((s) => s.selection?.rows.length ?? 0);
  const cleared = useStagingStore((s) => s.cleared);
  const { create, cancel, cancelAdding, clear, undoClear, clearCreated, addMetadataRow, setAllowDuplicates, stopAddingToRecord } = useStagingStore.getState();
  const engines = useShellStore((s) => s.status?.engines) ?? NO_ENGINES;
  const [said, say] = useState('');
  const t = useT();

  if (rows.length === 0 && phase === 'idle' && !error) {
    if (!cleared) return null;
    return (
      <section className="staging staging-cleared" aria-label={t('staging.region')}>
        <p role="status">
          {t('staging.cleared', { count: cleared.rows.length })}{' '}
          <button type="button" onClick={undoClear}>
            {t('staging.undo')}
          </button>
        </p>
      </section>
    );
  }

  const summary = Object.values(outcomes);
  const created = summary.filter((o) => o.status === 'created').length;
  const failed = summary.filter((o) => o.status === 'failed').length;
  const notCreated = summary.filter((o) => o.status === 'not_created').length;
  const pending = rows.filter((r) => outcomes[r.key]?.status !== 'created').length;
  const running = phase === 'creating' && task?.state === 'running';

  return (
    <section className="staging" aria-label={t('staging.region')}>
      <header className="staging-header">
        <h2>{t('staging.title')}</h2>
        <span className="muted staging-count" role="status">
          {t('staging.rows', { count: rows.length })}
          {summary.length > 0 && ` · ${outcomeText(created, failed, notCreated)}`}
        </span>
        <div className="staging-actions">
          <button type="button" onClick={() => addMetadataRow()} disabled={phase !== 'idle'}>
            {t('staging.addMetadataRow')}
          </button>
          <label className="checkbox">
            <input type="checkbox" checked={allowDuplicates} onChange={(e) => setAllowDuplicates(e.target.checked)} /> {t('staging.allowDuplicates')}
          </label>
          {created > 0 && phase === 'idle' && (
            <button type="button" onClick={clearCreated}>
              {t('staging.clearCreated')}
            </button>
          )}
          <button type="button" onClick={clear} disabled={phase !== 'idle'}>
            {t('staging.clearAll')}
          </button>
          <CreateSplitButton engines={engines} disabled={phase !== 'idle' || pending === 0} onCreate={(engine) => void create(engine)} />
        </div>
      </header>

      <div className="staging-selection">
        <span>{t('staging.selected', { count: selectedCount })}</span>
        <button type="button" disabled={selectedCount === 0 || phase === 'creating'} onClick={() => fillDown(say)} title={t('staging.keys')}>
          {t('staging.fillDown')}
        </button>
        <button type="button" disabled={selectedCount < 2 || phase === 'creating'} onClick={() => applyToSelected(say)} title={t('staging.keys')}>
          {t('staging.applyToSelected')}
        </button>
        <span role="status" className="muted">
          {said}
        </span>
        <span className="muted staging-keys" title={t('staging.keys')}>
          {t('staging.keys')}
        </span>
      </div>

      {addingTo && (
        <p className="staging-adding" role="status">
          {t('staging.addingTo', { title: addingTo.title })}{' '}
          <button type="button" className="link-button" onClick={stopAddingToRecord}>
            {t('staging.stopAdding')}
          </button>
        </p>
      )}
      {phase === 'adding' && (
        <p className="staging-progress">
          <progress aria-label={t('staging.addingFiles')} max={adding?.total || undefined} value={adding?.total ? adding.done : undefined} />
          <span role="status">
            {adding?.total
              ? adding.done < adding.total
                ? t('staging.uploading', { done: adding.done, total: adding.total })
                : t('staging.hashing', { total: adding.total })
              : t('staging.hashingAll')}
          </span>
          <button type="button" onClick={cancelAdding}>
            {t('common.cancel')}
          </button>
        </p>
      )}
      {running && task && (
        <p className="staging-progress">
          <progress aria-label={taskLabel(task)} max={task.total ?? undefined} value={task.total === null ? undefined : task.done} />
          <span role="status">
            {t('staging.taskProgress', { task: taskLabel(task), done: task.done, total: task.total ?? 0 })}
          </span>
          <button type="button" onClick={() => void cancel()}>
            {t('common.cancel')}
          </button>
        </p>
      )}
      <ErrorLine error={error} />
      {skipped.length > 0 && (
        <details className="staging-skipped">
          <summary>{t('staging.leftOut', { count: skipped.length })}</summary>
          <ul>
            {skipped.map((s) => (
              <li key={s.path}>
                <code>{s.path}</code>: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}

      <StagingGrid say={say} />
    </section>
  );
}

/**
 * The grid of staged rows, virtualized: mounted while there are rows, so a list brought back
 * by Undo starts with a fresh virtualizer on its new scroll box.
 */
function StagingGrid({ say }: { say(text: string): void }) {
  const rows = useStagingStore((s) => s.rows);
  const selection = useStagingStore((s) => s.selection);
  const focusSeq = useStagingStore((s) => s.focusSeq);
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const handlers = useMemo(() => sheetHandlers(say), [say]);
  const t = useT();
  const names = useMemo(() => new Set(rows.flatMap((r) => [r.key, r.file?.rel_path ?? '', r.title.trim()].filter((n) => n !== ''))), [rows]);
  const selectedRows = useMemo(() => new Set(selection?.rows ?? []), [selection]);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });

  // A move by keyboard may go to a row not rendered yet: scroll to it, then focus its field.
  useEffect(() => {
    const active = useStagingStore.getState().selection?.active;
    if (focusSeq === 0 || !active) return;
    virtualizer.scrollToIndex(active.row, { align: 'auto' });
    let frame = 0;
    let tries = 0;
    const focus = () => {
      if (!focusActiveCell(gridRef.current) && ++tries < 20) frame = requestAnimationFrame(focus);
    };
    frame = requestAnimationFrame(focus);
    return () => cancelAnimationFrame(frame);
    // Only a new keyboard move focuses (the virtualizer is the same object across renders).
  }, [focusSeq]);

  return (
    <div ref={scrollRef} className="staging-scroll">
      <div
        ref={gridRef}
        role="grid"
        aria-label={t('staging.table')}
        aria-multiselectable="true"
        aria-rowcount={rows.length + 1}
        className="staging-table"
        onMouseDown={handlers.onMouseDown}
        onMouseUp={handlers.onMouseUp}
        onClick={handlers.onClick}
        onFocus={handlers.onFocus}
        onKeyDown={handlers.onKeyDown}
        onPaste={handlers.onPaste}
        onCopy={handlers.onCopy}
      >
        <div role="row" className="staging-row staging-head" aria-rowindex={1}>
          {HEADS.map((h) => (
            <div role="columnheader" key={h}>
              {h === 'staging.column.remove' ? <span className="visually-hidden">{t(h)}</span> : t(h)}
            </div>
          ))}
        </div>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const picked = selection && selectedRows.has(item.index);
            return (
              <div key={row.key} data-index={item.index} ref={virtualizer.measureElement} className="staging-slot" style={{ transform: `translateY(${item.start}px)` }}>
                <StagingRow row={row} names={names} index={item.index} selectedLo={picked ? selection.cols[0] : null} selectedHi={picked ? selection.cols[1] : null} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
