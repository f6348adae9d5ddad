/**
 * The Records store against a stand-in for window.proofdesk (this runs in Node, without a
 * page or main): which windows of rows it asks main for while scrolling, and how it describes
 * a selection to main. Main's side runs for real in test/workspace/selection-ranges.test.ts.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordRow, RecordWindowRequest } from '../../common/records.js';
import { clickRow, extendTo, selectAll, toggleRow } from '../table/selection.js';
import { PAGE_SIZE, SEARCH_DELAY_MS, useRecordsStore } from './records-store.js';

const TOTAL = 100_000;
const uidOf = (i: number) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
let asked: RecordWindowRequest[] = [];

beforeEach(async () => {
  asked = [];
  const recordsWindow = async (request: RecordWindowRequest) => {
    asked.push(request);
    const rows = Array.from({ length: Math.min(request.limit, TOTAL - request.offset) }, (_, k): RecordRow => {
      const i = request.offset + k;
      return { uid: uidOf(i), title: `Diploma ${i}`, tags: [], fileCount: 0, files: [], linkedUids: [], linkedFromCount: 0, uploadDate: '2026-01-01T00:00:00.000Z', expiryDate: null, states: {}, metadata: {} };
    });
    return { offset: request.offset, total: TOTAL, rows, engines: [] };
  };
  (globalThis as unknown as { window: unknown }).window = { proofdesk: { recordsWindow } };
  useRecordsStore.getState().setFilter({ search: `fresh ${Math.random()}` });
  await settle();
  asked = [];
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const pagesAsked = () => [...new Set(asked.map((r) => r.offset / PAGE_SIZE))].sort((a, b) => a - b);

describe('records store', () => {
  it('fetches the next page in the direction of the scroll before its rows are on screen', async () => {
    const { ensureRange } = useRecordsStore.getState();
    ensureRange(2 * PAGE_SIZE + 10, 2 * PAGE_SIZE + 40); // page 2 on screen, scrolling down
    await settle();
    expect(pagesAsked()).toEqual([2, 3]);
    asked = [];
    ensureRange(10 * PAGE_SIZE + 200, 10 * PAGE_SIZE + 230); // further down
    await settle();
    expect(pagesAsked()).toEqual([10, 11]);
    asked = [];
    ensureRange(8 * PAGE_SIZE + 200, 8 * PAGE_SIZE + 230); // back up: the page above comes too
    await settle();
    expect(pagesAsked()).toEqual([7, 8]);
  });

  it('describes a Shift-range over 60,000 rows as one range with the uids at its ends', async () => {
    const store = useRecordsStore.getState();
    store.ensureRange(0, 30);
    await settle();
    store.setSelection(extendTo(clickRow(store.selection, 5), 60_004));
    asked = [];
    const selection = await useRecordsStore.getState().selectionForMain();
    expect(selection).toEqual({
      kind: 'ranges',
      filter: useRecordsStore.getState().filter,
      sort: useRecordsStore.getState().sort,
      ranges: [{ from: 5, to: 60_004, fromUid: uidOf(5), toUid: uidOf(60_004) }],
    });
    // Only the page holding the far end was fetched, never the 60,000 rows between.
    expect(pagesAsked()).toEqual([Math.floor(60_004 / PAGE_SIZE)]);
    expect(JSON.stringify(selection).length).toBeLessThan(500);
  });

  it('sends "all matching" as the filter, and "all but some" as the ranges taken out', async () => {
    const store = useRecordsStore.getState();
    store.ensureRange(0, 30);
    await settle();
    store.setSelection(selectAll(store.selection));
    expect(await useRecordsStore.getState().selectionForMain()).toEqual({ kind: 'filter', filter: useRecordsStore.getState().filter });
    store.setSelection(toggleRow(selectAll(store.selection), 7));
    expect(await useRecordsStore.getState().selectionForMain()).toMatchObject({ kind: 'ranges', all: true, ranges: [{ from: 7, to: 7, fromUid: uidOf(7), toUid: uidOf(7) }] });
  });

  it('keeps the selection when the same filter is applied again (leaving the tag field)', async () => {
    const store = useRecordsStore.getState();
    store.setFilter({ andTags: ['even'] });
    await settle();
    store.setSelection(clickRow(useRecordsStore.getState().selection, 3));
    useRecordsStore.getState().setFilter({ andTags: ['even'], orTags: [] });
    await settle();
    expect(useRecordsStore.getState().selection).not.toEqual(useRecordsStore.getInitialState().selection);
    expect(await useRecordsStore.getState().selectionForMain()).toMatchObject({ kind: 'ranges', filter: { andTags: ['even'] }, ranges: [{ from: 3, to: 3, fromUid: uidOf(3) }] });
  });

  it('"Select all matching" clicked while a search is still being typed selects what that search matches, and keeps it', async () => {
    vi.useFakeTimers();
    try {
      const store = useRecordsStore.getState();
      store.typeSearch('alice');
      store.selectAllMatching(); // within the pause after the last key
      expect(useRecordsStore.getState().filter.search).toBe('alice');
      await vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS * 2);
      expect(useRecordsStore.getState().filter.search).toBe('alice');
      expect(await useRecordsStore.getState().selectionForMain()).toMatchObject({ kind: 'filter', filter: { search: 'alice' } });
    } finally {
      vi.useRealTimers();
    }
  });
});
