import { useEffect, useState, type FormEvent } from 'react';
import { ACTIVITY_KINDS, type ActivityEntry } from '../../common/activity.js';
import { NO_FILTERS, useActivityStore, type ActivityFilters } from './activity-store.js';
import { localDateTime } from '../format/local-format.js';
import './activity.css';

/** What an entry says, in words: the kind, with its tags or its transaction. */
function whatText(entry: ActivityEntry): string {
  const detail = entry.detail ?? {};
  const kind = entry.kind.replace('_', ' ');
  if (entry.kind === 'tagged') {
    const added = (detail.added as string[] | undefined) ?? [];
    const removed = (detail.removed as string[] | undefined) ?? [];
    return [kind, ...added.map((t) => `+${t}`), ...removed.map((t) => `−${t}`)].join(' ');
  }
  if (typeof detail.transaction === 'string') return `${kind} in ${detail.transaction}`;
  // A list export (Records or Jobs as CSV or XLSX): no credential, the list and its row count.
  if (typeof detail.list === 'string') return `${kind} the ${detail.list} list, ${Number(detail.rows).toLocaleString('en-US')} rows as ${String(detail.format).toUpperCase()}`;
  if (typeof detail.format === 'string') return `${kind} as ${detail.format === 'vc' ? 'Verifiable Credential' : 'proof file'}`;
  if (detail.credential_deleted === true) return `${kind} (credential deleted)`;
  return kind;
}

function FilterBar() {
  const applied = useActivityStore((s) => s.filters);
  const setFilters = useActivityStore((s) => s.setFilters);
  const exportCsv = useActivityStore((s) => s.exportCsv);
  const [draft, setDraft] = useState<ActivityFilters>(applied);
  const field = (name: keyof ActivityFilters) => ({
    value: draft[name],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
  };
  return (
    <form className="toolbar filters activity-filters" role="search" aria-label="Activity filters" onSubmit={submit}>
      <label>
        Kind{' '}
        <select
          value={draft.kind}
          onChange={(e) => {
            // A kind applies at once; the typed filters wait for Apply.
            const next = { ...draft, kind: e.target.value };
            setDraft(next);
            setFilters(next);
          }}
        >
          <option value="">All</option>
          {ACTIVITY_KINDS.map((k) => (
            <option key={k} value={k}>
              {k.replace('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      <label>
        From <input type="date" {...field('from')} />
      </label>
      <label>
        Until <input type="date" {...field('until')} />
      </label>
      <label>
        Credential <input type="text" placeholder="credential uid" spellCheck={false} {...field('credential')} />
      </label>
      <label>
        Job <input type="text" placeholder="job uid" spellCheck={false} {...field('job')} />
      </label>
      <button type="submit">Apply filters</button>
      <button
        type="button"
        onClick={() => {
          setDraft(NO_FILTERS);
          setFilters(NO_FILTERS);
        }}
      >
        Clear filters
      </button>
      <span className="spacer" />
      <button type="button" onClick={() => void exportCsv()}>
        Export CSV
      </button>
    </form>
  );
}

/** Activity: what was done to the Partner's records, when, by whom and on which chain. */
export function ActivityView() {
  const { items, page, totalPages, totalItems, error, loading, goTo } = useActivityStore();
  useEffect(() => {
    void goTo(1);
  }, [goTo]);
  return (
    <section className="view activity" aria-labelledby="activity-title">
      <h1 id="activity-title">Activity</h1>
      <FilterBar />
      {error && (
        <p className="error-panel" role="alert">
          {error}
        </p>
      )}
      <div className="activity-table-wrap">
        <table className="activity-table" aria-label="Activity" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">By</th>
              <th scope="col">Chain</th>
              <th scope="col">Credential</th>
              <th scope="col">Job</th>
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
        {!loading && !error && totalItems === 0 && <p className="activity-empty">Nothing was done that matches these filters.</p>}
      </div>
      <nav className="toolbar" aria-label="Activity pages">
        <button type="button" disabled={page <= 1} onClick={() => void goTo(page - 1)}>
          Previous page
        </button>
        <span aria-live="polite">{totalItems === 0 ? 'No entries' : `Page ${page} of ${totalPages} · ${totalItems} entries`}</span>
        <button type="button" disabled={page >= totalPages} onClick={() => void goTo(page + 1)}>
          Next page
        </button>
      </nav>
    </section>
  );
}
