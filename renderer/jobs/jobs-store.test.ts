/**
 * The Jobs store against a stand-in for window.proofdesk (this runs in Node, without a page or
 * main): over a remote service, whose listing carries no summaries, it asks main for the
 * summaries of the rows the table shows only, never of the whole page. Main's side runs against
 * a real `serve` in test/remote/job-summaries-remote.test.ts.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobListRequest, JobSummary } from '../../common/ipc/jobs.js';
import type { Job } from '../../common/wire-types.js';
import { useJobsStore } from './jobs-store.js';

const TOTAL = 250;
const uidOf = (i: number) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
let summariesAsked: string[][] = [];
/** Credentials each job holds, as the stand-in service answers now. */
let credentialsNow = 3;
/** When set, summary answers wait for it: a request in flight while the list changes. */
let holdSummaries: Promise<void> | null = null;
/** How many of the next summary answers leave every job out (main's request to the service failed). */
let failingAnswers = 0;

beforeEach(() => {
  summariesAsked = [];
  credentialsNow = 3;
  holdSummaries = null;
  failingAnswers = 0;
  const jobsList = async (request: JobListRequest) => {
    const rows = Array.from({ length: Math.min(request.limit, TOTAL - request.offset) }, (_, k) => ({ uid: uidOf(request.offset + k), status: 'finished', tags: [] }) as unknown as Job);
    return { offset: request.offset, total: TOTAL, rows, summaries: {}, counts: {} };
  };
  const jobsSummaries = async (uids: string[]) => {
    summariesAsked.push(uids);
    const credentials = credentialsNow;
    if (holdSummaries) await holdSummaries;
    if (failingAnswers > 0) {
      failingAnswers--;
      return {};
    }
    return Object.fromEntries(uids.map((uid): [string, JobSummary] => [uid, { credentials, titles: ['Diploma'], finality: null }]));
  };
  (globalThis as unknown as { window: unknown }).window = { proofdesk: { jobsList, jobsSummaries } };
});

const summaryOf = (i: number) => useJobsStore.getState().summaries[uidOf(i)];

describe('jobs store (stand-in for main)', () => {
  it('asks summaries for the rows on screen only, once each, as the table scrolls', async () => {
    const store = useJobsStore.getState();
    store.setStatus('finished');
    await vi.waitFor(() => expect(useJobsStore.getState().pages.has(0)).toBe(true));
    // The page of 100 came without summaries, and the table has not said what it shows yet.
    expect(summariesAsked).toEqual([]);
    store.ensureRange(0, 22);
    await vi.waitFor(() => expect(summaryOf(22)?.credentials).toBe(3));
    expect(summariesAsked).toEqual([Array.from({ length: 23 }, (_, i) => uidOf(i))]);
    // Scrolled a little: only the rows new on screen.
    summariesAsked = [];
    store.ensureRange(10, 32);
    await vi.waitFor(() => expect(summaryOf(32)).toBeDefined());
    expect(summariesAsked).toEqual([Array.from({ length: 10 }, (_, i) => uidOf(23 + i))]);
    // Scrolled into the next page: its rows on screen once it has arrived.
    summariesAsked = [];
    store.ensureRange(95, 117);
    await vi.waitFor(() => expect([summaryOf(95), summaryOf(117)].every(Boolean)).toBe(true));
    expect(summariesAsked.flat().sort()).toEqual(Array.from({ length: 23 }, (_, i) => uidOf(95 + i)).sort());
  });

  it('asks again for a row listed anew while its summary was in flight, so an older answer does not stay', async () => {
    const store = useJobsStore.getState();
    // The table shows the first row only; then the scheduled jobs are listed, their summary held back.
    store.ensureRange(0, 0);
    let release = () => {};
    holdSummaries = new Promise((resolve) => (release = resolve));
    store.setStatus('scheduled');
    await vi.waitFor(() => expect(summariesAsked).toEqual([[uidOf(0)]]));
    // A credential joins the job; the table is refreshed while the first answer is still out.
    credentialsNow = 4;
    const listed = useJobsStore.getState().generation;
    store.refresh();
    await vi.waitFor(() => expect(useJobsStore.getState().generation).toBe(listed + 1));
    await vi.waitFor(() => expect(summariesAsked).toHaveLength(1));
    holdSummaries = null;
    release();
    await vi.waitFor(() => expect(summaryOf(0)?.credentials).toBe(4));
    expect(summariesAsked).toEqual([[uidOf(0)], [uidOf(0)]]);
  });

  it('asks again, a little later, for a summary main could not have: a failed request does not leave the row without its count', async () => {
    vi.useFakeTimers();
    try {
      const store = useJobsStore.getState();
      failingAnswers = 2;
      store.setStatus('unconfirmed');
      // A row no earlier summary was had for.
      store.ensureRange(150, 150);
      await vi.waitFor(() => expect(summariesAsked).toEqual([[uidOf(150)]]));
      await vi.advanceTimersByTimeAsync(0); // its empty answer handled
      expect(summaryOf(150)).toBeUndefined();
      await vi.advanceTimersByTimeAsync(500);
      expect(summariesAsked).toEqual([[uidOf(150)], [uidOf(150)]]);
      expect(summaryOf(150)).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(summaryOf(150)?.credentials).toBe(3);
      expect(summariesAsked).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
