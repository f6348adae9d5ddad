import { create } from 'zustand';
import type { ErrorId } from '../../common/errors.js';
import { DEFAULT_JOB_SORT, type JobDetail, type JobSort, type JobSummary } from '../../common/ipc/jobs.js';
import { JOB_STATUSES, type Job, type JobStatus } from '../../common/wire-types.js';
import { shownError } from '../ipc-error.js';
import type { ShownError } from '../shell/error-line.js';
import { EMPTY_SELECTION, type TableSelection } from '../table/selection.js';

const PAGE_SIZE = 100;
const ZERO = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;

export interface JobsStore {
  status: JobStatus | null;
  sort: JobSort;
  total: number;
  counts: Record<JobStatus, number>;
  pages: ReadonlyMap<number, Job[]>;
  /** Each loaded job's credential count, first titles and finality, by uid. */
  summaries: Readonly<Record<string, JobSummary>>;
  generation: number;
  error: { id: ErrorId; message: string } | null;
  selection: TableSelection;
  /** The job open in the detail pane. */
  openUid: string | null;
  detail: JobDetail | null;
  detailError: ShownError | null;
  setStatus(status: JobStatus | null): void;
  setSort(sort: JobSort): void;
  ensureRange(start: number, end: number): void;
  refresh(): void;
  setSelection(selection: TableSelection): void;
  open(uid: string | null): Promise<void>;
}

let visible: [number, number] = [0, PAGE_SIZE - 1];
/** The rows the table shows, as it last said (none before it did): only their summaries are asked for. */
let screen: [number, number] = [0, -1];
/** Jobs whose summaries are being asked for. */
const asking = new Set<string>();
/** Jobs listed anew while their summary was being asked for: the answer may be older than the row, so they are asked again. */
const askAgain = new Set<string>();
/** Summaries main could not have (a slow or failed request to a remote service), by job: how often they were asked. */
const unanswered = new Map<string, number>();
/** Times a summary main could not have is asked for again, the first after RETRY_MS, each wait twice the one before. */
const RETRIES = 4;
const RETRY_MS = 500;

/** The Jobs view's state: jobs by status, newest first, live; the open job's detail. */
export const useJobsStore = create<JobsStore>()((set, get) => {
  const fetchPage = async (page: number) => {
    const { generation, status, sort } = get();
    try {
      const answer = await window.proofdesk.jobsList({ ...(status ? { status } : {}), sort, offset: page * PAGE_SIZE, limit: PAGE_SIZE });
      if (get().generation !== generation) return;
      const pages = new Map(get().pages);
      pages.set(page, answer.rows);
      set({ pages, summaries: { ...get().summaries, ...answer.summaries }, total: answer.total, counts: answer.counts, error: null });
      // Rows on screen the listing gave no summary (a remote service's): asked for now, again on a refresh.
      summarize(
        answer.rows.filter((job, i) => !answer.summaries[job.uid] && onScreen(page * PAGE_SIZE + i)).map((job) => job.uid),
        true,
      );
    } catch (error) {
      set({ error: shownError(error) });
    }
  };
  /** Another status or sort: a new list from its first page, nothing selected. */
  const restart = (patch: Partial<Pick<JobsStore, 'status' | 'sort'>>) => {
    set((s) => ({ ...patch, generation: s.generation + 1, pages: new Map(), selection: EMPTY_SELECTION }));
    load(0, PAGE_SIZE - 1);
  };
  const onScreen = (index: number) => index >= screen[0] && index <= screen[1];
  /** Fetches the pages a range of rows spans that are not loaded. */
  const load = (start: number, end: number) => {
    visible = [start, end];
    for (let page = Math.floor(start / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page++) {
      if (!get().pages.has(page)) void fetchPage(page);
    }
  };
  /**
   * Asks main for these jobs' summaries (a remote service answers each with a request). `listed`:
   * the rows were just listed, so a summary already being asked for may predate them.
   */
  const summarize = (uids: string[], listed = false) => {
    const ask = uids.filter((uid) => !asking.has(uid));
    if (listed) for (const uid of uids) if (asking.has(uid)) askAgain.add(uid);
    if (ask.length === 0) return;
    for (const uid of ask) asking.add(uid);
    let found: Readonly<Record<string, JobSummary>> = {};
    window.proofdesk
      .jobsSummaries(ask)
      .then((answer) => {
        found = answer;
        set({ summaries: { ...get().summaries, ...answer } });
      })
      // Rows without a summary show no count until it is had; the listing stands.
      .catch(() => undefined)
      .finally(() => {
        ask.forEach((uid) => asking.delete(uid));
        const again = ask.filter((uid) => askAgain.delete(uid));
        if (again.length > 0) summarize(again);
        // A transient failure must not leave a row without its count for good: asked again a few times, waiting longer each time.
        for (const uid of ask) {
          if (found[uid] || again.includes(uid)) {
            unanswered.delete(uid);
            continue;
          }
          const tries = (unanswered.get(uid) ?? 0) + 1;
          unanswered.set(uid, tries);
          if (tries > RETRIES) continue;
          setTimeout(() => {
            if (!get().summaries[uid] && isListed(uid)) summarize([uid]);
          }, RETRY_MS * 2 ** (tries - 1));
        }
      });
  };
  return {
    status: null,
    sort: DEFAULT_JOB_SORT,
    total: 0,
    counts: ZERO,
    pages: new Map(),
    summaries: {},
    generation: 0,
    error: null,
    selection: EMPTY_SELECTION,
    openUid: null,
    detail: null,
    detailError: null,
    setStatus: (status) => restart({ status }),
    setSort: (sort) => restart({ sort }),
    ensureRange(start, end) {
      screen = [start, end];
      load(start, end);
      const missing: string[] = [];
      for (let index = start; index <= end; index++) {
        const job = jobAt(index);
        if (job && !get().summaries[job.uid]) missing.push(job.uid);
      }
      summarize(missing);
    },
    refresh() {
      // Keep showing the old rows until the new ones arrive: a live table must not flicker.
      const { generation } = get();
      set({ generation: generation + 1 });
      for (let page = Math.floor(visible[0] / PAGE_SIZE); page <= Math.floor(visible[1] / PAGE_SIZE); page++) void fetchPage(page);
      const uid = get().openUid;
      if (uid) void get().open(uid);
    },
    setSelection: (selection) => set({ selection }),
    async open(uid) {
      set({ openUid: uid, ...(uid === get().openUid ? {} : { detail: null }), detailError: null });
      if (!uid) return;
      try {
        const detail = await window.proofdesk.jobsGet(uid);
        if (get().openUid === uid) set({ detail });
      } catch (error) {
        set({ detailError: shownError(error) });
      }
    },
  };
});

/** The summary of a loaded job. */
export function jobSummaryOf(uid: string): JobSummary | undefined {
  return useJobsStore.getState().summaries[uid];
}

/** Whether the job is among the rows loaded now. */
function isListed(uid: string): boolean {
  for (const rows of useJobsStore.getState().pages.values()) if (rows.some((job) => job.uid === uid)) return true;
  return false;
}

export function jobAt(index: number): Job | undefined {
  return useJobsStore.getState().pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
}
