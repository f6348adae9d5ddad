import { useEffect, useState } from 'react';
import { RECORD_STATES, type RecordState } from '../../common/records.js';
import { parseTagInput } from './tag-dialog.js';
import { useRecordsStore } from './records-store.js';
import { useShellStore } from '../shell/shell-store.js';
import { commandHint } from '../commands/command-hint.js';
import { useT } from '../i18n/use-t.js';
import { DateField } from '../format/date-field.js';
import { dayOfInstant, endOfLocalDay, startOfLocalDay } from '../format/local-format.js';
import { useEngineName } from '../shell/engine-name.js';

/** The filters above the records table: search, tags (and/or, with autocomplete and counts), upload dates, state. */
export function RecordFilters({ searchRef }: { searchRef: React.RefObject<HTMLInputElement | null> }) {
  const filter = useRecordsStore((s) => s.filter);
  const engines = useRecordsStore((s) => s.engines);
  const suggestions = useRecordsStore((s) => s.tagSuggestions);
  const { setFilter, loadTagSuggestions, typeSearch, applyPendingSearch } = useRecordsStore.getState();
  const [search, setSearch] = useState(filter.search ?? '');
  const [tagText, setTagText] = useState((filter.andTags ?? filter.orTags ?? []).join(', '));
  const [tagMode, setTagMode] = useState<'and' | 'or'>(filter.orTags ? 'or' : 'and');
  const t = useT();
  const engineName = useEngineName();

  // Leaving the view runs a search still being typed, so coming back shows what the box says.
  useEffect(() => applyPendingSearch, [applyPendingSearch]);
  // A remote service has no word search and no per-engine state: off, with the reason.
  const remote = useShellStore((s) => s.status?.mode === 'remote');
  useEffect(() => {
    if (!remote) return;
    setSearch('');
    if (useRecordsStore.getState().filter.search || useRecordsStore.getState().filter.state) setFilter({ search: '', state: undefined });
  }, [remote, setFilter]);

  const applyTags = (text: string, mode: 'and' | 'or') => {
    const tags = parseTagInput(text).filter((tag) => tag.length >= 3);
    setFilter(mode === 'and' ? { andTags: tags, orTags: [] } : { orTags: tags, andTags: [] });
  };

  const stateValue = filter.state ? `${filter.state.engine}|${filter.state.states[0]}` : '';

  return (
    <div className="toolbar filters" role="search" aria-label={t('records.filter.label')}>
      <input
        ref={searchRef}
        type="search"
        aria-label={t('records.filter.search')}
        placeholder={t('records.filter.searchPlaceholder')}
        {...commandHint('edit.find')}
        disabled={remote}
        aria-describedby={remote ? 'records-remote-note' : undefined}
        value={search}
        onChange={(event) => {
          const value = event.target.value;
          setSearch(value);
          typeSearch(value);
        }}
      />
      <select aria-label={t('records.filter.tagMatch')} value={tagMode} onChange={(e) => {
        const mode = e.target.value as 'and' | 'or';
        setTagMode(mode);
        applyTags(tagText, mode);
      }}>
        <option value="and">{t('records.filter.allTags')}</option>
        <option value="or">{t('records.filter.anyTag')}</option>
      </select>
      <input
        aria-label={t('records.filter.tags')}
        placeholder={t('records.filter.tagsPlaceholder')}
        list="record-filter-tags"
        value={tagText}
        onFocus={() => void loadTagSuggestions(parseTagInput(tagText).pop() ?? '')}
        onChange={(event) => {
          setTagText(event.target.value);
          void loadTagSuggestions(event.target.value.split(',').pop()?.trim() ?? '');
        }}
        onBlur={() => applyTags(tagText, tagMode)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') applyTags(tagText, tagMode);
        }}
      />
      <datalist id="record-filter-tags">
        {suggestions.map((s) => (
          <option key={s.tag} value={[...parseTagInput(tagText).slice(0, -1), s.tag].join(', ')}>
            {t('records.filter.tagSuggestion', { tag: s.tag, count: s.count })}
          </option>
        ))}
      </datalist>
      {/* Local days: the range runs from the first day's local midnight to the end of the last
          day. One unit, so a narrow toolbar wraps the range whole. */}
      <span className="filter-label">
        {t('records.filter.from')}{' '}
        <DateField
          label={t('records.filter.uploadedFrom')}
          value={filter.uploadedFrom ? dayOfInstant(filter.uploadedFrom) : null}
          onChange={(day) => setFilter({ uploadedFrom: day ? startOfLocalDay(day) : '' })}
        />{' '}
        {t('records.filter.to')}{' '}
        <DateField
          label={t('records.filter.uploadedTo')}
          value={filter.uploadedTo ? dayOfInstant(filter.uploadedTo) : null}
          near={filter.uploadedFrom ? dayOfInstant(filter.uploadedFrom) : null}
          onChange={(day) => setFilter({ uploadedTo: day ? endOfLocalDay(day) : '' })}
        />
      </span>
      <select
        aria-label={t('records.filter.state')}
        disabled={remote}
        aria-describedby={remote ? 'records-remote-note' : undefined}
        value={stateValue}
        onChange={(e) => {
          const [engine, state] = e.target.value.split('|');
          setFilter({ state: engine && state ? { engine, states: [state as RecordState] } : undefined });
        }}
      >
        <option value="">{t('records.filter.anyState')}</option>
        {engines.flatMap((engine) =>
          RECORD_STATES.map((state) => (
            <option key={`${engine}|${state}`} value={`${engine}|${state}`}>
              {t('records.filter.engineState', { engine: engineName(engine), state })}
            </option>
          )),
        )}
      </select>
      {remote && (
        <p className="muted" id="records-remote-note" data-testid="records-remote-note">
          {t('records.remote.search')} {t('records.remote.state')} {t('records.remote.tags')}
        </p>
      )}
    </div>
  );
}
