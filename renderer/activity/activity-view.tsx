import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { ACTIVITY_KINDS, type ActivityEntry } from '../../common/activity.js';
import type { ActivityJob } from '../../common/ipc/activity.js';
import { jobLabel } from '../jobs/job-text.js';
import { NO_FILTERS, useActivityStore, type ActivityFilters } from './activity-store.js';
import { activityRowMenu } from './activity-row-menu.js';
import { dayOfInstant, endOfLocalDay, localDateTime, startOfLocalDay } from '../format/local-format.js';
import { DateField } from '../format/date-field.js';
import { useRowMenu } from '../commands/row-menu.js';
import { ColumnsButton } from '../table/column-menu.js';
import { DataTable, type TableColumn } from '../table/data-table.js';
import { EMPTY_SELECTION, type TableSelection } from '../table/selection.js';
import { t as translate } from '../i18n/i18n-store.js';
import { useT } from '../i18n/use-t.js';
import { useResetOnChange } from '../shell/use-reset-on-change.js';
import './activity.css';

/** What an entry says, in words: the kind, with its tags or its transaction. */
function whatText(entry: ActivityEntry): string {
  const detail = entry.detail ?? {};
  const kind = entry.kind;
  if (entry.kind === 'tagged') {
    const added = (detail.added as string[] | undefined) ?? [];
    const removed = (detail.removed as string[] | undefined) ?? [];
    return translate('activity.what.tagged', { kind, changes: [...added.map((tag) => `+${tag}`), ...removed.map((tag) => `−${tag}`)].join(' ') });
  }
  if (typeof detail.transaction === 'string') return translate('activity.what.transaction', { kind, transaction: detail.transaction });
  // A list export (Records or Jobs as CSV or XLSX): no credential, the list and its row count.
  if (typeof detail.list === 'string') return translate('activity.what.list', { kind, list: detail.list, rows: Number(detail.rows), format: String(detail.format).toUpperCase() });
  if (typeof detail.format === 'string') return translate('activity.what.format', { kind, format: detail.format });
  if (detail.credential_deleted === true) return translate('activity.what.deleted', { kind });
  return translate('activity.kind', { kind });
}

/** A credential's or job's cell tooltip: its name with its uid; the uid alone where it has no name (a deleted credential). */
function namedText(name: string | null | undefined, uid: string | null): string {
  if (!uid) return '';
  return name ? translate('activity.named', { name, uid }) : uid;
}

/** A cell naming a credential or job by what the admin knows it by; its uid where it has no name. */
function NamedCell({ name, uid }: { name: string | null | undefined; uid: string | null }) {
  return name ? <>{name}</> : <span className="uid">{uid ?? ''}</span>;
}

/**
 * The columns: When names the entry (always shown, pinned first); dates in the admin's locale,
 * the instant in ISO only in the CSV export. A credential shows its title and a job what the
 * Jobs view calls it, their uids in the tooltip.
 */
function activityColumns(t: ReturnType<typeof useT>, jobs: Record<string, ActivityJob>): TableColumn<ActivityEntry>[] {
  const when = (e: ActivityEntry) => localDateTime(e.date);
  const jobName = (e: ActivityEntry) => {
    const job = e.job_uid ? jobs[e.job_uid] : undefined;
    return job ? jobLabel(job, job.summary) : null;
  };
  return [
    { id: 'when', header: t('activity.column.when'), width: '14rem', identifying: true, cell: (e) => <time dateTime={e.date}>{when(e)}</time>, text: when },
    { id: 'what', header: t('activity.column.what'), width: 'minmax(12rem, 2fr)', cell: whatText },
    { id: 'by', header: t('activity.column.by'), width: 'minmax(6rem, 1fr)', cell: (e) => e.actor },
    { id: 'chain', header: t('activity.column.chain'), width: '7.5rem', cell: (e) => e.engine ?? '' },
    {
      id: 'credential',
      header: t('activity.column.credential'),
      width: 'minmax(10rem, 2fr)',
      cell: (e) => <NamedCell name={e.credential_title} uid={e.credential_uid} />,
      text: (e) => namedText(e.credential_title, e.credential_uid),
    },
    { id: 'job', header: t('activity.column.job'), width: 'minmax(8rem, 1.5fr)', cell: (e) => <NamedCell name={jobName(e)} uid={e.job_uid} />, text: (e) => namedText(jobName(e), e.job_uid) },
  ];
}

