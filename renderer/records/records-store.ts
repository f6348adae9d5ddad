import { create } from 'zustand';
import type { ErrorId } from '../../common/errors.js';
import { DEFAULT_RECORD_SORT, type RecordFilter, type RecordRow, type RecordSort, type Selection, type TagSuggestion } from '../../common/records.js';
import { shownError } from '../ipc-error.js';
import { EMPTY_SELECTION, rangesForMain, selectAll, selectedCount, type TableSelection } from '../table/selection.js';
import { t } from '../i18n/i18n-store.js';

/** Rows per fetch from main. */
export const PAGE_SIZE = 250;
/** Pages kept in memory; the rest are fetched again when scrolled back to. */
const MAX_PAGES = 24;

export interface RecordsStore {
  filter: RecordFilter;
  sort: RecordSort;
  total: number;
  engines: string[];
  /** Loaded pages by page number. */
  pages: ReadonlyMap<number, RecordRow[]>;
  /** Bumped on every new filter, sort or refresh: answers to older requests are dropped. */
  generation: number;
  status: 'loading' | 'ready' | 'error';
  error: { id: ErrorId; message: string } | null;
  selection: TableSelection;
  tagSuggestions: TagSuggestion[];
  setFilter(patch: Partial<RecordFilter>): void;
  setSort(sort: RecordSort): void;
  /** Fetches the pages that hold rows start..end, if not loaded yet. */
  ensureRange(start: number, end: number): void;
  /** Drops loaded rows and fetches what is on screen again (after changes in main). */
  refresh(): void;
  setSelection(selection: TableSelection): void;
  /** Text typed in the search box: applied after a pause of SEARCH_DELAY_MS, or at once by applyPendingSearch. */
  typeSearch(text: string): void;
  /** Applies the search still being typed now, if any. */
  applyPendingSearch(): void;
  /** Selects every credential matching the filter, the search still being typed included. */
  selectAllMatching(): void;
  loadTagSuggestions(prefix: string): Promise<void>;
  /**
   * The current selection as main takes it: the filter for "all", otherwise ranges of positions
   * in this filter and sort with the uids at their ends (never the uids between).
   */
  selectionForMain(): Promise<Selection>;
}

const inFlight = new Set<string>();
let visible: [number, number] = [0, 0];
/** The pause after the last key before a search runs. */
export const SEARCH_DELAY_MS = 200;
let searchTimer: ReturnType<typeof setTimeout> | undefined;
let pendingSearch: string | undefined;

function rowAtIndex(pages: ReadonlyMap<number, RecordRow[]>, index: number): RecordRow | undefined {
  return pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
}

