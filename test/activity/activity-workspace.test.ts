/**
 * The app's bulk actions (main/workspace) leave the same activity entries as the spec's calls:
 * a tag edit over a selection, scheduling and unscheduling a selection, each logged per
 * credential in the transaction of the edit, and nothing logged for an edit that was refused.
 */
import { userInfo } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskContext } from '../../common/tasks.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { scheduleSelection, unscheduleSelection } from '../../main/workspace/bulk-schedule.js';
import { editSelectionTags } from '../../main/workspace/bulk-tags.js';
import { openEngineWithPartner, type EngineFixture, type TestPartner } from '../support/engine-fixture.js';

let fixture: EngineFixture;
let partner: TestPartner;
let scope: PartnerScope;
beforeEach(() => {
  ({ fixture, partner, scope } = openEngineWithPartner());
});
afterEach(() => fixture.close());

const task = (): TaskContext => ({ signal: new AbortController().signal, progress: () => undefined });

async function entries(kind: string) {
  return (await partner.service.listActivity({ kind, per_page: 0 })).items.map((e) => ({ uid: e.credential_uid, actor: e.actor, engine: e.engine, detail: e.detail }));
}

describe('activity of the bulk actions', () => {
  it('logs a tag edit over a selection per changed credential, with the tags added and removed', async () => {
    const [a, b, c] = (await partner.service.createCredentials(['A', 'B', 'C'].map((title, i) => ({ title, metadata: { i }, tags: i === 0 ? ['spring'] : [] })))).map((x) => x.uid);
    await editSelectionTags(scope, { kind: 'uids', uids: [a!, b!] }, { mode: 'add', tags: ['spring'] }, task());
    await editSelectionTags(scope, { kind: 'uids', uids: [a!, b!, c!] }, { mode: 'remove', tag: 'spring' }, task());
    const me = userInfo().username;
    expect(await entries('tagged')).toEqual([
      { uid: b, actor: me, engine: null, detail: { tags: ['spring'], added: ['spring'], removed: [] } },
      { uid: a, actor: me, engine: null, detail: { tags: [], added: [], removed: ['spring'] } },
      { uid: b, actor: me, engine: null, detail: { tags: [], added: [], removed: ['spring'] } },
    ]);
    // Refused as a whole (no credential has the tag): nothing changed, nothing logged.
    await expect(editSelectionTags(scope, { kind: 'uids', uids: [c!] }, { mode: 'remove', tag: 'spring' }, task())).rejects.toMatchObject({ id: 'tag_does_not_exist' });
    expect(await entries('tagged')).toHaveLength(3);
  });

  it('logs scheduling and unscheduling a selection per credential, with the engine and job', async () => {
    const uids = (await partner.service.createCredentials(['A', 'B'].map((title) => ({ title, metadata: { title } })))).map((x) => x.uid);
    const scheduled = await scheduleSelection(scope, { kind: 'uids', uids }, ['local'], task());
    await unscheduleSelection(scope, { kind: 'uids', uids: [uids[1]!] }, 'local', task());
    const log = (await partner.service.listActivity({ per_page: 0 })).items.map((e) => [e.kind, e.credential_uid, e.engine, e.job_uid]);
    const job = scheduled.engines[0]!.jobUid;
    expect(log).toEqual([
      ['created', uids[0], null, null],
      ['created', uids[1], null, null],
      ['scheduled', uids[0], 'local', job],
      ['scheduled', uids[1], 'local', job],
      ['unscheduled', uids[1], 'local', job],
    ]);
  });
});
