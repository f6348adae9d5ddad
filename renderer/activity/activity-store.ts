import { create } from 'zustand';
import { activityCsv, type ActivityEntry } from '../../common/activity.js';
import { allPages } from '../../common/all-pages.js';
import { MAX_ACTIVITY_PAGE, type ActivityJob, type ActivityListQuery } from '../../common/ipc/activity.js';
import { errorSentence } from '../ipc-error.js';
import { saveText } from '../shell/save-text.js';

const PAGE_SIZE = 100;

/** The Activity view's filters, as typed (empty: no filter). */
export interface ActivityFilters {
  kind: string;
  from: string;
  until: string;
  credential: string;
  job: string;
}

export const NO_FILTERS: ActivityFilters = { kind: '', from: '', until: '', credential: '', job: '' };

export interface ActivityStore {
  filters: ActivityFilters;
  page: number;
  totalPages: number;
  totalItems: number;
  items: ActivityEntry[];
  /** What names the jobs of the page's entries, by job uid. */
  jobs: Record<string, ActivityJob>;
  loading: boolean;
  error: string | null;
  setFilters(filters: ActivityFilters): void;
  goTo(page: number): Promise<void>;
  /** Downloads every entry the filters match as a CSV file. */
  exportCsv(): Promise<void>;
}

/** The filters as the service's query; newest first. */
function queryOf(filters: ActivityFilters): Omit<ActivityListQuery, 'page' | 'per_page'> {
  const query: Omit<ActivityListQuery, 'page' | 'per_page'> = { order: 'desc' };
  if (filters.kind) query.kind = filters.kind;
  if (filters.from.trim()) query.date_from = filters.from.trim();
  if (filters.until.trim()) query.date_until = filters.until.trim();
  if (filters.credential.trim()) query.credential_uid = filters.credential.trim();
  if (filters.job.trim()) query.job_uid = filters.job.trim();
  return query;
}

/** The active Partner's activity log, a page at a time, newest first, with its filters. */
export const useActivityStore = create<ActivityStore>()((set, get) => ({
  filters: NO_FILTERS,
  page: 1,
  totalPages: 0,
  totalItems: 0,
  items: [],
  jobs: {},
  loading: false,
  error: null,
  setFilters(filters) {
    set({ filters });
    void get().goTo(1);
  },
  async goTo(page) {
    const { filters } = get();
    set({ loading: true });
    try {
      const answer = await window.proofdesk.activityList({ ...queryOf(filters), page, per_page: PAGE_SIZE });
      // A newer filter was set meanwhile: its answer wins.
      if (get().filters !== filters) return;
      set({ page: answer.page, totalPages: answer.total_pages, totalItems: answer.total_items, items: answer.items, jobs: answer.jobs, error: null, loading: false });
    } catch (error) {
      if (get().filters === filters) set({ error: errorSentence(error), items: [], jobs: {}, totalItems: 0, totalPages: 0, loading: false });
    }
  },
  async exportCsv() {
    const query = queryOf(get().filters);
    try {
      const entries: ActivityEntry[] = [];
      for await (const page of allPages((n) => window.proofdesk.activityList({ ...query, page: n, per_page: MAX_ACTIVITY_PAGE }))) entries.push(...page.items);
      saveText(`activity-${new Date().toISOString().slice(0, 10)}.csv`, activityCsv(entries), 'text/csv;charset=utf-8');
    } catch (error) {
      set({ error: errorSentence(error) });
    }
  },
}));
