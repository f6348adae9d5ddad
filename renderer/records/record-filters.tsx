import { useEffect, useState } from 'react';
import { RECORD_STATES, type RecordState } from '../../common/records.js';
import { parseTagInput } from './tag-dialog.js';
import { useRecordsStore } from './records-store.js';
import { REMOTE_LIMITS } from '../../common/ipc/settings.js';
import { useShellStore } from '../shell/shell-store.js';
import { commandHint } from '../commands/command-hint.js';

/** The filters above the records table: search, tags (and/or, with autocomplete and counts), upload dates, state. */
export function RecordFilters({ searchRef }: { searchRef: React.RefObject<HTMLInputElement | null> }) {
  const filter = useRecordsStore((s) => s.filter);
  const engines = useRecordsStore((s) => s.engines);
  const suggestions = useRecordsStore((s) => s.tagSuggestions);
  const { setFilter, loadTagSuggestions, typeSearch, applyPendingSearch } = useRecordsStore.getState();
  const [search, setSearch] = useState(filter.search ?? '');
  const [tagText, setTagText] = useState((filter.andTags ?? filter.orTags ?? []).join(', '));
  const [tagMode, setTagMode] = useState<'and' | 'or'>(filter.orTags ? 'or' : 'and');

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
    const tags = parseTagInput(text).filter((t) => t.length >= 3);
    setFilter(mode === 'and' ? { andTags: tags, orTags: [] } : { orTags: tags, andTags: [] });
  };

  const stateValue = filter.state ? `${filter.state.engine}|${filter.state.states[0]}` : '';

  return (
    <div className="toolbar filters" role="search" aria-label="Filter records">
      <input
        ref={searchRef}
        type="search"
        aria-label="Search records"
        placeholder="Search title and metadata"
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
      <select aria-label="Tag match" value={tagMode} onChange={(e) => {
        const mode = e.target.value as 'and' | 'or';
        setTagMode(mode);
        applyTags(tagText, mode);
      }}>
        <option value="and">All of the tags</option>
        <option value="or">Any of the tags</option>
      </select>
      <input
        aria-label="Filter by tags"
        placeholder="tags, comma-separated"
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
            {`${s.tag} (${s.count.toLocaleString('en-US')})`}
          </option>
        ))}
      </datalist>
      <label>
        From <input type="date" aria-label="Uploaded from" value={filter.uploadedFrom ?? ''} onChange={(e) => setFilter({ uploadedFrom: e.target.value })} />
      </label>
      <label>
        to <input type="date" aria-label="Uploaded to" value={filter.uploadedTo ?? ''} onChange={(e) => setFilter({ uploadedTo: e.target.value })} />
      </label>
      <select
        aria-label="State"
        disabled={remote}
        aria-describedby={remote ? 'records-remote-note' : undefined}
        value={stateValue}
        onChange={(e) => {
          const [engine, state] = e.target.value.split('|');
          setFilter({ state: engine && state ? { engine, states: [state as RecordState] } : undefined });
        }}
      >
        <option value="">Any state</option>
        {engines.flatMap((engine) =>
          RECORD_STATES.map((state) => (
            <option key={`${engine}|${state}`} value={`${engine}|${state}`}>
              {`${engine}: ${state.replace('_', ' ')}`}
            </option>
          )),
        )}
      </select>
      {remote && (
        <p className="muted" id="records-remote-note" data-testid="records-remote-note">
          {REMOTE_LIMITS.search} {REMOTE_LIMITS.state} {REMOTE_LIMITS.tags}
        </p>
      )}
    </div>
  );
}
