import { memo, useState } from 'react';
import { checkRowFields, type FieldProblem, type RowOutcome, type StagedRow } from '../../common/ipc/staging.js';
import { openDetail } from '../detail/detail-store.js';
import { MetadataGrid } from './metadata-grid.js';
import { ErrorCell } from '../shell/error-line.js';
import { splitList, useStagingStore } from './staging-store.js';
import { linkedTitlesText } from './link-titles.js';
import { useT } from '../i18n/use-t.js';
import { t } from '../i18n/i18n-store.js';
import { fileSize } from '../format/file-size.js';
import { DateField } from '../format/date-field.js';
import { isoCalendarDay, parseCalendarDay } from '../format/local-format.js';

/** The spec's error id for a link to nothing: an id, shown as it is in every language. */
const MISSING_CREDENTIAL = 'missing_credential';

/**
 * A list typed as text, kept as the admin types it ("a, " stays) while it means the same list,
 * and read from the row when the list changes elsewhere (a paste, fill down, Undo).
 * Worked out as the row renders, not in an effect after it: a pasted list shows in the same
 * frame as the grid's status line that announces the paste, never a frame later.
 */
function useListText(list: string[]): [string, (text: string) => void] {
  const [typed, setTyped] = useState(() => list.join(', '));
  const typedList = splitList(typed);
  const same = typedList.length === list.length && typedList.every((item, i) => item === list[i]);
  return [same ? typed : list.join(', '), setTyped];
}

function baseName(relPath: string): string {
  return relPath.slice(relPath.lastIndexOf('/') + 1);
}

/** The folder part of a relative path (`msc/2027` of `msc/2027/bob.pdf`), or '' for a loose file. */
function folderOf(relPath: string): string {
  return relPath.includes('/') ? relPath.slice(0, relPath.lastIndexOf('/')) : '';
}

/** The grid position of a cell's field, read by the grid's keyboard, mouse and paste handlers. */
function sheetCell(index: number, col: number) {
  return { 'data-sheet-row': index, 'data-sheet-col': col };
}

/** A row's name in accessible labels: its file's path, or its title for a metadata row. */
export function rowName(row: StagedRow): string {
  return row.file?.rel_path ?? (row.title || t('staging.row.newMetadata'));
}

/**
 * A grid cell holding a list typed as text (tags, links), comma-separated. `names` is a line
 * under it saying what the list names (the linked credentials' titles), cut to fit, whole on hover.
 */
function ListCell(props: {
  col: number;
  index: number;
  selected: boolean;
  label: string;
  placeholder: string;
  list: string[];
  disabled: boolean;
  invalid: boolean;
  describedBy?: string | undefined;
  names?: { id: string; text: string } | undefined;
  onChange: (list: string[]) => void;
}) {
  const { col, index, selected, label, placeholder, list, disabled, invalid, describedBy, names, onChange } = props;
  const [text, setText] = useListText(list);
  const described = [describedBy, names?.id].filter((id) => id !== undefined).join(' ') || undefined;
  return (
    <div role="gridcell" aria-selected={selected}>
      <input
        aria-label={label}
        placeholder={placeholder}
        title={text || placeholder}
        value={text}
        disabled={disabled}
        aria-invalid={invalid}
        aria-describedby={described}
        onChange={(e) => {
          setText(e.target.value);
          onChange(splitList(e.target.value));
        }}
        {...sheetCell(index, col)}
      />
      {names && (
        <span id={names.id} className="muted staging-list-names" title={names.text}>
          {names.text}
        </span>
      )}
    </div>
  );
}

/** `headline` words a failure where the row knows more than the error's id (a broken metadata file). */
function Outcome({ outcome, headline }: { outcome: RowOutcome; headline?: string }) {
  const t = useT();
  if (outcome.status === 'created') {
    return (
      <span className="row-ok">
        {t('staging.row.created')}{' '}
        <button type="button" className="link-button" onClick={() => openDetail(outcome.uid)}>
          {t('staging.row.open')}
        </button>
      </span>
    );
  }
  if (outcome.status === 'failed') {
    return (
      <ErrorCell error={outcome.error} headline={headline} alert />
    );
  }
  return <span className="row-warn">{t('staging.row.notCreated', { reason: outcome.reason })}</span>;
}

/**
 * One staged row: title, tags, expiry and links inline, metadata in a grid below, its state at the end.
 * Memoized: the view re-renders on every progress event of a create (ten a second), and a row
 * renders again only when it, its outcome or the names it links by change.
 */
export interface StagingRowProps {
  row: StagedRow;
  names: ReadonlySet<string>;
  index: number;
  /** The selected columns of this row (lowest, highest), or null when the row is not selected. */
  selectedLo: number | null;
  selectedHi: number | null;
}

