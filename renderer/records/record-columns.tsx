import type { RecordRow, RecordState } from '../../common/records.js';
import type { TableColumn } from '../table/data-table.js';
import { TagList } from '../table/tag-list.js';

const STATE_LABEL: Record<RecordState, string> = {
  not_scheduled: 'not scheduled',
  scheduled: 'scheduled',
  issuing: 'issuing',
  issued: 'issued',
  revoked: 'revoked',
};

function day(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '—';
}

/** The Records table's columns: title, tags, files, linked records, dates, one state column per engine. */
export function recordColumns(engines: readonly string[]): TableColumn<RecordRow>[] {
  return [
    { id: 'title', header: 'Title', width: 'minmax(12rem, 3fr)', sortable: true, cell: (r) => r.title },
    {
      id: 'tags',
      header: 'Tags',
      width: 'minmax(8rem, 2fr)',
      cell: (r) => <TagList tags={r.tags} />,
      text: (r) => r.tags.join(', '),
    },
    { id: 'files', header: 'Files', width: '4.5rem', cell: (r) => (r.fileCount === 0 ? '—' : r.fileCount) },
    {
      id: 'linked',
      header: 'Linked',
      width: '5rem',
      cell: (r) => {
        const n = r.linkedUids.length + r.linkedFromCount;
        return n === 0 ? '—' : <span title={`links to ${r.linkedUids.length}, linked from ${r.linkedFromCount}`}>{n}</span>;
      },
      text: (r) => {
        const n = r.linkedUids.length + r.linkedFromCount;
        return n === 0 ? '—' : `${n}: links to ${r.linkedUids.length}, linked from ${r.linkedFromCount}`;
      },
    },
    { id: 'upload_date', header: 'Uploaded', width: '8rem', sortable: true, cell: (r) => day(r.uploadDate) },
    { id: 'expiry', header: 'Expiry', width: '8rem', cell: (r) => day(r.expiryDate) },
    ...engines.map(
      (engine): TableColumn<RecordRow> => ({
        id: `state:${engine}`,
        header: engine,
        width: '8.5rem',
        cell: (r) => {
          const state = r.states[engine] ?? 'not_scheduled';
          return <span className={`state state-${state}`}>{STATE_LABEL[state]}</span>;
        },
        text: (r) => STATE_LABEL[r.states[engine] ?? 'not_scheduled'],
      }),
    ),
  ];
}
