/**
 * Range selections (a Shift-click over many rows) resolved in main on a real SQLite engine:
 * the renderer sends positions in its filter and sort with the uids at each range's ends,
 * never the uids between; bulk actions take them; a list that changed meanwhile is refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../common/limits.js';
import { IPC_ARGUMENT_VALIDATORS } from '../../common/ipc-contract.js';
import { type RangeSelection, type RecordFilter, type RecordSort } from '../../common/records.js';
import type { TaskContext } from '../../common/tasks.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { editSelectionTags } from '../../main/workspace/bulk-tags.js';
import { recordWindow } from '../../main/workspace/record-query.js';
import { uidsOf } from '../../main/engine/index.js';
import { countSelection, resolveSelection } from '../../main/workspace/selection.js';
import { openEngineWithPartner, type EngineFixture, type TestPartner } from '../support/engine-fixture.js';

/** A selection checked as the records channels check it from the renderer. */
const validateSelection = (value: unknown) => IPC_ARGUMENT_VALIDATORS['records:count']([value])[0];

let fixture: EngineFixture;
let partner: TestPartner;
let scope: PartnerScope;

beforeEach(() => {
  ({ fixture, partner, scope } = openEngineWithPartner());
});
afterEach(() => fixture.close());

const task = (): TaskContext => ({ signal: new AbortController().signal, progress: () => {} });

async function seed(n: number): Promise<void> {
  for (let start = 0; start < n; start += 10_000) {
    const bodies = Array.from({ length: Math.min(10_000, n - start) }, (_, k) => {
      const i = start + k;
      return { title: `Record ${String(i).padStart(6, '0')}`, metadata: { n: i }, tags: [i % 2 === 0 ? 'even' : 'odd'] };
    });
    await partner.service.createCredentials(bodies);
  }
}

/** The uids at positions of the list as the table shows it. */
const uidAt = (filter: RecordFilter, sort: RecordSort, index: number) => recordWindow(scope, { filter, sort, offset: index, limit: 1 }).rows[0]!.uid;

function ranges(filter: RecordFilter, sort: RecordSort, spans: [number, number][], all = false): RangeSelection {
  return validateSelection({
    kind: 'ranges',
    filter,
    sort,
    ranges: spans.map(([from, to]) => ({ from, to, fromUid: uidAt(filter, sort, from), toUid: uidAt(filter, sort, to) })),
    ...(all ? { all } : {}),
  }) as RangeSelection;
}

describe('range selections', () => {
  it('resolves a Shift-range of more rows than a uid list may hold, in the table\'s filter and sort, and bulk-tags it', async () => {
    const n = LIMITS.maxBatch + 2_000;
    await seed(n);
    const filter = {};
    const sort: RecordSort = { by: 'title', order: 'desc' };
    // Rows 1,000 .. maxBatch+1,499 of the list sorted by title descending: more than a uid list allows.
    const selection = ranges(filter, sort, [[1_000, LIMITS.maxBatch + 1_499]]);
    expect(JSON.stringify(selection).length).toBeLessThan(1_000);
    expect(countSelection(scope, selection)).toBe(LIMITS.maxBatch + 500);
    const ids = await resolveSelection(scope, selection);
    expect(ids).toHaveLength(LIMITS.maxBatch + 500);
    const uids = new Set(uidsOf(scope, [ids[0]!, ids[ids.length - 1]!]));
    // Title descending: position 1,000 is record n-1-1,000; the last position is record n-1-(maxBatch+1,499) = 500.
    expect([...uids].sort()).toEqual([uidAt(filter, { by: 'title', order: 'asc' }, 500), uidAt(filter, { by: 'title', order: 'asc' }, n - 1_001)].sort());

    const result = await editSelectionTags(scope, selection, { mode: 'add', tags: ['ranged'] }, task());
    expect(result.selected).toBe(LIMITS.maxBatch + 500);
    expect(recordWindow(scope, { filter: { andTags: ['ranged'] }, sort, offset: 0, limit: 1 }).total).toBe(LIMITS.maxBatch + 500);
  }, 120_000);

  it('resolves several ranges of a filtered list, and "all except ranges"', async () => {
    await seed(40);
    const filter = { andTags: ['even'] }; // 20 rows: records 0, 2, ..., 38
    const sort: RecordSort = { by: 'upload_date', order: 'asc' };
    const picked = ranges(filter, sort, [[0, 2], [5, 5], [10, 19]]);
    expect(countSelection(scope, picked)).toBe(14);
    const titles = async (s: RangeSelection) =>
      (await Promise.all(uidsOf(scope, await resolveSelection(scope, s)).map(async (u) => (await partner.service.getCredential(u)).title))).sort();
    expect((await titles(picked)).slice(0, 4)).toEqual(['Record 000000', 'Record 000002', 'Record 000004', 'Record 000010']);
    const rest = ranges(filter, sort, [[0, 2], [5, 5], [10, 19]], true);
    expect(countSelection(scope, rest)).toBe(6);
    expect(await titles(rest)).toEqual(['Record 000006', 'Record 000008', 'Record 000012', 'Record 000014', 'Record 000016', 'Record 000018']);
  });

  it('refuses a selection whose positions no longer hold the rows that were selected, and changes nothing', async () => {
    await seed(30);
    const filter = {};
    const sort: RecordSort = { by: 'upload_date', order: 'desc' };
    const selection = ranges(filter, sort, [[2, 9]]);
    // A new record arrives on top of a newest-first list: every position moves by one.
    await partner.service.createCredential({ title: 'Newcomer', metadata: { n: -1 }, tags: [] });
    await expect(resolveSelection(scope, selection)).rejects.toMatchObject({ id: 'invalid_value', message: expect.stringMatching(/Select the rows again/) });
    await expect(editSelectionTags(scope, selection, { mode: 'add', tags: ['x'] }, task())).rejects.toMatchObject({ id: 'invalid_value' });
    expect(recordWindow(scope, { filter: { andTags: ['x'] }, sort, offset: 0, limit: 1 }).total).toBe(0);
    // Past the end of the list is refused too.
    const beyond = { ...selection, ranges: [{ ...selection.ranges[0]!, from: 25, to: 40 }] };
    expect(() => countSelection(scope, beyond)).toThrow(/Select the rows again/);
  });

  it('validates range selections as untrusted input', () => {
    const uid = '0190a000-0000-7000-8000-000000000001';
    const base = { kind: 'ranges', filter: {}, sort: { by: 'title', order: 'asc' } };
    expect(() => validateSelection({ ...base, ranges: [] })).toThrow(expect.objectContaining({ id: 'empty_credential_list' }));
    expect(validateSelection({ ...base, ranges: [], all: true })).toMatchObject({ kind: 'ranges', all: true });
    expect(() => validateSelection({ ...base, ranges: [{ from: 5, to: 2, fromUid: uid, toUid: uid }] })).toThrow(/at least its from/);
    expect(() => validateSelection({ ...base, ranges: [{ from: 0, to: 4, fromUid: uid, toUid: uid }, { from: 3, to: 6, fromUid: uid, toUid: uid }] })).toThrow(/overlap/);
    expect(() => validateSelection({ ...base, ranges: [{ from: 0, to: 4, fromUid: 'nope', toUid: uid }] })).toThrow(/selection at ranges\.0\.fromUid:/);
    expect(() => validateSelection({ ...base, ranges: [{ from: 0, to: 4, fromUid: uid, toUid: uid, extra: 1 }] })).toThrow(expect.objectContaining({ id: 'invalid_value' }));
  });
});
