import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { useShellStore } from '../shell/shell-store.js';
import { StagingRow } from './staging-row.js';
import { useStagingStore } from './staging-store.js';
import './staging.css';
import type { EngineStatus } from '../../common/ipc/app.js';
import { ErrorLine } from '../shell/error-line.js';

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
    <section className="staging" aria-label="Staging">
      <header className="staging-header">
        <h2>Staging</h2>
        <span className="muted">
          {rows.length.toLocaleString('en-US')} row{rows.length === 1 ? '' : 's'}
          {summary.length > 0 && ` · ${created.toLocaleString('en-US')} created, ${failed.toLocaleString('en-US')} failed, ${notCreated.toLocaleString('en-US')} not created`}
        </span>
        <div className="staging-actions">
          <button type="button" onClick={() => addMetadataRow()} disabled={phase !== 'idle'}>
            Add metadata row
          </button>
          <label className="checkbox">
            <input type="checkbox" checked={allowDuplicates} onChange={(e) => setAllowDuplicates(e.target.checked)} /> Allow content already uploaded
          </label>
          <button type="button" className="primary" disabled={phase !== 'idle' || pending === 0} onClick={() => void create(null)}>
            Create
          </button>
          <label className="staging-engine">
            <span>Schedule on</span>
            <select aria-label="Engine to schedule on" value={chosenEngine} onChange={(e) => setEngine(e.target.value)}>
              {engines.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.id}
                </option>
              ))}
            </select>
          </label>
          <button type="button" disabled={phase !== 'idle' || pending === 0 || chosenEngine === ''} onClick={() => void create(chosenEngine)}>
            Create and schedule
          </button>
          {created > 0 && phase === 'idle' && (
            <button type="button" onClick={clearCreated}>
              Clear created
            </button>
          )}
          <button type="button" onClick={clear} disabled={phase !== 'idle'}>
            Clear all
          </button>
        </div>
      </header>

      {addingTo && (
        <p className="staging-adding" role="status">
          Adding to the record of “{addingTo.title}”: files you add now link to it.{' '}
          <button type="button" className="link-button" onClick={stopAddingToRecord}>
            Stop adding to this record
          </button>
        </p>
      )}
      {phase === 'adding' && (
        <p className="staging-progress">
          <progress aria-label="Adding files" max={adding?.total || undefined} value={adding?.total ? adding.done : undefined} />
          <span role="status">
            {adding?.total
              ? adding.done < adding.total
                ? `Uploading ${adding.done.toLocaleString('en-US')} of ${adding.total.toLocaleString('en-US')} files…`
                : `Reading and hashing ${adding.total.toLocaleString('en-US')} files…`
              : 'Reading and hashing the files…'}
          </span>
          <button type="button" onClick={cancelAdding}>
            Cancel
          </button>
        </p>
      )}
      {running && task && (
        <p className="staging-progress">
          <progress aria-label={task.label} max={task.total ?? undefined} value={task.total === null ? undefined : task.done} />
          <span role="status">
            {task.label}: {task.done.toLocaleString('en-US')} of {(task.total ?? 0).toLocaleString('en-US')}
          </span>
          <button type="button" onClick={() => void cancel()}>
            Cancel
          </button>
        </p>
      )}
      <ErrorLine error={error} />
      {skipped.length > 0 && (
        <details className="staging-skipped">
          <summary>
            {skipped.length} item{skipped.length === 1 ? '' : 's'} left out
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
        <div role="table" aria-label="Staged files" aria-rowcount={rows.length + 1} className="staging-table">
          <div role="row" className="staging-row staging-head" aria-rowindex={1}>
            {['File', 'Title', 'Tags', 'Expiry', 'Linked records', 'Metadata', 'State', 'Remove'].map((h) => (
              <div role="columnheader" key={h}>
                {h === 'Remove' ? <span className="visually-hidden">Remove</span> : h}
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