export const StagingRow = memo(function StagingRow({ row, names, index, selectedLo, selectedHi }: StagingRowProps) {
  const update = useStagingStore((s) => s.update);
  const remove = useStagingStore((s) => s.remove);
  const outcome = useStagingStore((s) => s.outcomes[row.key]);
  // A string: the row renders again only when its links' titles read differently.
  const linkedTitles = useStagingStore((s) => linkedTitlesText(row.links, s.linkTitles));
  const busy = useStagingStore((s) => s.phase === 'creating');
  const t = useT();
  const [showMetadata, setShowMetadata] = useState(false);
  const name = rowName(row);
  // A staged row's own problem is always its sidecar's or manifest's: the error id alone would word it as a refused request.
  const metadataFileProblem = row.problem ? t('staging.row.metadataFileProblem') : undefined;
  // The spec's rules, checked as the admin types (the same checks main makes before creating).
  const problems: FieldProblem[] = outcome?.status === 'created' ? [] : checkRowFields(row, row.file !== null, Date.now());
  const unknownLinks = row.links.filter((l) => !names.has(l) && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(l));
  const problemOf = (field: FieldProblem['field']) => problems.find((p) => p.field === field);
  const described = (field: FieldProblem['field']) => (problemOf(field) ? `${row.key}-${field}-problem` : undefined);
  const locked = busy || outcome?.status === 'created';
  const metadataCount = Object.keys(row.metadata).length;
  const selected = selectedLo !== null && selectedHi !== null;
  const cellSelected = (col: number) => selected && col >= selectedLo && col <= selectedHi;
  const size = row.file ? fileSize(row.file.size) : null;
  const sizeText = size ? t(`staging.row.size.${size.unit}`, { amount: size.amount }) : '';
  // Name and size are cut to fit: the whole path and the size on hover.
  const fileTitle = row.file ? `${row.file.rel_path} · ${sizeText}` : '';

  return (
    <div role="row" className={`staging-row${outcome ? ` staging-row-${outcome.status}` : ''}${selected ? ' staging-row-selected' : ''}`} aria-rowindex={index + 2} aria-selected={selected}>
      <div role="rowheader" className="staging-file">
        <input type="checkbox" className="staging-pick" aria-label={t('staging.row.select', { name })} checked={selected && selectedLo === 0 && selectedHi === 3} readOnly {...sheetCell(index, -1)} />
        <span className="staging-file-text">
          {row.file ? (
            <>
              {/* The file's own name first: a long folder path would push it out of sight. */}
              <span className="staging-name" title={fileTitle}>
                {baseName(row.file.rel_path)}
              </span>
              <span className="muted staging-size" title={fileTitle}>
                {sizeText}
                {folderOf(row.file.rel_path) && ` · ${folderOf(row.file.rel_path)}`}
              </span>
            </>
          ) : (
            <span className="muted staging-name">{t('staging.row.metadataOnly')}</span>
          )}
        </span>
      </div>
      <div role="gridcell" aria-selected={cellSelected(0)}>
        <input aria-label={t('staging.row.title', { name })} title={row.title || undefined} value={row.title} disabled={locked} aria-invalid={!!problemOf('title')} aria-describedby={described('title')} onChange={(e) => update(row.key, { title: e.target.value })} {...sheetCell(index, 0)} />
      </div>
      <ListCell col={1} index={index} selected={cellSelected(1)} label={t('staging.row.tags', { name })} placeholder={t('staging.row.tagsPlaceholder')} list={row.tags} disabled={locked} invalid={!!problemOf('tags')} describedBy={described('tags')} onChange={(tags) => update(row.key, { tags })} />
      <div role="gridcell" aria-selected={cellSelected(2)}>
        <DateField
          label={t('staging.row.expiry', { name })}
          value={row.expiry_date ? parseCalendarDay(row.expiry_date.slice(0, 10)) : null}
          disabled={locked}
          invalid={!!problemOf('expiry_date')}
          describedBy={described('expiry_date')}
          fieldProps={sheetCell(index, 2)}
          onChange={(day) => update(row.key, { expiry_date: day ? isoCalendarDay(day) : null })}
        />
      </div>
      <ListCell col={3} index={index} selected={cellSelected(3)} label={t('staging.row.links', { name })} placeholder={t('staging.row.linksPlaceholder')} list={row.links} disabled={locked} invalid={!!problemOf('links') || unknownLinks.length > 0} names={linkedTitles ? { id: `${row.key}-links-titles`, text: linkedTitles } : undefined} onChange={(links) => update(row.key, { links })} />
      <div role="gridcell">
        <button type="button" className="staging-metadata-button" title={t('staging.row.metadataButton', { count: metadataCount })} aria-expanded={showMetadata} aria-label={t('staging.row.metadata', { name, count: metadataCount })} onClick={() => setShowMetadata(!showMetadata)}>
          {t('staging.row.metadataButton', { count: metadataCount })}
        </button>
      </div>
      <div role="gridcell" className="staging-state">
        {outcome ? (
          <Outcome outcome={outcome} headline={metadataFileProblem} />
        ) : row.problem ? (
          <ErrorCell error={row.problem} headline={metadataFileProblem} />
        ) : problems.length > 0 ? (
          <ul className="row-problems">
            {problems.map((p) => (
              <li key={p.field}>
                <ErrorCell error={p} headlineId={`${row.key}-${p.field}-problem`} />
              </li>
            ))}
          </ul>
        ) : unknownLinks.length > 0 ? (
          <ErrorCell error={{ id: MISSING_CREDENTIAL, message: unknownLinks.join(', ') }} headline={t('staging.row.unknownLink', { link: unknownLinks[0] })} />
        ) : row.duplicate_of.length > 0 ? (
          <span className="row-warn">
            {t('staging.row.alreadyUploaded')}{' '}
            <button type="button" className="link-button" onClick={() => openDetail(row.duplicate_of[0]!.uid)}>
              {row.duplicate_of[0]!.title}
            </button>
          </span>
        ) : (
          <span className="muted">{t('staging.row.ready')}</span>
        )}
      </div>
      <div role="gridcell">
        <button type="button" className="link-button" aria-label={t('staging.row.remove', { name })} disabled={busy} onClick={() => remove(row.key)}>
          ×
        </button>
      </div>
      {showMetadata && (
        <div role="gridcell" className="staging-metadata">
          <MetadataGrid owner={name} metadata={row.metadata} onChange={(metadata) => update(row.key, { metadata })} />
        </div>
      )}
    </div>
  );
});
