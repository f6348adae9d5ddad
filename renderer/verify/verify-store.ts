import { create } from 'zustand';
import type { ShownError } from '../shell/error-line.js';
import type { OriginalMatch, VerifyEndpoint, VerifyRow, VerifyRowDetail, VerifyRunSummary } from '../../common/ipc/verify.js';
import type { TaskInfo } from '../../common/tasks.js';
import { guarded, shownError, toServiceError } from '../ipc-error.js';
import { pathsOfDrop, pathsOfFiles } from '../staging/file-intake.js';
import { saveText } from '../shell/save-text.js';
import { EMPTY_SELECTION, type TableSelection } from '../table/selection.js';

const PAGE_SIZE = 200;

export interface VerifyStore {
  /** Reading the drop (in the browser: uploading it) before main starts verifying. */
  reading: boolean;
  summary: VerifyRunSummary | null;
  task: TaskInfo | null;
  failuresOnly: boolean;
  /** Rows matching the filter so far. */
  total: number;
  pages: ReadonlyMap<number, VerifyRow[]>;
  generation: number;
  selection: TableSelection;
  detail: VerifyRowDetail | null;
  error: ShownError | null;
  endpoints: VerifyEndpoint[];
  /** Whether runs may fetch the status lists credentials name (main's setting, off at each start). */
  network: boolean;
  /** "Which credential is this?" answers by original name: the certificates, or why there are none. */
  which: Readonly<Record<string, OriginalMatch[] | string>>;
  /** Files are dragged over the window: main's proof-checking workers start before the drop. */
  warm(): void;
  verifyDrop(data: DataTransfer): Promise<void>;
  verifyFiles(files: File[]): Promise<void>;
  onTask(task: TaskInfo): void;
  cancel(): Promise<void>;
  setFailuresOnly(on: boolean): void;
  ensureRange(start: number, end: number): void;
  setSelection(selection: TableSelection): void;
  open(index: number | null): Promise<void>;
  report(format: 'csv' | 'html'): Promise<void>;
  loadEndpoints(): Promise<void>;
  setEndpoint(engine: string, rpcUrl: string | null): Promise<void>;
  loadNetwork(): Promise<void>;
  setNetwork(on: boolean): Promise<void>;
  askWhich(name: string): Promise<void>;
}

let visible: [number, number] = [0, PAGE_SIZE - 1];
/** One summary refresh at a time; a progress event meanwhile asks for one more after it. */
let refreshing = false;
let again = false;
/**
 * The latest state of the recent verify tasks, by id. A run's events can reach the page before
 * main's answer to `verify:start` does (on a loaded machine a small run is over by then): they
 * are kept here, and the answer's task takes the latest of them instead of missing them all.
 */
const seenTasks = new Map<string, TaskInfo>();
const SEEN_TASKS = 16;
/** A drag fires dragenter for each element it crosses: main is told at most this often (its workers stay 30 s). */
const WARM_EVERY_MS = 10_000;
let warmedAt = -Infinity;

/** The summary a finished verify task answered, when it is the current run's. */
function finalSummary(task: TaskInfo, current: VerifyRunSummary | null): VerifyRunSummary | null {
  const result = task.result as Partial<VerifyRunSummary> | undefined;
  if (!current || typeof result !== 'object' || result === null || result.run_id !== current.run_id) return null;
  if (typeof result.done !== 'number' || typeof result.counts !== 'object' || result.counts === null) return null;
  return result as VerifyRunSummary;
}

