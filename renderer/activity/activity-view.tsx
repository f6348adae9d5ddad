import { useEffect, useState, type FormEvent } from 'react';
import { ACTIVITY_KINDS, type ActivityEntry } from '../../common/activity.js';
import { NO_FILTERS, useActivityStore, type ActivityFilters } from './activity-store.js';
import { dayOfInstant, endOfLocalDay, localDateTime, startOfLocalDay } from '../format/local-format.js';
import { DateField } from '../format/date-field.js';
import { t as translate } from '../i18n/i18n-store.js';
import { useT } from '../i18n/use-t.js';
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

function FilterBar() {
  const applied = useActivityStore((s) => s.filters);
  const setFilters = useActivityStore((s) => s.setFilters);
  const exportCsv = useActivityStore((s) => s.exportCsv);
  const [draft, setDraft] = useState<ActivityFilters>(applied);
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
      <span className="spacer" />
      <button type="button" onClick={() => void exportCsv()}>
        {t('activity.exportCsv')}
      </button>
    </form>
  );
}

/** Activity: what was done to the Partner's records, when, by whom and on which chain. */
export function ActivityView() {
  const { items, page, totalPages, totalItems, error, loading, goTo } = useActivityStore();
  const t = useT();
  useEffect(() => {
    void goTo(1);
  }, [goTo]);
  return (
    <section className="view activity" aria-labelledby="activity-title">
      <h1 id="activity-title">{t('activity.title')}</h1>
      <FilterBar />
      {error && (
        <p className="error-panel" role="alert">
          {error}
        </p>
      )}
      {/* Focusable: the log scrolls, and a keyboard alone must be able to scroll it. */}
      <div className="activity-table-wrap" tabIndex={0} role="region" aria-labelledby="activity-title">
        <table className="activity-table" aria-label={t('activity.table')} aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col">{t('activity.column.when')}</th>
              <th scope="col">{t('activity.column.what')}</th>
              <th scope="col">{t('activity.column.by')}</th>
              <th scope="col">{t('activity.column.chain')}</th>
              <th scope="col">{t('activity.column.credential')}</th>
              <th scope="col">{t('activity.column.job')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <time dateTime={entry.date} title={entry.date}>
                    {localDateTime(entry.date)}
                  </time>
                </td>
                <td>{whatText(entry)}</td>
                <td>{entry.actor}</td>
                <td>{entry.engine ?? ''}</td>
                <td className="uid">{entry.credential_uid ?? ''}</td>
                <td className="uid">{entry.job_uid ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!loading && !error && totalItems === 0 && <p className="activity-empty">{t('activity.empty')}</p>}
      </div>
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
