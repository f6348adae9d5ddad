import type { MetadataKeyCount, RecordRow } from '../../common/records.js';
import type { useT } from '../i18n/use-t.js';
import { localDay } from '../format/local-format.js';
import { chainName, chainTechnical, type EngineChain } from '../format/chain-display.js';
import type { TableColumn } from '../table/data-table.js';
import { TagList } from '../table/tag-list.js';
import { matchedKeys, matchParts, matches, type SearchWords } from './search-highlight.js';

/** A text with the words a search matched marked (`<mark>`). */
function Highlighted({ text, search }: { text: string; search: SearchWords }) {
  return (
    <>
      {matchParts(text, search).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text))}
    </>
  );
}

/** What the Records columns need beyond the rows. */
export interface RecordColumnsInput {
  engines: readonly string[];
  /** The engines' chains, for the state columns' headings; an engine missing here is named by its id. */
  chains?: readonly EngineChain[];
  /** The Partner's metadata keys most used first; null where the connection cannot count them. */
  metadataKeys: readonly MetadataKeyCount[] | null;
  /** The metadata keys whose columns are shown: a match in any other is named beside the title. */
  shownKeys: ReadonlySet<string>;
  search: SearchWords;
}

/**
 * The state columns' headings: the chain's name ("Sepolia", "Local chain"), with the engine id
 * beside it where two engines share that name ("Sepolia (sepolia-2)"); the ids in the tooltip.
 */
export function engineHeadings(engines: readonly string[], chains: readonly EngineChain[], t: ReturnType<typeof useT>): Map<string, { header: string; title: string }> {
  const byId = new Map(chains.map((c) => [c.id, c]));
  const named = engines.map((id) => ({ id, chain: byId.get(id) ?? { id, chain_id: null } }));
  const names = named.map(({ chain }) => chainName(chain));
  return new Map(
    named.map(({ id, chain }, i) => {
      const name = names[i]!;
      const shared = names.filter((n) => n === name).length > 1;
      return [id, { header: shared ? t('records.column.engineTwin', { chain: name, engine: id }) : name, title: chainTechnical(chain) }];
    }),
  );
}

/** What the `Columns` dialog says when it offers no metadata column: not available here, or no keys yet. */
export function metadataColumnsNote(metadataKeys: readonly MetadataKeyCount[] | null, t: ReturnType<typeof useT>): string | undefined {
  if (metadataKeys === null) return t('records.columns.metadataRemote');
  return metadataKeys.length === 0 ? t('records.columns.metadataNone') : undefined;
}

/**
 * The Records table's columns: title, tags, files, linked records, dates, one state column per
 * engine (pinned beside the title), then one (hidden until chosen) column per metadata key. The search's words are marked
 * in the title and metadata cells, and a match in a metadata key whose column is hidden is named
 * under the title ("Matched in: student").
 */
export function recordColumns({ engines, chains = [], metadataKeys, shownKeys, search }: RecordColumnsInput, t: ReturnType<typeof useT>): TableColumn<RecordRow>[] {
  const headings = engineHeadings(engines, chains, t);
  const stateLabel = (state: string) => t('records.state', { state });
  const hiddenMatches = (r: RecordRow) => (search.words.length === 0 ? [] : matchedKeys(r.metadata, search).filter((key) => !shownKeys.has(key)));
  const matchedIn = (r: RecordRow) => {
    const keys = hiddenMatches(r);
    // Only where the title does not show the match itself.
    return keys.length === 0 || matches(r.title, search) ? null : t('records.matchedIn', { keys: keys.join(', ') });
  };
  const group = t('records.columns.metadata');
  const groupHint = t('records.columns.metadataHint');
  const metadataColumns = (metadataKeys ?? []).map(
    ({ key, count }): TableColumn<RecordRow> => ({
      id: `meta:${key}`,
      header: key,
      width: 'minmax(8rem, 2fr)',
      defaultHidden: true,
      group,
      groupHint,
      hint: t('records.columns.keyCount', { count }),
      cell: (r) => {
        const value = r.metadata[key];
        return value === undefined ? '—' : <Highlighted text={value} search={search} />;
      },
      text: (r) => r.metadata[key] ?? '—',
    }),
  );
  return [
    {
      id: 'title',
      header: t('records.column.title'),
      width: 'minmax(12rem, 3fr)',
      sortable: true,
      identifying: true,
      cell: (r) => {
        const hint = matchedIn(r);
        return (
          <>
            <Highlighted text={r.title} search={search} />
            {hint && <span className="match-hint"> {hint}</span>}
          </>
        );
      },
      text: (r) => {
        const hint = matchedIn(r);
        return hint ? `${r.title} — ${hint}` : r.title;
      },
    },
    {
      id: 'tags',
      header: t('records.column.tags'),
      width: 'minmax(8rem, 2fr)',
      cell: (r) => <TagList tags={r.tags} />,
      text: (r) => r.tags.join(', '),
    },
    { id: 'files', header: t('records.column.files'), width: '6rem', cell: (r) => (r.fileCount === 0 ? '—' : r.fileCount) },
    {
      id: 'linked',
      header: t('records.column.linked'),
      width: '7rem',
      cell: (r) => {
        const n = r.linkedUids.length + r.linkedFromCount;
        return n === 0 ? '—' : <span title={t('records.column.linkedDetail', { to: r.linkedUids.length, from: r.linkedFromCount })}>{n}</span>;
      },
      text: (r) => {
        const n = r.linkedUids.length + r.linkedFromCount;
        return n === 0 ? '—' : t('records.column.linkedText', { count: n, to: r.linkedUids.length, from: r.linkedFromCount });
      },
    },
    { id: 'upload_date', header: t('records.column.uploaded'), width: '10rem', sortable: true, cell: (r) => localDay(r.uploadDate) },
    { id: 'expiry', header: t('records.column.expiry'), width: '8rem', cell: (r) => localDay(r.expiryDate) },
    ...engines.map(
      (engine): TableColumn<RecordRow> => ({
        id: `state:${engine}`,
        header: headings.get(engine)!.header,
        headerTitle: headings.get(engine)!.title,
        width: '9.5rem',
        // A row's state stays in view beside the title, e.g. with the detail panel open.
        defaultPinned: true,
        cell: (r) => {
          const state = r.states[engine] ?? 'not_scheduled';
          return <span className={`state state-${state}`}>{stateLabel(state)}</span>;
        },
        text: (r) => stateLabel(r.states[engine] ?? 'not_scheduled'),
      }),
    ),
    ...metadataColumns,
  ];
}

/** The ids of the Records table's own columns in their default order (what a list export holds). */
export function recordColumnIds(engines: readonly string[], t: ReturnType<typeof useT>): string[] {
  return recordColumns({ engines, metadataKeys: [], shownKeys: new Set(), search: { words: [], lastIsPrefix: false } }, t).map((c) => c.id);
}
