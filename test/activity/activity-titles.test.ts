/**
 * The activity listing names each entry's credential by its title as it is now, read with the
 * page on both stores: a deleted credential's entries still list, with their uid and no title,
 * and another Partner's titles never show through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listActivity, recordPartnerActivity } from '../../main/engine/activity.js';
import { ManualClock } from '../../main/engine/clock.js';
import { parseCreateCredentialBody } from '../../main/engine/credential-input.js';
import { insertCredentials } from '../../main/engine/credentials.js';
import type { Db } from '../../main/engine/database.js';
import { EngineCatalog } from '../../main/engine/engine-catalog.js';
import { jobTags } from '../../main/engine/job-detail.js';
import { listJobs } from '../../main/engine/jobs.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import { scheduleCredentials, unscheduleCredential } from '../../main/engine/scheduling.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { JOB_TAGS, writeTags } from '../../main/engine/tag-writer.js';
import { createEngineStore, STORES, type EngineStore } from '../support/engine-stores.js';

const START = Date.UTC(2026, 5, 1, 9);
const ADA = 'Diploma — Ada Lovelace';
const GRACE = 'Certificate — Grace Hopper';
const NO_SUCH_UID = '0190d6c4-7a1b-7c2d-8e3f-123456789abc';

function partnerScope(db: Db, partner: { id: string; name: string }, clock: ManualClock): PartnerScope {
  return { db, partner, clock, actor: 'registrar', catalog: new EngineCatalog() } as unknown as PartnerScope;
}

describe.each(STORES)('activity entries with their credential titles on %s', (kind) => {
  let store: EngineStore;
  let mine: PartnerScope;
  let theirs: PartnerScope;
  let ada: string;
  let grace: string;
  let jobUid: string;

  beforeAll(() => {
    store = createEngineStore(kind);
    const clock = new ManualClock(START);
    const db = store.connect();
    const partners = new PartnerRegistry(db, clock);
    const uni = partners.add({ name: 'Uni' });
    const other = partners.add({ name: 'Other' });
    mine = partnerScope(db, { id: uni.partner_id, name: 'Uni' }, clock);
    theirs = partnerScope(store.connect(), { id: other.partner_id, name: 'Other' }, clock);
    const body = (title: string) => parseCreateCredentialBody({ title, metadata: { student: title } });
    [ada, grace] = insertCredentials(mine, [body(ADA), body(GRACE)]).map((c) => c.uid) as [string, string];
    insertCredentials(theirs, [body('Not yours')]);
    clock.advance(60_000);
    scheduleCredentials(mine, { engine: 'local', credentials: [ada, grace] });
    jobUid = listJobs(mine, {}).items[0]!.uid;
    clock.advance(60_000);
    // Grace's credential is in no other job and linked by none: unscheduling deletes it.
    expect(unscheduleCredential(mine, grace, 'local').credential_deleted).toBe(true);
    recordPartnerActivity(mine, 'keys_exported');
  });

  afterAll(() => store?.remove());

  it("gives each entry of a living credential that credential's title", () => {
    const entries = listActivity(mine, { credential_uid: ada, per_page: 0 }).items;
    expect(entries.map((e) => [e.kind, e.credential_title])).toEqual([
      ['created', ADA],
      ['scheduled', ADA],
    ]);
  });

  it("still lists a deleted credential's entries, with its uid and no title", () => {
    const entries = listActivity(mine, { credential_uid: grace, per_page: 0 }).items;
    expect(entries.map((e) => [e.kind, e.credential_uid, e.credential_title, e.detail])).toEqual([
      ['created', grace, null, null],
      ['scheduled', grace, null, null],
      ['unscheduled', grace, null, { credential_deleted: true }],
    ]);
  });

  it('pages the titles with their entries, newest first, and names no credential where the entry has none', () => {
    const page = listActivity(mine, { kind: 'created,scheduled,unscheduled', order: 'desc', per_page: 2, page: 2 });
    expect(page.items.map((e) => [e.kind, e.credential_uid, e.credential_title])).toEqual([
      ['scheduled', ada, ADA],
      ['created', grace, null],
    ]);
    expect(listActivity(mine, { kind: 'keys_exported', per_page: 0 }).items.map((e) => [e.credential_uid, e.credential_title])).toEqual([[null, null]]);
    expect(listActivity(theirs, { per_page: 0 }).items.map((e) => e.credential_title)).toEqual(['Not yours']);
  });

  it("reads the tags of the Partner's jobs by uid, and never another Partner's", () => {
    expect(jobTags(mine, [jobUid])).toEqual({ [jobUid]: [] });
    writeTags(mine, JOB_TAGS, { jobs: [{ job_uid: jobUid, tags: ['spring-2026', 'compsci'] }] }, 'add', 'missing_job');
    expect(jobTags(mine, [jobUid, NO_SUCH_UID])).toEqual({ [jobUid]: ['spring-2026', 'compsci'] });
    expect(jobTags(theirs, [jobUid])).toEqual({});
  });
});
