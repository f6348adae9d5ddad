/**
 * The records table over the spec's endpoints alone (remote mode), on a real engine in a temp
 * dir: its EmbeddedService stands in for a RemoteService here (the same IssuingService; the
 * e2e test/e2e/remote-mode.e2e.test.ts runs it over HTTP against `serve` in another process).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../common/errors.js';
import type { TaskContext } from '../../common/tasks.js';
import { openEngineWithPartner, type EngineFixture, type TestPartner } from '../../test/support/engine-fixture.js';
import { remoteCount, remoteEditTags, remoteRecordWindow, remoteSchedule, remoteUids, remoteUnschedule } from './remote-records.js';

let fixture: EngineFixture;
let partner: TestPartner;
const task = (): TaskContext => ({ signal: new AbortController().signal, progress: () => undefined });
const sort = { by: 'upload_date', order: 'asc' } as const;

beforeEach(async () => {
  ({ fixture, partner } = openEngineWithPartner());
  for (let i = 0; i < 25; i++) {
    await partner.service.createCredential({ title: `Diploma ${String(i).padStart(2, '0')}`, metadata: { n: i }, tags: [i % 2 === 0 ? 'even' : 'odd'] });
  }
});

afterEach(async () => {
  await fixture.close();
});

async function refusal(promise: Promise<unknown>): Promise<{ id: string; message: string }> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { id: error.id, message: error.message };
}

describe('remote records', () => {
  it('answers windows page by page, aligned or not, with the spec\'s tag filter and title sorting', async () => {
    const first = await remoteRecordWindow(partner.service, { filter: {}, sort, offset: 10, limit: 10 });
    expect(first.total).toBe(25);
    expect(first.rows.map((r) => r.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Diploma ${String(10 + i).padStart(2, '0')}`));
    // Not aligned on the page size: two pages read, the window still exact.
    const shifted = await remoteRecordWindow(partner.service, { filter: {}, sort, offset: 5, limit: 10 });
    expect(shifted.rows.map((r) => r.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Diploma ${String(5 + i).padStart(2, '0')}`));
    const odd = await remoteRecordWindow(partner.service, { filter: { andTags: ['odd'] }, sort: { by: 'title', order: 'desc' }, offset: 0, limit: 5 });
    expect(odd.total).toBe(12);
    expect(odd.rows.map((r) => r.title)).toEqual(['Diploma 23', 'Diploma 21', 'Diploma 19', 'Diploma 17', 'Diploma 15']);
    expect(odd.engines).toEqual([]);
    expect(odd.rows[0]!.states).toEqual({});
  });

  it('refuses what the spec cannot answer (a word search, a state filter) with the reason', async () => {
    const search = await refusal(remoteRecordWindow(partner.service, { filter: { search: 'diploma' }, sort, offset: 0, limit: 10 }));
    expect(search).toMatchObject({ id: 'invalid_value' });
    expect(search.message).toContain('no word search');
    const state = await refusal(remoteCount(partner.service, { kind: 'filter', filter: { state: { engine: 'local', states: ['scheduled'] } } }));
    expect(state.message).toContain('state on each engine');
  });

  it('resolves a filter selection page by page, less its exceptions, and edits its tags all at once', async () => {
    const all = await remoteUids(partner.service, { kind: 'filter', filter: { andTags: ['even'] } });
    expect(all).toHaveLength(13);
    const except = all.slice(0, 3);
    expect(await remoteCount(partner.service, { kind: 'filter', filter: { andTags: ['even'] }, except })).toBe(10);
    const result = await remoteEditTags(partner.service, { kind: 'filter', filter: { andTags: ['even'] }, except }, { mode: 'add', tags: ['honours'] }, task());
    expect(result).toEqual({ selected: 10, changed: 10 });
    expect((await partner.service.listCredentials({ and_tags: 'honours', per_page: 1 })).total_items).toBe(10);
    const removed = await remoteEditTags(partner.service, { kind: 'uids', uids: all }, { mode: 'remove', tag: 'honours' }, task());
    expect(removed).toEqual({ selected: 13, changed: 10 });
  });

  it('resolves a Shift-range selection by position in the table\'s sort, and refuses it when the list moved', async () => {
    const byTitle = { by: 'title', order: 'desc' } as const;
    const window = await remoteRecordWindow(partner.service, { filter: {}, sort: byTitle, offset: 0, limit: 25 });
    const uidAt = (i: number): string => window.rows[i]!.uid;
    const ranges = [
      { from: 2, to: 4, fromUid: uidAt(2), toUid: uidAt(4) },
      { from: 10, to: 10, fromUid: uidAt(10), toUid: uidAt(10) },
    ];
    const picked = await remoteUids(partner.service, { kind: 'ranges', filter: {}, sort: byTitle, ranges });
    expect(picked).toEqual([uidAt(2), uidAt(3), uidAt(4), uidAt(10)]);
    expect(await remoteCount(partner.service, { kind: 'ranges', filter: {}, sort: byTitle, ranges, all: true })).toBe(21);
    // A record created meanwhile sorts first ("Z..." in descending title order): every position moved.
    await partner.service.createCredential({ title: 'Zeta', metadata: { n: 99 } });
    const moved = await refusal(remoteEditTags(partner.service, { kind: 'ranges', filter: {}, sort: byTitle, ranges }, { mode: 'add', tags: ['x'] }, task()));
    expect(moved).toMatchObject({ id: 'invalid_value' });
    expect(moved.message).toContain('Select the rows again');
    expect((await remoteUids(partner.service, { kind: 'filter', filter: { andTags: ['x'] } }))).toEqual([]);
  });

  it('schedules a selection per engine and unschedules it, counting what was not scheduled', async () => {
    const uids = (await partner.service.listCredentials({ per_page: 3 })).items.map((c) => c.uid);
    const scheduled = await remoteSchedule(partner.service, { kind: 'uids', uids: uids.slice(0, 2) }, ['local'], task());
    expect(scheduled.engines[0]).toMatchObject({ engine: 'local', scheduled: 2 });
    expect(scheduled.engines[0]!.jobUid).toBeTruthy();
    const unscheduled = await remoteUnschedule(partner.service, { kind: 'uids', uids }, 'local', task());
    expect(unscheduled).toMatchObject({ selected: 3, unscheduled: 2, notScheduled: 1 });
  });
});
