/**
 * Job details, tags on jobs and credentials (the spec's PATCH/PUT and the app's bulk tag
 * edits), bulk scheduling and the activity log's listing with its filters, on both stores: what
 * one node changes the other reads, and bad input is refused with the spec's error and changes
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listActivity } from '../../main/engine/activity.js';
import { ManualClock, type Clock } from '../../main/engine/clock.js';
import { parseCreateCredentialBody } from '../../main/engine/credential-input.js';
import { getCredential, insertCredentials, listCredentials } from '../../main/engine/credentials.js';
import type { Db } from '../../main/engine/database.js';
import { EngineCatalog } from '../../main/engine/engine-catalog.js';
import { jobStatuses, jobSummaries, jobTransactionHash, nextScheduledDate } from '../../main/engine/job-detail.js';
import { getJob, listJobs } from '../../main/engine/jobs.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import { editTagsOf, editTagsRemembering, restoreTagsOf, scheduleIds, unscheduleUids } from '../../main/engine/records/bulk-changes.js';
import { scheduleCredentials } from '../../main/engine/scheduling.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { CREDENTIAL_TAGS, JOB_TAGS, deleteCredentialTag, ownedId, writeTags } from '../../main/engine/tag-writer.js';
import { createEngineStore, STORES, type EngineStore } from '../support/engine-stores.js';

const START = Date.UTC(2026, 2, 1, 9);
const HOUR = 3_600_000;

/** A Partner's scope on `db` for work that reaches neither stored files nor issuing (they say so if they are). */
function partnerScope(db: Db, partner: { id: string; name: string }, clock: Clock): PartnerScope {
  const unused = (part: string) => () => {
    throw new Error(`this work does not use the ${part}`);
  };
  const scope = { db, partner, clock, actor: 'tester', catalog: new EngineCatalog() };
  Object.defineProperty(scope, 'store', { get: unused('file store') });
  Object.defineProperty(scope, 'issuing', { get: unused('issuing runtime') });
  return scope as PartnerScope;
}

const NO_SUCH_UID = '0190d6c4-7a1b-7c2d-8e3f-123456789abc';

