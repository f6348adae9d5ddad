import type { RecordRow } from '../../common/records.js';
import type { useT } from '../i18n/use-t.js';
import { localDay } from '../format/local-format.js';
import type { TableColumn } from '../table/data-table.js';
import { TagList } from '../table/tag-list.js';


/** The Records table's columns: title, tags, files, linked records, dates, one state column per engine. */
export function recordColumns(engines: readonly string[], t: ReturnType<typeof useT>): TableColumn<RecordRow>[] {
  const stateLabel = (state: string) => t('records.state', { state });
  return [
    { id: 'title', header: t('records.column.title'), width: 'minmax(12rem, 3fr)', sortable: true, cell: (r) => r.title },
    {
      id: 'tags',
      header: t('records.column.tags'),
      width: 'minmax(8rem, 2fr)',
      cell: (r) => <TagList tags={r.tags} />,
      text: (r) => r.tags.join(', '),
    },
    { id: 'files', header: t('records.column.files'), width: '5.5rem', cell: (r) => (r.fileCount === 0 ? '—' : r.fileCount) },
    {
      id: 'linked',
      header: t('records.column.linked'),
      width: '6.5rem',
      cell: (r) => {
        const n = r.linkedUids.length + r.linkedFromCount;
        return n === 0 ? '—' : <span title={t('records.column.linkedDetail', { to: r.linkedUids.length, from: r.linkedFromCount })}>{n}</span>;
      },
      text: (r) => {
        const n = r.linkedUids.length + r.linkedFromCount;
        return n === 0 ? '—' : t('records.column.linkedText', { count: n, to: r.linkedUids.length, from: r.linkedFromCount });
      },
    },
    { id: 'upload_date', header: t('records.column.uploaded'), width: '8rem', sortable: true, cell: (r) => localDay(r.uploadDate) },
    { id: 'expiry', header: t('records.column.expiry'), width: '8rem', cell: (r) => localDay(r.expiryDate) },
    ...engines.map(
      (engine): TableColumn<RecordRow> => ({
        id: `state:${engine}`,
        header: engine,
        width: '9.5rem',
        cell: (r) => {
          const state = r.states[engine] ?? 'not_scheduled';
          return <span className={`state state-${state}`}>{stateLabel(state)}</span>;
        },
        text: (r) => stateLabel(r.states[engine] ?? 'not_scheduled'),
      }),
    ),
  ];
}