/** The Verify view's state: the current run, a window of its rows, the open row's detail. */
export const useVerifyStore = create<VerifyStore>()((set, get) => {
  const guard = (work: () => Promise<unknown>) => guarded(work, (error) => set({ error }));
  const fetchPage = async (page: number) => {
    const { summary, generation, failuresOnly } = get();
    if (!summary) return;
    await guard(async () => {
      const result = await window.proofdesk.verifyRows(summary.run_id, { offset: page * PAGE_SIZE, limit: PAGE_SIZE, failures_only: failuresOnly });
      if (get().generation !== generation) return;
      const pages = new Map(get().pages);
      pages.set(page, result.rows);
      set({ pages, total: result.total });
    });
  };

  const refresh = async () => {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = true;
    try {
      const current = get().summary;
      if (!current) return;
      const summary = await window.proofdesk.verifySummary(current.run_id);
      if (get().summary?.run_id !== summary.run_id) return;
      // An answer asked for while the run was going does not undo its end, already shown.
      if (summary.state === 'running' && get().summary?.state !== 'running') return;
      const total = get().failuresOnly ? Object.entries(summary.counts).reduce((n, [k, v]) => (k === 'ok' ? n : n + v), 0) : summary.done;
      set({ summary, total });
      // Pages that were short (the end of the rows so far) fill up as rows arrive.
      const pages = get().pages;
      for (let page = Math.floor(visible[0] / PAGE_SIZE); page <= Math.floor(visible[1] / PAGE_SIZE); page++) {
        const rows = pages.get(page);
        if (!rows || rows.length < PAGE_SIZE) await fetchPage(page);
      }
    } catch (error) {
      set({ error: shownError(error) });
    } finally {
      refreshing = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  };

  const start = async (paths: () => Promise<string[]>) => {
    set({ reading: true, error: null });
    try {
      const found = await paths();
      if (found.length === 0) return;
      const { summary, task: started } = await window.proofdesk.verifyStart(found);
      // Every event of this task came after main made it: any seen is at least as new.
      const task = seenTasks.get(started.id) ?? started;
      set((s) => ({ summary, task, total: 0, pages: new Map(), generation: s.generation + 1, selection: EMPTY_SELECTION, detail: null, which: {} }));
      // The rows (and the summary's state) as they are now, whatever events are still to come.
      void refresh();
    } catch (error) {
      set({ error: shownError(error) });
    } finally {
      set({ reading: false });
    }
  };

  return {
    reading: false,
    summary: null,
    task: null,
    failuresOnly: false,
    total: 0,
    pages: new Map(),
    generation: 0,
    selection: EMPTY_SELECTION,
    detail: null,
    error: null,
    endpoints: [],
    network: false,
    which: {},
    warm() {
      const now = Date.now();
      if (now - warmedAt < WARM_EVERY_MS) return;
      warmedAt = now;
      // Only a hint: a drop works the same without it.
      window.proofdesk.verifyWarm().catch(() => undefined);
    },
    verifyDrop: (data) => start(() => pathsOfDrop(data)),
    verifyFiles: (files) => start(() => pathsOfFiles(files)),
    onTask(task) {
      if (task.kind !== 'verify') return;
      seenTasks.delete(task.id);
      seenTasks.set(task.id, task);
      if (seenTasks.size > SEEN_TASKS) seenTasks.delete(seenTasks.keys().next().value!);
      if (task.id !== get().task?.id) return;
      // The task that ends a run carries the run's final summary: shown at once, not a round trip later.
      const final = task.state !== 'running' ? finalSummary(task, get().summary) : null;
      if (final) set({ task, summary: final, total: get().failuresOnly ? final.done - final.counts.ok : final.done });
      else set({ task });
      void refresh();
    },
    async cancel() {
      const task = get().task;
      if (task) await window.proofdesk.tasksCancel(task.id).catch((error: unknown) => set({ error: shownError(error) }));
    },
    setFailuresOnly(on) {
      set((s) => ({ failuresOnly: on, generation: s.generation + 1, pages: new Map(), selection: EMPTY_SELECTION }));
      void refresh();
      get().ensureRange(0, PAGE_SIZE - 1);
    },
    ensureRange(startIndex, end) {
      visible = [startIndex, end];
      for (let page = Math.floor(startIndex / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page++) {
        if (!get().pages.has(page)) void fetchPage(page);
      }
    },
    setSelection: (selection) => set({ selection }),
    async open(index) {
      const summary = get().summary;
      if (index === null || !summary) return set({ detail: null });
      await guard(async () => set({ detail: await window.proofdesk.verifyDetail(summary.run_id, index) }));
    },
    report: (format) =>
      guard(async () => {
        const summary = get().summary;
        if (!summary) return;
        const report = await window.proofdesk.verifyReport(summary.run_id, format);
        saveText(report.file_name, report.content, `${report.media_type};charset=utf-8`);
      }),
    loadEndpoints: () => guard(async () => set({ endpoints: await window.proofdesk.verifyEndpoints() })),
    setEndpoint: (engine, rpcUrl) => guard(async () => set({ endpoints: await window.proofdesk.verifySetEndpoint(engine, rpcUrl), error: null })),
    loadNetwork: () => guard(async () => set({ network: await window.proofdesk.verifyNetwork() })),
    async setNetwork(on) {
      // The box follows the click at once; main's answer confirms it (or puts it back).
      const was = get().network;
      set({ network: on });
      try {
        set({ network: await window.proofdesk.verifySetNetwork(on), error: null });
      } catch (error) {
        set({ network: was, error: shownError(error) });
      }
    },
    async askWhich(name) {
      const summary = get().summary;
      if (!summary) return;
      let answer: OriginalMatch[] | string;
      try {
        answer = await window.proofdesk.verifyWhichCredential(summary.run_id, name);
      } catch (error) {
        answer = toServiceError(error).message;
      }
      set((s) => ({ which: { ...s.which, [name]: answer } }));
    },
  };
});

export function verifyRowAt(index: number): VerifyRow | undefined {
  return useVerifyStore.getState().pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
}