describe.each(STORES)('tags, job details and the activity log on %s', (kind) => {
  let store: EngineStore;
  let clock: ManualClock;
  let nodeA: PartnerScope;
  let nodeB: PartnerScope;
  let otherPartner: PartnerScope;
  let uids: Record<'ada' | 'grace' | 'alan', string>;
  let jobUid: string;

  beforeAll(() => {
    store = createEngineStore(kind);
    clock = new ManualClock(START);
    const a = store.connect();
    const b = store.connect();
    const partners = new PartnerRegistry(a, clock);
    const mine = partners.add({ name: 'Uni Süd' });
    const theirs = partners.add({ name: 'Other' });
    nodeA = partnerScope(a, { id: mine.partner_id, name: 'Uni Süd' }, clock);
    nodeB = partnerScope(b, { id: mine.partner_id, name: 'Uni Süd' }, clock);
    otherPartner = partnerScope(b, { id: theirs.partner_id, name: 'Other' }, clock);
    const body = (title: string, tags: string[]) => parseCreateCredentialBody({ title, metadata: { student: title }, tags });
    const [ada, grace, alan] = insertCredentials(nodeA, [body('Ada', ['comp']), body('Grace', ['comp', 'y2026']), body('Alan', [])]);
    uids = { ada: ada!.uid, grace: grace!.uid, alan: alan!.uid };
    clock.advance(HOUR);
    const jobId = scheduleCredentials(nodeA, { engine: 'local', credentials: [uids.ada, uids.grace] });
    jobUid = listJobs(nodeA, {}).items.find((j) => j.status === 'scheduled')!.uid;
    expect(jobId).toBeTypeOf('number');
  });

  afterAll(() => store?.remove());

  const tagsOf = (uid: string) => getCredential(nodeB, uid).tags;

  describe('job details', () => {
    it('summarises the Partner\'s jobs by uid: credentials, their first titles, no finality before issuing', () => {
      expect(jobSummaries(nodeB, [jobUid, NO_SUCH_UID])).toEqual({ [jobUid]: { credentials: 2, titles: ['Ada', 'Grace'], finality: null } });
      expect(jobSummaries(otherPartner, [jobUid])).toEqual({});
    });

    it('lists every job with its status, says when the next is due, and has no transaction before sending', () => {
      expect(jobStatuses(nodeB)).toEqual([{ uid: jobUid, engine: 'local', status: 'scheduled' }]);
      const due = nextScheduledDate(nodeB);
      expect(typeof due).toBe('number');
      expect(due).toBe(Date.parse(getJob(nodeB, jobUid).scheduled_date!));
      expect(nextScheduledDate(otherPartner)).toBeNull();
      expect(jobTransactionHash(nodeB, jobUid)).toBeUndefined();
      expect(jobStatuses(otherPartner)).toEqual([]);
    });
  });

  describe('job tags', () => {
    it('adds tags to a job (once each), replaces them, and lists jobs by them on the other node', () => {
      writeTags(nodeA, JOB_TAGS, { jobs: [{ job_uid: jobUid, tags: ['spring', 'compsci'] }] }, 'add', 'missing_job');
      writeTags(nodeA, JOB_TAGS, { jobs: [{ job_uid: jobUid.toUpperCase(), tags: ['compsci', 'final'] }] }, 'add', 'missing_job');
      expect(getJob(nodeB, jobUid).tags).toEqual(['spring', 'compsci', 'final']);
      expect(listJobs(nodeB, { and_tags: 'spring,final' }).items.map((j) => j.uid)).toEqual([jobUid]);
      writeTags(nodeB, JOB_TAGS, { jobs: [{ job_uid: jobUid, tags: ['autumn'] }] }, 'replace', 'missing_job');
      expect(getJob(nodeA, jobUid).tags).toEqual(['autumn']);
      expect(listJobs(nodeA, { or_tags: 'spring,final' }).total_items).toBe(0);
      expect(listJobs(nodeA, { and_tags: 'autumn' }).total_items).toBe(1);
    });

    it('refuses an unknown job, another Partner\'s job and a bad tag, and changes nothing', () => {
      const refused = [
        () => writeTags(nodeA, JOB_TAGS, { jobs: [{ job_uid: jobUid, tags: ['xyz'] }, { job_uid: NO_SUCH_UID, tags: ['xyz'] }] }, 'add', 'missing_job'),
        () => writeTags(otherPartner, JOB_TAGS, { jobs: [{ job_uid: jobUid, tags: ['xyz'] }] }, 'replace', 'missing_job'),
      ];
      for (const call of refused) expect(call).toThrow(expect.objectContaining({ id: 'missing_job' }));
      expect(() => writeTags(nodeA, JOB_TAGS, { jobs: [{ job_uid: jobUid, tags: [''] }] }, 'add', 'missing_job')).toThrow(expect.objectContaining({ id: 'invalid_tag' }));
      expect(() => writeTags(nodeA, JOB_TAGS, { jobs: [] }, 'add', 'missing_job')).toThrow(expect.objectContaining({ id: 'invalid_value' }));
      expect(getJob(nodeB, jobUid).tags).toEqual(['autumn']);
      expect(listJobs(nodeB, { and_tags: 'xyz' }).total_items).toBe(0);
    });
  });

  describe('credential tags', () => {
    it('PATCH adds, PUT replaces, delete_tag removes; the other node filters by the result', () => {
      writeTags(nodeA, CREDENTIAL_TAGS, { credentials: [{ credential_uid: uids.ada, tags: ['honours'] }, { credential_uid: uids.alan, tags: ['math'] }] }, 'add', 'missing_credential');
      expect([tagsOf(uids.ada), tagsOf(uids.alan)]).toEqual([['comp', 'honours'], ['math']]);
      writeTags(nodeA, CREDENTIAL_TAGS, { credentials: [{ credential_uid: uids.grace, tags: ['y2027'] }] }, 'replace', 'missing_job');
      expect(tagsOf(uids.grace)).toEqual(['y2027']);
      deleteCredentialTag(nodeA, uids.ada, 'comp');
      expect(tagsOf(uids.ada)).toEqual(['honours']);
      expect(listCredentials(nodeB, { or_tags: 'comp,y2026' }).total_items).toBe(0);
      expect(listCredentials(nodeB, { or_tags: 'honours,math,y2027', sort_by: 'title', order: 'asc' }).items.map((c) => c.title)).toEqual(['Ada', 'Alan', 'Grace']);
    });

    it('refuses an unknown credential, a tag it lacks or too many tags, and changes nothing', () => {
      expect(() => writeTags(nodeA, CREDENTIAL_TAGS, { credentials: [{ credential_uid: uids.ada, tags: ['xyz'] }, { credential_uid: NO_SUCH_UID, tags: ['xyz'] }] }, 'add', 'missing_credential')).toThrow(
        expect.objectContaining({ id: 'missing_credential' }),
      );
      expect(() => deleteCredentialTag(nodeA, uids.ada, 'never')).toThrow(expect.objectContaining({ id: 'tag_does_not_exist' }));
      const many = Array.from({ length: 100 }, (_, i) => `t${i}`);
      expect(() => writeTags(nodeA, CREDENTIAL_TAGS, { credentials: [{ credential_uid: uids.ada, tags: many }] }, 'add', 'missing_credential')).toThrow(
        expect.objectContaining({ id: 'invalid_tag' }),
      );
      expect(tagsOf(uids.ada)).toEqual(['honours']);
      expect(listCredentials(nodeB, { and_tags: 'xyz' }).total_items).toBe(0);
    });

    it('bulk edits: add appends once in order, remove and replace rewrite, an undo puts them back', () => {
      const ids = Object.values(uids).map((uid) => ownedRowId(uid));
      expect(editTagsOf(nodeA, ids, { mode: 'add', tags: ['batch', 'honours'] })).toBe(3);
      expect([tagsOf(uids.ada), tagsOf(uids.grace), tagsOf(uids.alan)]).toEqual([['honours', 'batch'], ['y2027', 'batch', 'honours'], ['math', 'batch', 'honours']]);
      expect(listCredentials(nodeB, { and_tags: 'batch,honours' }).total_items).toBe(3);
      expect(editTagsOf(nodeB, ids, { mode: 'remove', tag: 'honours' })).toBe(3);
      expect(listCredentials(nodeA, { and_tags: 'honours' }).total_items).toBe(0);
      const { changed, changes } = editTagsRemembering(nodeA, ids, { mode: 'replace', tags: ['final'] });
      expect(changed).toBe(3);
      expect(tagsOf(uids.alan)).toEqual(['final']);
      expect(restoreTagsOf(nodeB, changes)).toEqual({ restored: 3, skipped: 0 });
      expect([tagsOf(uids.ada), tagsOf(uids.grace), tagsOf(uids.alan)]).toEqual([['batch'], ['y2027', 'batch'], ['math', 'batch']]);
      expect(listCredentials(nodeA, { and_tags: 'final' }).total_items).toBe(0);
      expect(listCredentials(nodeA, { and_tags: 'batch' }).total_items).toBe(3);
    });

    it('a bulk add past the tag limit fails whole with invalid_tag', () => {
      const ids = Object.values(uids).map((uid) => ownedRowId(uid));
      const many = Array.from({ length: 100 }, (_, i) => `t${i}`);
      expect(() => editTagsOf(nodeA, ids, { mode: 'add', tags: many })).toThrow(expect.objectContaining({ id: 'invalid_tag' }));
      expect(tagsOf(uids.alan)).toEqual(['math', 'batch']);
      expect(listCredentials(nodeB, { and_tags: 't0' }).total_items).toBe(0);
    });
  });

  describe('the activity log', () => {
    it('lists the Partner\'s entries, oldest first or newest first, paged, with totals', () => {
      const all = listActivity(nodeB, { per_page: 100 });
      expect(all.items[0]).toMatchObject({ kind: 'created', actor: 'tester', credential_uid: uids.ada });
      const kinds = new Set(all.items.map((e) => e.kind));
      expect([...kinds].sort()).toEqual(['created', 'scheduled', 'tagged']);
      const newest = listActivity(nodeB, { order: 'desc', per_page: 2, page: 1 });
      expect(newest.total_items).toBe(all.total_items);
      expect(newest.items.map((e) => e.id)).toEqual(all.items.slice(-2).reverse().map((e) => e.id));
      expect(listActivity(otherPartner, {}).total_items).toBe(0);
    });

    it('filters by kinds, by job and credential, and by an inclusive date range', () => {
      const jobTagged = listActivity(nodeB, { kind: 'tagged', job_uid: jobUid.toUpperCase(), per_page: 100 }).items;
      expect(jobTagged.map((e) => e.detail)).toEqual([
        { tags: ['spring', 'compsci'], added: ['spring', 'compsci'], removed: [] },
        { tags: ['spring', 'compsci', 'final'], added: ['final'], removed: [] },
        { tags: ['autumn'], added: ['autumn'], removed: ['spring', 'compsci', 'final'] },
      ]);
      expect(jobTagged.every((e) => e.engine === 'local' && e.credential_uid === null)).toBe(true);
      const ada = listActivity(nodeB, { kind: 'created,scheduled', credential_uid: uids.ada }).items;
      expect(ada.map((e) => e.kind)).toEqual(['created', 'scheduled']);
      const firstHour = listActivity(nodeB, { date_from: new Date(START).toISOString(), date_until: new Date(START + HOUR - 1).toISOString(), per_page: 100 });
      expect(firstHour.items.map((e) => e.kind)).toEqual(['created', 'created', 'created']);
      const fromScheduling = listActivity(nodeB, { date_from: new Date(START + HOUR).toISOString(), kind: 'created' });
      expect(fromScheduling.total_items).toBe(0);
    });

    it('refuses a bad filter with invalid_value and bad paging with wrong_pagination_argument', () => {
      expect(() => listActivity(nodeB, { kind: 'created,eaten' })).toThrow(expect.objectContaining({ id: 'invalid_value' }));
      expect(() => listActivity(nodeB, { credential_uid: 'not-a-uid' })).toThrow(expect.objectContaining({ id: 'invalid_value' }));
      expect(() => listActivity(nodeB, { date_from: 'yesterday' })).toThrow(expect.objectContaining({ id: 'invalid_value' }));
      expect(() => listActivity(nodeB, { page: 0 })).toThrow(expect.objectContaining({ id: 'wrong_pagination_argument' }));
    });
  });

  describe('bulk scheduling', () => {
    it('schedules a selection: the free ones join the open job, those already on the engine are counted', () => {
      const ids = Object.values(uids).map((uid) => ownedRowId(uid));
      expect(scheduleIds(nodeB, ids, ['local'])).toEqual([{ engine: 'local', scheduled: 1, alreadyTaken: 2, jobUid }]);
      expect(jobSummaries(nodeA, [jobUid])[jobUid]!.credentials).toBe(3);
    });

    it('unschedules a selection, deleting what nothing else holds, and counts what was not scheduled', () => {
      const [loose] = insertCredentials(nodeA, [parseCreateCredentialBody({ title: 'Loose', metadata: { student: 'Loose' }, tags: [] })]);
      const result = unscheduleUids(nodeB, [uids.alan, loose!.uid], 'local', 2);
      expect(result).toEqual({ selected: 2, unscheduled: 1, deleted: 1, notScheduled: 1 });
      expect(() => getCredential(nodeA, uids.alan)).toThrow(expect.objectContaining({ id: 'missing_credential' }));
      expect(jobSummaries(nodeA, [jobUid])[jobUid]!.credentials).toBe(2);
    });
  });

  /** A credential's row id, as the app's bulk tasks resolve a selection. */
  const ownedRowId = (uid: string): number => ownedId(nodeA, 'credentials', uid)!;
});