function FilterBar() {
  const applied = useActivityStore((s) => s.filters);
  const setFilters = useActivityStore((s) => s.setFilters);
  const [draft, setDraft] = useState<ActivityFilters>(applied);
  // Filters applied elsewhere (a row's menu) show in the fields.
  useResetOnChange(applied, setDraft);
  const t = useT();
  const field = (name: keyof ActivityFilters) => ({
    value: draft[name],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
  };
  return (
    <form className="toolbar filters activity-filters" role="search" aria-label={t('activity.filters')} onSubmit={submit}>
      <label>
        {t('activity.filter.kind')}{' '}
        <select
          value={draft.kind}
          onChange={(e) => {
            // A kind applies at once; the typed filters wait for Apply.
            const next = { ...draft, kind: e.target.value };
            setDraft(next);
            setFilters(next);
          }}
        >
          <option value="">{t('activity.filter.all')}</option>
          {ACTIVITY_KINDS.map((k) => (
            <option key={k} value={k}>
              {t('activity.kind', { kind: k })}
            </option>
          ))}
        </select>
      </label>
      {/* Local days: from the first day's local midnight to the end of the last day. */}
      <span className="filter-label">
        {t('activity.filter.from')}{' '}
        <DateField
          label={t('activity.filter.from')}
          value={draft.from ? dayOfInstant(draft.from) : null}
          onChange={(day) => setDraft({ ...draft, from: day ? startOfLocalDay(day) : '' })}
        />
      </span>
      <span className="filter-label">
        {t('activity.filter.until')}{' '}
        <DateField
          label={t('activity.filter.until')}
          value={draft.until ? dayOfInstant(draft.until) : null}
          near={draft.from ? dayOfInstant(draft.from) : null}
          onChange={(day) => setDraft({ ...draft, until: day ? endOfLocalDay(day) : '' })}
        />
      </span>
      <label>
        {t('activity.filter.credential')} <input type="text" placeholder={t('activity.filter.credentialPlaceholder')} spellCheck={false} {...field('credential')} />
      </label>
      <label>
        {t('activity.filter.job')} <input type="text" placeholder={t('activity.filter.jobPlaceholder')} spellCheck={false} {...field('job')} />
      </label>
      {/* The two buttons wrap together, never one alone on a line. */}
      <span className="activity-filter-actions">
        <button type="submit">{t('activity.filter.apply')}</button>
        <button
          type="button"
          onClick={() => {
            setDraft(NO_FILTERS);
            setFilters(NO_FILTERS);
          }}
        >
          {t('activity.filter.clear')}
        </button>
      </span>
    </form>
  );
}

/** Activity: what was done to the Partner's records, when, by whom and on which chain. */
export function ActivityView() {
  const { items, jobs, page, totalPages, totalItems, error, loading, goTo, exportCsv } = useActivityStore();
  const t = useT();
  const [selection, setSelection] = useState<TableSelection>(EMPTY_SELECTION);
  useEffect(() => {
    void goTo(1);
  }, [goTo]);
  // Another page or filter: another list, nothing of it selected (in the frame that shows it).
  useResetOnChange(items, () => setSelection(EMPTY_SELECTION));
  const columns = useMemo(() => activityColumns(t, jobs), [t, jobs]);
  const rowAt = useCallback((index: number) => items[index], [items]);
  // The page holds every row it shows: nothing to fetch as it scrolls.
  const onRangeChange = useCallback(() => undefined, []);
  const rowMenu = useRowMenu<ActivityEntry>(t('activity.menu.label'), activityRowMenu);
  return (
    <section className="view activity" aria-labelledby="activity-title">
      <div className="toolbar">
        <h1 id="activity-title">{t('activity.title')}</h1>
        <span className="spacer" />
        <ColumnsButton view="activity" />
        <button type="button" onClick={() => void exportCsv()}>
          {t('activity.exportCsv')}
        </button>
      </div>
      <FilterBar />
      {error && (
        <p className="error-panel" role="alert">
          {error}
        </p>
      )}
      <DataTable
        label={t('activity.table')}
        columns={columns}
        columnsView="activity"
        rowCount={items.length}
        rowAt={rowAt}
        onRangeChange={onRangeChange}
        selection={selection}
        onSelectionChange={setSelection}
        onRowMenu={rowMenu.open}
        emptyText={loading ? t('common.loading') : t('activity.empty')}
      />
      {rowMenu.menu}
      <nav className="toolbar" aria-label={t('activity.pages')}>
        <button type="button" disabled={page <= 1} onClick={() => void goTo(page - 1)}>
          {t('activity.previous')}
        </button>
        <span aria-live="polite">{totalItems === 0 ? t('activity.noEntries') : t('activity.pageOf', { page, pages: totalPages, count: totalItems })}</span>
        <button type="button" disabled={page >= totalPages} onClick={() => void goTo(page + 1)}>
          {t('activity.next')}
        </button>
      </nav>
    </section>
  );
}
