import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { useShellStore } from '../shell/shell-store.js';
import { StagingRow } from './staging-row.js';
import { useStagingStore } from './staging-store.js';
import './staging.css';
import type { EngineStatus } from '../../common/ipc/app.js';

const HEADS: MessageId[] = ['staging.column.file', 'staging.column.title', 'staging.column.tags', 'staging.column.expiry', 'staging.column.linked', 'staging.column.metadata', 'staging.column.state', 'staging.column.remove'];
import { ErrorLine } from '../shell/error-line.js';
import { useT } from '../i18n/use-t.js';
import type { MessageId } from '../i18n/i18n-store.js';
import { taskLabel } from '../shell/task-label.js';

/** One empty list: a selector must not answer a new [] on every render (zustand would loop). */
const NO_ENGINES: EngineStatus[] = [];

/**
 * The staging list (region `Staging`): what was dropped or added, to review and edit before
 * `Create` or `Create and schedule`. Long lists are virtualized; creation runs as a task in
 * main with a progressbar named after the work, and cancel.
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
  const { create, cancel, cancelAdding, clear, clearCreated, addMetadataRow, setAllowDuplicates, stopAddingToRecord } = useStagingStore.getState();
  const engines = useShellStore((s) => s.status?.engines) ?? NO_ENGINES;
  const [engine, setEngine] = useState('');
  const chosenEngine = engine || engines[0]?.id || '';
  const scrollRef = useRef<HTMLDivElement>(null);
  const t = useT();

  const names = useMemo(() => new Set(rows.flatMap((r) => [r.key, r.file?.rel_path ?? '', r.title.trim()].filter((n) => n !== ''))), [rows]);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => 44, overscan: 8 });

  if (rows.length === 0 && phase === 'idle' && !error) return null;

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
        <span className="muted">
          {t('staging.rows', { count: rows.length })}
          {summary.length > 0 && t('staging.summary', { created, failed, notCreated })}
        </span>
        <div className="staging-actions">
          <button type="button" onClick={() => addMetadataRow()} disabled={phase !== 'idle'}>
            {t('staging.addMetadataRow')}
          </button>
          <label className="checkbox">
            <input type="checkbox" checked={allowDuplicates} onChange={(e) => setAllowDuplicates(e.target.checked)} /> {t('staging.allowDuplicates')}
          </label>
          <button type="button" className="primary" disabled={phase !== 'idle' || pending === 0} onClick={() => void create(null)}>
            {t('staging.create')}
          </button>
          <label className="staging-engine">
            <span>{t('staging.scheduleOn')}</span>
            <select aria-label={t('staging.engine')} value={chosenEngine} onChange={(e) => setEngine(e.target.value)}>
              {engines.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.id}
                </option>
              ))}
            </select>
          </label>
          <button type="button" disabled={phase !== 'idle' || pending === 0 || chosenEngine === ''} onClick={() => void create(chosenEngine)}>
            {t('staging.createAndSchedule')}
          </button>
          {created > 0 && phase === 'idle' && (
            <button type="button" onClick={clearCreated}>
              {t('staging.clearCreated')}
            </button>
          )}
          <button type="button" onClick={clear} disabled={phase !== 'idle'}>
            {t('staging.clearAll')}
          </button>
        </div>
      </header>

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
          <summary>
            {t('staging.leftOut', { count: skipped.length })}
          </summary>
          <ul>
            {skipped.map((s) => (
              <li key={s.path}>
                <code>{s.path}</code>: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}

      <div ref={scrollRef} className="staging-scroll">
        <div role="table" aria-label={t('staging.table')} aria-rowcount={rows.length + 1} className="staging-table">
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
              return (
                <div key={row.key} data-index={item.index} ref={virtualizer.measureElement} className="staging-slot" style={{ transform: `translateY(${item.start}px)` }}>
                  <StagingRow row={row} names={names} index={item.index} />
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </section>
  );
}
