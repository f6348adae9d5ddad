import { shortUid } from './short-uid.js';
import { ErrorLine } from '../shell/error-line.js';
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
import { useT } from '../i18n/use-t.js';

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
function jobColumns(t: ReturnType<typeof useT>): TableColumn<Job>[] {
  const status = (j: Job) => t('jobs.status', { status: j.status });
  return [
  { id: 'status', header: t('jobs.column.status'), width: '7.5rem', sortable: true, cell: (j) => <span className={`state state-${j.status}`}>{status(j)}</span>, text: status },
  { id: 'chain', header: t('jobs.column.engine'), width: '6rem', sortable: true, cell: (j) => <code>{j.chain}</code>, text: (j) => j.chain },
  { id: 'uid', header: t('jobs.column.job'), width: 'minmax(6rem, 1fr)', cell: (j) => <code>{shortUid(j.uid)}</code>, text: (j) => j.uid },
  { id: 'tags', header: t('jobs.column.tags'), width: 'minmax(6rem, 1fr)', cell: (j) => j.tags.join(', ') || '—' },
  { id: 'created_date', header: t('jobs.column.created'), width: '9.5rem', sortable: true, cell: (j) => when(j.created_date) },
  { id: 'due', header: t('jobs.column.due'), width: '9.5rem', cell: (j) => when(j.scheduled_date) },
  { id: 'ready_date', header: t('jobs.column.finished'), width: '9.5rem', sortable: true, cell: (j) => when(j.finished_date) },
  { id: 'failed_date', header: t('jobs.column.failed'), width: '9.5rem', sortable: true, cell: (j) => when(j.failed_date) },
  ];
}

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
  const t = useT();
  const columns = useMemo(() => jobColumns(t), [t]);

  return (
    <div className="records-layout">
      <section className="view" aria-labelledby="jobs-title">
        <div className="toolbar">
          <h1 id="jobs-title">{t('jobs.title')}</h1>
          <span className="muted">{t('jobs.shown', { count: total })}</span>
          <span className="spacer" />
          <button type="button" {...commandHint('file.exportList')} disabled={total === 0} onClick={() => openListExport('jobs')}>
            {t('listExport.button')}
          </button>
        </div>
        <div className="toolbar" role="group" aria-label={t('jobs.statusGroup')}>
          <button type="button" aria-pressed={status === null} onClick={() => setStatus(null)}>
            {t('jobs.filter.all', { count: all })}
          </button>
          {JOB_STATUSES.map((s) => (
            <button key={s} type="button" aria-pressed={status === s} onClick={() => setStatus(s)}>
              {t('jobs.filter.status', { status: s, count: counts[s] })}
            </button>
          ))}
        </div>
        <ErrorLine error={error} className="error-panel" />
        <DataTable
          label={t('jobs.table.label')}
          columns={columns}
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
          emptyText={t('jobs.table.empty')}
          onRowMenu={rowMenu.open}
        />
        {rowMenu.menu}
        {exporting && <ExportDialog source={async () => ({ kind: 'job', jobUid: exporting.uid })} what={t('jobs.export.what', { job: shortUid(exporting.uid) })} onClose={() => setExporting(null)} />}
      </section>
      {detailError && (
        <aside className="job-detail" aria-label={t('jobs.detail.label')}>
          <p className="error-panel" role="alert">{detailError}</p>
        </aside>
      )}
      {detail && !detailError && <JobDetailPane detail={detail} />}
    </div>
  );
}