/** The Records view's state: filter, sort, the loaded windows of rows, the selection. */
export const useRecordsStore = create<RecordsStore>()((set, get) => {
  const fetchPage = async (page: number) => {
    const { generation, filter, sort } = get();
    const key = `${generation}:${page}`;
    if (inFlight.has(key)) return;
    inFlight.add(key);
    try {
      const answer = await window.proofdesk.recordsWindow({ filter, sort, offset: page * PAGE_SIZE, limit: PAGE_SIZE });
      if (get().generation !== generation) return;
      const pages = new Map(get().pages);
      pages.set(page, answer.rows);
      // Keep the pages nearest to what is on screen; memory stays flat however far one scrolls.
      if (pages.size > MAX_PAGES) {
        const centre = Math.floor(visible[0] / PAGE_SIZE);
        const far = [...pages.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
        for (const p of far.slice(0, pages.size - MAX_PAGES)) pages.delete(p);
      }
      set({ pages, total: answer.total, engines: answer.engines, status: 'ready', error: null });
    } catch (error) {
      if (get().generation !== generation) return;
      set({ status: 'error', error: shownError(error) });
    } finally {
      inFlight.delete(key);
    }
  };

  const restart = (patch: Partial<RecordsStore>, keepSelection = false) => {
    set((s) => ({ ...patch, generation: s.generation + 1, pages: new Map(), status: 'loading', ...(keepSelection ? {} : { selection: EMPTY_SELECTION }) }));
    const [start, end] = visible;
    get().ensureRange(start, Math.max(end, PAGE_SIZE - 1));
  };

  return {
    filter: {},
    sort: { ...DEFAULT_RECORD_SORT },
    total: 0,
    engines: [],
    pages: new Map(),
    generation: 0,
    status: 'loading',
    error: null,
    selection: EMPTY_SELECTION,
    tagSuggestions: [],
    setFilter: (patch) => {
      // Leaving the tag field applies it again: the same filter must not reload the table and
      // drop the rows the admin has just selected.
      const filter = cleanFilter({ ...get().filter, ...patch });
      if (JSON.stringify(filter) !== JSON.stringify(get().filter)) restart({ filter });
    },
    setSort: (sort) => restart({ sort }),
    ensureRange(start, end) {
      const down = start >= visible[0];
      visible = [start, end];
      const { pages, total } = get();
      const first = Math.floor(start / PAGE_SIZE);
      const last = Math.floor(end / PAGE_SIZE);
      // The next page in the direction of the scroll too: its rows are there before they are
      // on screen, so a frame fills text into rows rather than waiting on a round trip.
      const ahead = down ? last + 1 : first - 1;
      for (let page = first; page <= last; page++) if (!pages.has(page)) void fetchPage(page);
      if (ahead >= 0 && (total === 0 || ahead * PAGE_SIZE < total) && !pages.has(ahead)) void fetchPage(ahead);
    },
    refresh: () => restart({}, true),
    setSelection: (selection) => set({ selection }),
    typeSearch(text) {
      pendingSearch = text;
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => get().applyPendingSearch(), SEARCH_DELAY_MS);
    },
    applyPendingSearch() {
      clearTimeout(searchTimer);
      if (pendingSearch === undefined) return;
      const search = pendingSearch;
      pendingSearch = undefined;
      get().setFilter({ search });
    },
    selectAllMatching() {
      // A search typed but not yet run would otherwise run after the click and clear the selection.
      get().applyPendingSearch();
      set((s) => ({ selection: selectAll(s.selection) }));
    },
    async loadTagSuggestions(prefix) {
      try {
        set({ tagSuggestions: await window.proofdesk.recordsTags(prefix, 20) });
      } catch {
        set({ tagSuggestions: [] });
      }
    },
    async selectionForMain() {
      const { selection, filter, sort, generation, total } = get();
      const { all, ranges, ends } = rangesForMain(selection, total);
      if (all && ranges.length === 0) return { kind: 'filter', filter };
      // The uids at the ranges' ends: on screen already, or one small page each.
      const pages = new Map(get().pages);
      for (const page of new Set(ends.map((i) => Math.floor(i / PAGE_SIZE)))) {
        if (!pages.has(page)) pages.set(page, (await window.proofdesk.recordsWindow({ filter, sort, offset: page * PAGE_SIZE, limit: PAGE_SIZE })).rows);
      }
      if (get().generation !== generation) throw new Error(t('records.listChanged'));
      const uidAt = (i: number) => {
        const uid = rowAtIndex(pages, i)?.uid;
        if (!uid) throw new Error(t('records.listChanged'));
        return uid;
      };
      return {
        kind: 'ranges',
        filter,
        sort,
        ranges: ranges.map((r) => ({ from: r.from, to: r.to, fromUid: uidAt(r.from), toUid: uidAt(r.to) })),
        ...(all ? { all: true } : {}),
      };
    },
  };
});

/** Drops empty parts, so an empty search box or tag list is no filter at all. */
function cleanFilter(filter: RecordFilter): RecordFilter {
  const out: RecordFilter = {};
  if (filter.andTags?.length) out.andTags = filter.andTags;
  if (filter.orTags?.length) out.orTags = filter.orTags;
  if (filter.uploadedFrom) out.uploadedFrom = filter.uploadedFrom;
  if (filter.uploadedTo) out.uploadedTo = filter.uploadedTo;
  if (filter.state && filter.state.states.length > 0) out.state = filter.state;
  if (filter.search?.trim()) out.search = filter.search;
  return out;
}

/** The row at an index, if loaded. */
export function recordAt(index: number): RecordRow | undefined {
  return rowAtIndex(useRecordsStore.getState().pages, index);
}

/** How many rows are selected. */
export function useSelectedCount(): number {
  return useRecordsStore((s) => selectedCount(s.selection, s.total));
}
