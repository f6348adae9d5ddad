/**
 * Selections resolved in main and bulk work over them, on a real SQLite engine: tag edits
 * all or nothing, cancel, scheduling and unscheduling a selection on engines.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { DEFAULT_RECORD_SORT, type RecordFilter, type Selection } from '../../common/records.js';
import type { TaskContext } from '../../common/tasks.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { editSelectionTags } from '../../main/workspace/bulk-tags.js';
import { scheduleSelection, unscheduleSelection } from '../../main/workspace/bulk-schedule.js';
import { recordWindow } from '../../main/workspace/record-query.js';
import { countSelection, resolveSelection } from '../../main/workspace/selection.js';
import { addPartner, openEngineWithPartner, type EngineFixture, type TestPartner } from '../support/engine-fixture.js';

let fixture: EngineFixture;
let partner: TestPartner;
let scope: PartnerScope;

beforeEach(() => {
  ({ fixture, partner, scope } = openEngineWithPartner());
});
afterEach(() => fixture.close());

function task(onProgress?: (done: number, total?: number) => void): TaskContext & { controller: AbortController; calls: [number, number | undefined][] } {
  const controller = new AbortController();
  const calls: [number, number | undefined][] = [];
  return {
    controller,
    calls,
    signal: controller.signal,
    progress(done, total) {
      calls.push([done, total]);
      onProgress?.(done, total);
    },
  };
}

async function seed(n: number, tags = (i: number) => [i % 2 === 0 ? 'even' : 'odd']): Promise<string[]> {
  const uids: string[] = [];
  for (let start = 0; start < n; start += 10_000) {
    const bodies = Array.from({ length: Math.min(10_000, n - start) }, (_, k) => ({ title: `Record ${start + k}`, metadata: { n: start + k }, tags: tags(start + k) }));
    uids.push(...(await partner.service.createCredentials(bodies)).map((c) => c.uid));
  }
  return uids;
}

const total = (filter: RecordFilter) => recordWindow(scope, { filter, sort: DEFAULT_RECORD_SORT, offset: 0, limit: 1 }).total;
const tagsOf = async (uid: string) => (await partner.service.getCredential(uid)).tags;

describe('selections', () => {
  it('resolves uids or a filter minus exceptions, and counts them the same way', async () => {
    const uids = await seed(10);
    const byFilter: Selection = { kind: 'filter', filter: { andTags: ['even'] }, except: [uids[0]!, uids[1]!] };
    expect(countSelection(scope, byFilter)).toBe(4);
    expect(await resolveSelection(scope, byFilter)).toHaveLength(4);
    expect(countSelection(scope, { kind: 'uids', uids: [uids[3]!, uids[3]!.toUpperCase()] })).toBe(1);
    await expect(resolveSelection(scope, { kind: 'uids', uids: ['0190a000-0000-7000-8000-000000000001'] })).rejects.toMatchObject({ id: 'missing_credential' });
    // Another Partner's credentials are never selected, by uid or by filter.
    const other = addPartner(fixture.engine, 'College B');
    const foreign = await other.service.createCredential({ title: 'B', metadata: { a: 1 }, tags: ['even'] });
    await expect(resolveSelection(scope, { kind: 'uids', uids: [foreign.uid] })).rejects.toMatchObject({ id: 'missing_credential' });
    expect(countSelection(scope, { kind: 'filter', filter: { andTags: ['even'] } })).toBe(5);
  });
});

describe('bulk tags', () => {
  it('adds, replaces and removes tags over a selection and keeps the tag index in step', async () => {
    const uids = await seed(10);
    const added = await editSelectionTags(scope, { kind: 'filter', filter: { andTags: ['even'] }, except: [uids[0]!] }, { mode: 'add', tags: ['graduated', 'even'] }, task());
    expect(added).toEqual({ selected: 4, changed: 4, undo: expect.any(String) });
    expect(await tagsOf(uids[2]!)).toEqual(['even', 'graduated']);
    expect(await tagsOf(uids[0]!)).toEqual(['even']);
    expect(total({ andTags: ['graduated'] })).toBe(4);

    await editSelectionTags(scope, { kind: 'uids', uids: [uids[2]!, uids[3]!] }, { mode: 'replace', tags: ['archived'] }, task());
    expect(await tagsOf(uids[2]!)).toEqual(['archived']);
    expect(total({ andTags: ['graduated'] })).toBe(3);
    expect(total({ andTags: ['even'] })).toBe(4);

    const removed = await editSelectionTags(scope, { kind: 'filter', filter: {} }, { mode: 'remove', tag: 'graduated' }, task());
    expect(removed).toEqual({ selected: 10, changed: 3, undo: expect.any(String) });
    expect(total({ andTags: ['graduated'] })).toBe(0);
  });

  it('is all or nothing: one credential over the tag limit and no credential changes', async () => {
    const uids = await seed(5);
    const full = Array.from({ length: LIMITS.maxTagsPerObject }, (_, i) => `tag-${i}`);
    await partner.service.replaceCredentialTags({ credentials: [{ credential_uid: uids[4]!, tags: full }] });
    const error = await editSelectionTags(scope, { kind: 'filter', filter: {} }, { mode: 'add', tags: ['extra'] }, task()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).id).toBe('invalid_tag');
    expect(await tagsOf(uids[0]!)).toEqual(['even']);
    expect(total({ andTags: ['extra'] })).toBe(0);
    await expect(editSelectionTags(scope, { kind: 'filter', filter: {} }, { mode: 'remove', tag: 'nowhere' }, task())).rejects.toMatchObject({ id: 'tag_does_not_exist' });
    await expect(editSelectionTags(scope, { kind: 'filter', filter: { andTags: ['absent'] } }, { mode: 'add', tags: ['extra'] }, task())).rejects.toMatchObject({ id: 'empty_credential_list' });
  });

  it('a cancel once the selection is resolved changes nothing; progress is reported', async () => {
    await seed(30);
    const cancelled = task((_done, totalSteps) => {
      // Cancel once the selection has been read, before anything is written.
      if (totalSteps !== undefined) cancelled.controller.abort();
    });
    const error = await editSelectionTags(scope, { kind: 'filter', filter: {} }, { mode: 'add', tags: ['late'] }, cancelled).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(total({ andTags: ['late'] })).toBe(0);

    const run = task();
    const result = await editSelectionTags(scope, { kind: 'filter', filter: { andTags: ['odd'] } }, { mode: 'add', tags: ['late'] }, run);
    expect(result.changed).toBe(15);
    expect(run.calls.at(-1)).toEqual([result.selected * 2, result.selected * 2]);
  });
});

describe('bulk scheduling', () => {
  it('schedules a selection on several engines, leaving what is already taken, then unschedules it', async () => {
    const uids = await seed(6);
    await partner.service.scheduleCredentials({ engine: 'local', credentials: [uids[0]!] });
    const scheduled = await scheduleSelection(scope, { kind: 'filter', filter: { andTags: ['even'] } }, ['local', 'sepolia'], task());
    expect(scheduled.selected).toBe(3);
    expect(scheduled.engines.map((e) => [e.engine, e.scheduled, e.alreadyTaken])).toEqual([
      ['local', 2, 1],
      ['sepolia', 3, 0],
    ]);
    expect(total({ state: { engine: 'local', states: ['scheduled'] } })).toBe(3);
    await expect(scheduleSelection(scope, { kind: 'uids', uids: [uids[1]!] }, ['local', 'nowhere'], task())).rejects.toMatchObject({ id: 'wrong_blockchain_engine' });
    expect(total({ state: { engine: 'local', states: ['scheduled'] } })).toBe(3);

    // uids[2] stays scheduled on sepolia, so it is kept; uids[1] was never scheduled.
    const unscheduled = await unscheduleSelection(scope, { kind: 'uids', uids: [uids[0]!, uids[1]!, uids[2]!] }, 'local', task());
    expect(unscheduled).toEqual({ selected: 3, unscheduled: 2, deleted: 0, notScheduled: 1 });
    const fromSepolia = await unscheduleSelection(scope, { kind: 'filter', filter: { andTags: ['even'] } }, 'sepolia', task());
    // uids[0] and [2] are now held by nothing: deleted, as the spec's unschedule does; uids[4] is still on local.
    expect(fromSepolia).toEqual({ selected: 3, unscheduled: 3, deleted: 2, notScheduled: 0 });
    expect(total({})).toBe(4);
  });
});
