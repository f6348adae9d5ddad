import { ErrorLine } from '../shell/error-line.js';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { JobSortField } from '../../common/ipc/jobs.js';
import { JOB_STATUSES, type Job } from '../../common/wire-types.js';
import { onAppEvent } from '../shell/app-events.js';
import { DataTable, type TableColumn } from '../table/data-table.js';
import { ColumnsButton } from '../table/column-menu.js';
import { ToolbarButton, useFittedToolbar } from '../table/toolbar-button.js';
import { JobDetailPane } from './job-detail.js';
import { useRowMenu } from '../commands/row-menu.js';
import { ExportDialog } from './export-dialog.js';
import { commandHint } from '../commands/command-hint.js';
import { openListExport } from '../list-export/list-export-store.js';
import { jobMenu } from './job-menu.js';
import { jobAt, jobSummaryOf, useJobsStore } from './jobs-store.js';
import { jobFailure, jobLabel, jobName, jobProgress } from './job-text.js';
import { localCount, localDateTime, relativeTime } from '../format/local-format.js';
import { useNow } from '../format/use-now.js';
import { useT } from '../i18n/use-t.js';
import { useEngineName } from '../shell/engine-name.js';

/**
 * Column ids are the spec's sort_by values of GET /jobs where it allows sorting by them
 * (`ready_date` is the finished date); the other columns cannot be sorted. Job is the job's
 * name (its tags or first titles), Progress what it waits for or how far it is towards
 * final, Failed what failed; dates are relative to now, their full date on hover.
 */
function jobColumns(t: ReturnType<typeof useT>, now: number, engineName: (id: string) => string): TableColumn<Job>[] {
  const status = (j: Job) => t('jobs.status', { status: j.status });
  // The name alone: the Credentials column counts them.
  const name = (j: Job) => jobLabel(j, jobSummaryOf(j.uid));
  const progress = (j: Job) => jobProgress(j, jobSummaryOf(j.uid), now);
  const count = (j: Job) => {
    const summary = jobSummaryOf(j.uid);
    return summary ? localCount(summary.credentials) : '—';
  };
  // Created, Due and Finished are relative (`3 hr. ago`; the day past a week), their full date on
  // hover; a <time> says which instant the words stand for.
  const ago = (iso: string | null) => (iso === null ? '—' : <time dateTime={iso}>{relativeTime(iso, now)}</time>);
  const due = (j: Job) => (j.status === 'scheduled' ? ago(j.scheduled_date) : '—');
  return [
  { id: 'status', header: t('jobs.column.status'), width: '7.5rem', sortable: true, identifying: true, cell: (j) => <span className={`state state-${j.status}`}>{status(j)}</span>, text: status },
  { id: 'uid', header: t('jobs.column.job'), width: 'minmax(9.5rem, 2fr)', defaultPinned: true, cell: name },
  { id: 'credentials', header: t('jobs.column.credentials'), width: '8rem', cell: (j) => <span className="numeric">{count(j)}</span>, text: count },
  { id: 'progress', header: t('jobs.column.progress'), width: 'minmax(7.5rem, 2fr)', cell: progress },
  { id: 'chain', header: t('jobs.column.engine'), width: '7rem', sortable: true, cell: (j) => engineName(j.chain) },
  { id: 'tags', header: t('jobs.column.tags'), width: 'minmax(5rem, 1fr)', cell: (j) => j.tags.join(', ') || '—' },
  { id: 'created_date', header: t('jobs.column.created'), width: '7rem', sortable: true, cell: (j) => ago(j.created_date), text: (j) => localDateTime(j.created_date) },
  { id: 'due', header: t('jobs.column.due'), width: '6.5rem', cell: due, text: (j) => (j.status === 'scheduled' ? localDateTime(j.scheduled_date) : '—') },
  { id: 'ready_date', header: t('jobs.column.finished'), width: '7.5rem', sortable: true, cell: (j) => ago(j.finished_date), text: (j) => localDateTime(j.finished_date) },
  { id: 'failed_date', header: t('jobs.column.failed'), width: 'minmax(8.5rem, 1fr)', sortable: true, cell: jobFailure, text: (j) => (j.status === 'failed' ? `${jobFailure(j)} (${localDateTime(j.failed_date)})` : '—') },
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
  const t = useT();
  const rowMenu = useRowMenu<Job>(t('jobs.menu.label'), (job) => jobMenu(job, { exportProofs: setExporting }));
  const all = useMemo(() => Object.values(counts).reduce((a, b) => a + b, 0), [counts]);
  const now = useNow();
  useJobsStore((s) => s.summaries);
  const engineName = useEngineName();
  const columns = useMemo(() => jobColumns(t, now, engineName), [t, now, engineName]);
  const mainBar = useFittedToolbar();

  return (
    <div className="records-layout">
      <section className="view" aria-labelledby="jobs-title">
        <div ref={mainBar.ref} className={`toolbar ${mainBar.className}`}>
          <h1 id="jobs-title">{t('jobs.title')}</h1>
          <span className="muted">{t('jobs.shown', { count: total })}</span>
          <span className="spacer" />
          <ColumnsButton view="jobs" />
          <ToolbarButton icon="export" label={t('listExport.button')} {...commandHint('file.exportList')} disabled={total === 0} onClick={() => openListExport('jobs')} />
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
          columnsView="jobs"
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
        {exporting && <ExportDialog source={async () => ({ kind: 'job', jobUid: exporting.uid })} what={t('jobs.export.what', { job: jobName(exporting, jobSummaryOf(exporting.uid)) })} onClose={() => setExporting(null)} />}
      </section>
      {detailError && (
        <aside className="job-detail" aria-label={t('jobs.detail.label')}>
          <ErrorLine error={detailError} className="error-panel" />
        </aside>
      )}
      {detail && !detailError && <JobDetailPane detail={detail} />}
    </div>
  );
}
