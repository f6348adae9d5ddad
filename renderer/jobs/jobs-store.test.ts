/**
 * The Jobs store against a stand-in for window.proofdesk (this runs in Node, without a page or
 * main): over a remote service, whose listing carries no summaries, it asks main for the
 * summaries of the rows the table shows only, never of the whole page. Main's side runs against
 * a real `serve` in test/remote/job-summaries-remote.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobListRequest, JobSummary } from '../../common/ipc/jobs.js';
import type { Job } from '../../common/wire-types.js';
import { useJobsStore } from './jobs-store.js';

const TOTAL = 250;
const uidOf = (i: number) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
let summariesAsked: string[][] = [];

beforeEach(() => {
  summariesAsked = [];
  const jobsList = async (request: JobListRequest) => {
    const rows = Array.from({ length: Math.min(request.limit, TOTAL - request.offset) }, (_, k) => ({ uid: uidOf(request.offset + k), status: 'finished', tags: [] }) as unknown as Job);
    return { offset: request.offset, total: TOTAL, rows, summaries: {}, counts: {} };
  };
  const jobsSummaries = async (uids: string[]) => {
    summariesAsked.push(uids);
    return Object.fromEntries(uids.map((uid): [string, JobSummary] => [uid, { credentials: 3, titles: ['Diploma'], finality: null }]));
  };
  (globalThis as unknown as { window: unknown }).window = { proofdesk: { jobsList, jobsSummaries } };
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('jobs store (stand-in for main)', () => {
  it('asks summaries for the rows on screen only, once each, as the table scrolls', async () => {
    const store = useJobsStore.getState();
    store.setStatus('finished');
    await settle();
    // The page of 100 came without summaries, and the table has not said what it shows yet.
    expect(summariesAsked).toEqual([]);
    store.ensureRange(0, 22);
    await settle();
    expect(summariesAsked).toEqual([Array.from({ length: 23 }, (_, i) => uidOf(i))]);
    expect(useJobsStore.getState().summaries[uidOf(5)]?.credentials).toBe(3);
    // Scrolled a little: only the rows new on screen.
    summariesAsked = [];
    store.ensureRange(10, 32);
    await settle();
    expect(summariesAsked).toEqual([Array.from({ length: 10 }, (_, i) => uidOf(23 + i))]);
    // Scrolled into the next page: its rows on screen once it has arrived.
    summariesAsked = [];
    store.ensureRange(95, 117);
    await settle();
    await settle();
    expect(summariesAsked.flat().sort()).toEqual(Array.from({ length: 23 }, (_, i) => uidOf(95 + i)).sort());
  });
});
