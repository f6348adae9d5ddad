import { shortUid } from './short-uid.js';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { JobSortField } from '../../common/ipc/jobs.js';
import { JOB_STATUSES, type Job } from '../../common/wire-types.js';
import { onAppEvent } from '../shell/app-events.js';
import { DataTable, type TableColumn } from '../table/data-table.js';
import { JobDetailPane } from './job-detail.js';
import { useRowMenu } from '../commands/row-menu.js';
import { ExportDialog } from './export-dialog.js';
import { commandHint } from '../commands/command-hint.js';
import { openListExport } from '../list-export/list-export-store.js';
import { jobMenu } from './job-menu.js';
import { jobAt, useJobsStore } from './jobs-store.js';

/** `2026-11-23 23:04` in local time: a date column fits in 9rem beside the job detail. */
function when(iso: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * Column ids are the spec's sort_by values of GET /jobs where it allows sorting by them
 * (`ready_date` is the finished date); Job, Tags and Due (scheduled date) cannot be sorted.
 */
const COLUMNS: TableColumn<Job>[] = [
  { id: 'status', header: 'Status', width: '7.5rem', sortable: true, cell: (j) => <span className={`state state-${j.status}`}>{j.status}</span>, text: (j) => j.status },
  { id: 'chain', header: 'Engine', width: '6rem', sortable: true, cell: (j) => <code>{j.chain}</code>, text: (j) => j.chain },
  { id: 'uid', header: 'Job', width: 'minmax(6rem, 1fr)', cell: (j) => <code>{shortUid(j.uid)}</code>, text: (j) => j.uid },
  { id: 'tags', header: 'Tags', width: 'minmax(6rem, 1fr)', cell: (j) => j.tags.join(', ') || '—' },
  { id: 'created_date', header: 'Created', width: '9.5rem', sortable: true, cell: (j) => when(j.created_date) },
  { id: 'due', header: 'Due', width: '9.5rem', cell: (j) => when(j.scheduled_date) },
  { id: 'ready_date', header: 'Finished', width: '9.5rem', sortable: true, cell: (j) => when(j.finished_date) },
  { id: 'failed_date', header: 'Failed', width: '9.5rem', sortable: true, cell: (j) => when(j.failed_date) },
];

/** Jobs: every job of the Partner by status, newest first, with live state changes. */
export function JobsView() {
  const status = useJobsStore((s) => s.status);
  const sort = useJobsStore((s) => s.sort);
  const total = useJobsStore((s) => s.total);
  const counts = useJobsStore((s) => s.counts);
  const selection = useJobsStore((s) => s.selection);
  const detail = useJobsStore((s) => s.detail);
  const detailError = useJobsStore((s) => s.detailError);
  const error = useJobsStore((s) => s.error);
  useJobsStore((s) => s.pages);
  const { setStatus, setSort, ensureRange, setSelection, refresh, open } = useJobsStore.getState();

  useEffect(() => refresh(), [refresh]);
  useEffect(() => onAppEvent('job', () => refresh()), [refresh]);
  useEffect(() => onAppEvent('counts', ({ scopes }) => scopes.includes('jobs') && refresh()), [refresh]);
  useEffect(() => onAppEvent('partner', () => setStatus(null)), [setStatus]);

  const onRangeChange = useCallback((start: number, end: number) => ensureRange(start, end), [ensureRange]);
  const [exporting, setExporting] = useState<Job | null>(null);
  const rowMenu = useRowMenu<Job>('Job', (job) => jobMenu(job, { exportProofs: setExporting }));
  const all = useMemo(() => Object.values(counts).reduce((a, b) => a + b, 0), [counts]);

  return (
    <div className="records-layout">
      <section className="view" aria-labelledby="jobs-title">
        <div className="toolbar">
          <h1 id="jobs-title">Jobs</h1>
          <span className="muted">{total.toLocaleString('en-US')} shown</span>
          <span className="spacer" />
          <button type="button" {...commandHint('file.exportList')} disabled={total === 0} onClick={() => openListExport('jobs')}>
            Export list
          </button>
        </div>
        <div className="toolbar" role="group" aria-label="Job status">
          <button type="button" aria-pressed={status === null} onClick={() => setStatus(null)}>
            All ({all.toLocaleString('en-US')})
          </button>
          {JOB_STATUSES.map((s) => (
            <button key={s} type="button" aria-pressed={status === s} onClick={() => setStatus(s)}>
              {s} ({counts[s].toLocaleString('en-US')})
            </button>
          ))}
        </div>
        {error && (
          <div className="error-panel" role="alert">
            Could not load the jobs: {error.message} (<code>{error.id}</code>)
          </div>
        )}
        <DataTable
          label="Jobs"
          columns={COLUMNS}
          rowCount={total}
          rowAt={jobAt}
          onRangeChange={onRangeChange}
          selection={selection}
          onSelectionChange={(next) => {
            setSelection(next);
            const row = next.focus !== null ? jobAt(next.focus) : undefined;
            if (row && !next.all) void open(row.uid);
          }}
          onOpen={(_index, job) => void open(job.uid)}
          sort={{ id: sort.by, desc: sort.order === 'desc' }}
          onSortChange={(next) => setSort({ by: next.id as JobSortField, order: next.desc ? 'desc' : 'asc' })}
          emptyText="No jobs yet. Schedule records in Records to open one."
          onRowMenu={rowMenu.open}
        />
        {rowMenu.menu}
        {exporting && <ExportDialog source={async () => ({ kind: 'job', jobUid: exporting.uid })} what={`The proofs of job ${shortUid(exporting.uid)}`} onClose={() => setExporting(null)} />}
      </section>
      {detailError && (
        <aside className="job-detail" aria-label="Job detail">
          <p className="error-panel" role="alert">{detailError}</p>
        </aside>
      )}
      {detail && !detailError && <JobDetailPane detail={detail} />}
    </div>
  );
}
