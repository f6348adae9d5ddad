import { create } from 'zustand';
import type { RowOutcome, StagedRow, StagingCreateResult } from '../../common/ipc/staging.js';
import type { TaskError, TaskInfo } from '../../common/tasks.js';
import { shownError } from '../ipc-error.js';
import { onAppEvent } from '../shell/app-events.js';
import { pathsOfDrop, pathsOfFiles, type IntakeOptions } from './file-intake.js';
import { t } from '../i18n/i18n-store.js';
import { useShellStore } from '../shell/shell-store.js';
import { SHEET_COLUMNS, type SheetEdit, type SheetSelection } from './sheet-selection.js';
import { isoCalendarDay, parseCalendarDay } from '../format/local-format.js';
import { askLinkTitles, unknownLinks, type LinkTitles } from './link-titles.js';

export type StagingPhase = 'idle' | 'adding' | 'creating';

/** What `Clear all` took away, for Undo: the rows with their edits and results. */
export type ClearedStaging = Pick<StagingStore, 'rows' | 'skipped' | 'outcomes' | 'task' | 'addingTo'>;

/** "a, b ,c" → ['a', 'b', 'c'] (a semicolon separates too: spreadsheets often use it). */
export function splitList(text: string): string[] {
  return text
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** A cell of the grid as text (what copy, fill down and apply take). */
export function cellText(row: StagedRow, col: number): string {
  const column = SHEET_COLUMNS[col];
  if (column === 'title') return row.title;
  if (column === 'tags') return row.tags.join(', ');
  if (column === 'expiry_date') return row.expiry_date ?? '';
  if (column === 'links') return row.links.join(', ');
  return '';
}

/** A row with one cell set from text. */
function withCell(row: StagedRow, col: number, text: string): StagedRow {
  const column = SHEET_COLUMNS[col];
  if (column === 'title') return { ...row, title: text.trim() };
  if (column === 'tags') return { ...row, tags: splitList(text) };
  if (column === 'expiry_date') {
    // A day pasted as the window's locale writes it (24.12.2030) goes to main as ISO; text that
    // is no day stays as typed, for the row's check to point at.
    const day = parseCalendarDay(text);
    return { ...row, expiry_date: text.trim() === '' ? null : day ? isoCalendarDay(day) : text.trim() };
  }
  if (column === 'links') return { ...row, links: splitList(text) };
  return row;
}

/** The last create's outcome in words: "2 created, 2 failed" (only the parts that happened). */
export function outcomeText(created: number, failed: number, notCreated: number): string {
  const parts = [
    t('staging.outcome.created', { count: created }),
    failed > 0 ? t('staging.outcome.failed', { count: failed }) : null,
    notCreated > 0 ? t('staging.outcome.notCreated', { count: notCreated }) : null,
  ];
  return parts.filter((p) => p !== null).join(t('staging.outcome.separator'));
}

export interface StagingStore {
  rows: StagedRow[];
  skipped: { path: string; reason: string }[];
  phase: StagingPhase;
  /** While files are added: how many of them are uploaded (browser) so far; total 0 until known. */
  adding: { done: number; total: number } | null;
  /** The create task while it runs (its label names the progressbar), then its last state. */
  task: TaskInfo<StagingCreateResult> | null;
  /** Per-row results of the last create, by row key. */
  outcomes: Record<string, RowOutcome>;
  error: TaskError | null;
  allowDuplicates: boolean;
  /** The grid's selected cells and rows, null when nothing is selected. */
  selection: SheetSelection | null;
  /** Goes up when the selection moves by keyboard: the view then focuses the active cell. */
  focusSeq: number;
  /** What `Clear all` took away, until Undo or new work. */
  cleared: ClearedStaging | null;
  /** "Add to record": while set, files added to staging link to this credential. */
  addingTo: { uid: string; title: string } | null;
  /** Titles of the credentials the rows link to, asked once per newly linked uid (link-titles.ts). */
  linkTitles: LinkTitles;
  /** Starts adding to a credential's record: a metadata row linked to it, and files added next link to it too. */
  addToRecord(uid: string, title: string): void;
  stopAddingToRecord(): void;
  addDrop(data: DataTransfer): Promise<void>;
  addFiles(files: File[]): Promise<void>;
  /** Stops adding files: nothing of this drop is staged, and its uploads are removed. */
  cancelAdding(): void;
  /** A metadata-only row (e.g. "Add to record": linked to `links`). */
  addMetadataRow(links?: string[], title?: string): void;
  update(key: string, patch: Partial<Pick<StagedRow, 'title' | 'metadata' | 'tags' | 'expiry_date' | 'links'>>): void;
  remove(key: string): void;
  setAllowDuplicates(allow: boolean): void;
  create(engine: string | null): Promise<void>;
  cancel(): Promise<void>;
  /** Drops created rows from the list (what is left are the rows to fix and retry). */
  clearCreated(): void;
  /** Clears the list at once; `undoClear` brings back exactly what was there. */
  clear(): void;
  undoClear(): void;
  /** Sets the selection; `focus` moves the keyboard focus to its active cell. */
  select(selection: SheetSelection | null, focus?: boolean): void;
  /** Changes cells from text (paste, fill down, apply); rows already created are left alone. Answers how many cells changed. */
  setCells(edits: SheetEdit[]): number;
}

let metadataSeq = 0;

function merge(existing: StagedRow[], added: StagedRow[]): StagedRow[] {
  const keys = new Set(existing.map((r) => r.key));
  return [...existing, ...added.filter((r) => !keys.has(r.key))];
}

/** Shows the first staging row that failed: Records holds staging; the row's first field gets the focus. */
function reviewFailedRow(openRecords: () => void): void {
  openRecords();
  requestAnimationFrame(() => {
    const row = document.querySelector<HTMLElement>('.staging-row-failed');
    if (!row) return;
    row.scrollIntoView({ block: 'center' });
    (row.querySelector<HTMLElement>('input, button') ?? row).focus();
  });
}

/** The staging list: files and metadata rows waiting to become credentials. */
export const useStagingStore = create<StagingStore>()((set, get) => {
  /** The adds in progress (a second drop may come while the first uploads); aborting them is Cancel. */
  const adding = new Set<AbortController>();
  let lastProgress = 0;

  // `paths` is called at once (a drop's DataTransfer is readable only during its event).
  const addPaths = async (paths: (options: IntakeOptions) => Promise<string[]>) => {
    const controller = new AbortController();
    adding.add(controller);
    const { signal } = controller;
    const onProgress = (done: number, total: number) => {
      // The bar moves a few times a second at most: each set() re-renders the view.
      const now = performance.now();
      if (done < total && now - lastProgress < 100) return;
      lastProgress = now;
      if (!signal.aborted) set({ adding: { done, total } });
    };
    set({ phase: 'adding', adding: { done: 0, total: 0 }, error: null, cleared: null });
    try {
      const list = await paths({ signal, onProgress });
      if (list.length === 0 || signal.aborted) return;
      const intake = await window.proofdesk.stagingAddPaths(list);
      if (signal.aborted) return;
      const target = get().addingTo;
      const rows = target ? intake.rows.map((r) => (r.links.includes(target.uid) ? r : { ...r, links: [...r.links, target.uid] })) : intake.rows;
      // All rows of the drop in one change: the grid renders once, not once a row.
      set((s) => ({ rows: merge(s.rows, rows), skipped: [...s.skipped, ...intake.skipped].slice(-200) }));
    } catch (error) {
      if (signal.aborted) return;
      set({ error: shownError(error) });
    } finally {
      if (adding.delete(controller) && adding.size === 0) set({ phase: get().task?.state === 'running' ? 'creating' : 'idle', adding: null });
    }
  };

  /**
   * The rows' real results in a toast, the same words as staging's summary: a task that ran to
   * its end may still hold failed rows ("3 created, 2 failed"), and its "done" would be untrue.
   */
  const reportOutcome = () => {
    const all = Object.values(get().outcomes);
    const created = all.filter((o) => o.status === 'created').length;
    const failed = all.filter((o) => o.status === 'failed').length;
    const notCreated = all.filter((o) => o.status === 'not_created').length;
    const text = t('staging.outcome.toast', { outcome: outcomeText(created, failed, notCreated) });
    const shell = useShellStore.getState();
    const review = failed > 0 ? { action: { label: t('shell.toast.review'), run: () => reviewFailedRow(() => shell.go('records')) } } : {};
    shell.toast(failed > 0 ? 'error' : notCreated > 0 ? 'info' : 'success', text, review);
  };

  const finish = async (task: TaskInfo) => {
    let result = task.result as StagingCreateResult | undefined;
    // A cancelled task carries no result: ask which rows were created before it stopped.
    if (!result) result = (await window.proofdesk.stagingOutcome(task.id).catch(() => null)) ?? undefined;
    const outcomes = Object.fromEntries((result?.outcomes ?? []).map((o) => [o.key, o]));
    set((s) => ({ task: task as TaskInfo<StagingCreateResult>, phase: 'idle', outcomes: { ...s.outcomes, ...outcomes }, error: task.error ?? null }));
    // The shell's toast says why a task failed as a whole; otherwise staging says how its rows came out.
    if (task.state !== 'failed') reportOutcome();
  };

  onAppEvent('task', ({ task }) => {
    const current = get().task;
    if (!current || current.id !== task.id) return;
    if (task.state === 'running') set({ task: task as TaskInfo<StagingCreateResult> });
    else void finish(task);
  });

  return {
    rows: [],
    skipped: [],
    phase: 'idle',
    adding: null,
    task: null,
    outcomes: {},
    error: null,
    allowDuplicates: false,
    addingTo: null,
    linkTitles: {},
    selection: null,
    focusSeq: 0,
    cleared: null,
    addToRecord(uid, title) {
      // The record's title is known here: nothing to ask for its link.
      set((s) => ({ addingTo: { uid, title }, linkTitles: { ...s.linkTitles, [uid.toLowerCase()]: title } }));
      get().addMetadataRow([uid], t('staging.additionTitle', { title }));
    },
    stopAddingToRecord: () => set({ addingTo: null }),
    addDrop: (data) => addPaths((options) => pathsOfDrop(data, options)),
    addFiles: (files) => addPaths((options) => pathsOfFiles(files, options)),
    cancelAdding() {
      if (adding.size === 0) return;
      for (const controller of adding) controller.abort();
      adding.clear();
      set({ phase: get().task?.state === 'running' ? 'creating' : 'idle', adding: null });
    },
    addMetadataRow(links = [], title = '') {
      const key = `metadata-row-${Date.now()}-${++metadataSeq}`;
      const row: StagedRow = { key, file: null, title, metadata: {}, tags: [], expiry_date: null, links, duplicate_of: [], problem: null };
      set((s) => ({ rows: [...s.rows, row] }));
    },
    update(key, patch) {
      set((s) => ({ rows: s.rows.map((r) => (r.key === key ? { ...r, ...patch } : r)) }));
    },
    remove(key) {
      // The selection is by position: it would point at other rows now.
      set((s) => ({ rows: s.rows.filter((r) => r.key !== key), selection: null }));
    },
    select: (selection, focus = false) => set((s) => ({ selection, focusSeq: focus ? s.focusSeq + 1 : s.focusSeq })),
    setCells(edits) {
      const { rows, outcomes, phase } = get();
      if (phase === 'creating') return 0;
      const next = [...rows];
      let changed = 0;
      for (const { row, col, value } of edits) {
        const current = next[row];
        if (!current || outcomes[current.key]?.status === 'created') continue;
        next[row] = withCell(current, col, value);
        changed++;
      }
      // One change for the whole block: the grid renders once.
      if (changed > 0) set({ rows: next });
      return changed;
    },
    setAllowDuplicates: (allowDuplicates) => set({ allowDuplicates }),
    async create(engine) {
      const { rows, outcomes, allowDuplicates } = get();
      // Rows already created in an earlier run are not sent again. A row whose sidecar or
      // manifest row is broken is not created as if it had none (the watch folder fails it too).
      const broken = rows.filter((r) => r.problem && outcomes[r.key]?.status !== 'created');
      const todo = rows.filter((r) => outcomes[r.key]?.status !== 'created' && !r.problem);
      if (broken.length > 0) {
        const failed = Object.fromEntries(broken.map((r) => [r.key, { key: r.key, status: 'failed' as const, error: r.problem! }]));
        set((s) => ({ outcomes: { ...s.outcomes, ...failed } }));
      }
      if (todo.length === 0) {
        if (broken.length > 0) reportOutcome();
        return;
      }
      set({ phase: 'creating', error: null });
      // A link may name another staged row by its file's path or its title.
      const named = new Map<string, string>();
      for (const r of rows) {
        if (r.file) named.set(r.file.rel_path, r.key);
        if (r.title.trim()) named.set(r.title.trim(), r.key);
      }
      try {
        const task = await window.proofdesk.stagingCreate({
          rows: todo.map((r) => ({
            key: r.key,
            file: r.file ? { path: r.file.path, file_hash: r.file.file_hash } : null,
            title: r.title,
            metadata: r.metadata,
            tags: r.tags,
            expiry_date: r.expiry_date,
            // A link to a row created earlier goes to its new uid.
            links: r.links.map((link) => {
              const key = named.get(link) ?? link;
              const done = outcomes[key];
              return done?.status === 'created' ? done.uid : key;
            }),
          })),
          engine,
          allow_duplicates: allowDuplicates,
        });
        set({ task });
        // Its end may have been pushed before this answer arrived: look once.
        const latest = task.state === 'running' ? (await window.proofdesk.tasksList()).find((t) => t.id === task.id) : task;
        if (latest && latest.state !== 'running' && get().phase === 'creating') await finish(latest);
      } catch (error) {
        set({ phase: 'idle', error: shownError(error) });
      }
    },
    async cancel() {
      const task = get().task;
      if (task?.state === 'running') await window.proofdesk.tasksCancel(task.id).catch(() => undefined);
    },
    clearCreated() {
      set((s) => ({ rows: s.rows.filter((r) => s.outcomes[r.key]?.status !== 'created'), selection: null }));
    },
    clear() {
      const { rows, skipped, outcomes, task, addingTo } = get();
      const cleared = rows.length > 0 ? { rows, skipped, outcomes, task, addingTo } : null;
      set({ rows: [], skipped: [], outcomes: {}, task: null, error: null, addingTo: null, selection: null, cleared });
    },
    undoClear() {
      const cleared = get().cleared;
      if (cleared) set({ ...cleared, cleared: null });
    },
  };
});

/** Linked uids asked of main and not yet answered: a row renders many times before the answer comes. */
const askingLinks = new Set<string>();
/** Goes up when the active Partner changes: answers asked before are another Partner's and dropped. */
let linkGeneration = 0;

/** Asks main for the titles of the uids the rows newly link to, once each. */
function askNewLinks(rows: readonly StagedRow[]): void {
  const uids = unknownLinks(rows, useStagingStore.getState().linkTitles, askingLinks);
  if (uids.length === 0) return;
  const generation = linkGeneration;
  for (const uid of uids) askingLinks.add(uid);
  askLinkTitles(uids, (chunk) => window.proofdesk.stagingLinkTitles(chunk))
    .then((titles) => {
      if (generation === linkGeneration) useStagingStore.setState((s) => ({ linkTitles: { ...s.linkTitles, ...titles } }));
    })
    // Unanswered (no Partner yet, the service unreachable): the cell shows the uids alone; asked again at the next change.
    .catch(() => undefined)
    .finally(() => {
      if (generation === linkGeneration) for (const uid of uids) askingLinks.delete(uid);
    });
}

// The titles of newly linked credentials are asked when the rows' links change, not as rows render.
useStagingStore.subscribe((state, previous) => {
  if (state.rows !== previous.rows) askNewLinks(state.rows);
});

// Another Partner (or service) has other credentials: the titles are asked afresh.
useShellStore.subscribe((state, previous) => {
  if (state.status?.partner?.id === previous.status?.partner?.id) return;
  linkGeneration++;
  askingLinks.clear();
  useStagingStore.setState({ linkTitles: {} });
  askNewLinks(useStagingStore.getState().rows);
});
