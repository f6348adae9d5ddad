/**
 * Credentials (without files) created, read, listed and scheduled into jobs, and the activity
 * log they write, on both stores: the engine's credential and job functions over SQLite and
 * over PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listActivity } from '../../main/engine/activity.js';
import { ManualClock, systemClock } from '../../main/engine/clock.js';
import { parseCreateCredentialBody } from '../../main/engine/credential-input.js';
import { getCredential, insertCredentials, listCredentials, listJobCredentials } from '../../main/engine/credentials.js';
import type { Db } from '../../main/engine/database.js';
import { EngineCatalog } from '../../main/engine/engine-catalog.js';
import { getJob, listJobs } from '../../main/engine/jobs.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import { scheduleCredentials, unscheduleCredential } from '../../main/engine/scheduling.js';
import { existingCredentialUids } from '../../main/engine/records/credential-lookups.js';
import { recordGraphOf } from '../../main/engine/records/record-graph.js';
import { filterWindowIds } from '../../main/engine/records/records-window.js';
import { uidsOf } from '../../main/engine/records/selection-ids.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { createEngineStore, STORES, type EngineStore } from '../support/engine-stores.js';

/**
 * A Partner's scope for the credential and job functions, with the engine catalog of a data
 * directory without engines.json (the local engine): stored files and issuing are not reached
 * by credentials without files, and say so if they are.
 */
function credentialScope(db: Db, partner: { id: string; name: string }): PartnerScope {
  const unused = (part: string) => () => {
    throw new Error(`credentials without files do not use the ${part}`);
  };
  const scope = { db, partner, clock: systemClock, actor: 'tester', catalog: new EngineCatalog() };
  Object.defineProperty(scope, 'store', { get: unused('file store') });
  Object.defineProperty(scope, 'issuing', { get: unused('issuing runtime') });
  return scope as PartnerScope;
}

describe.each(STORES)('credentials on %s', (kind) => {
  let store: EngineStore;
  let nodeA: PartnerScope;
  let nodeB: PartnerScope;
  let otherPartner: PartnerScope;

  beforeAll(() => {
    store = createEngineStore(kind);
    const a = store.connect();
    const b = store.connect();
    const partners = new PartnerRegistry(a, systemClock);
    const mine = partners.add({ name: 'Uni Süd' });
    const theirs = partners.add({ name: 'Other' });
    nodeA = credentialScope(a, { id: mine.partner_id, name: 'Uni Süd' });
    nodeB = credentialScope(b, { id: mine.partner_id, name: 'Uni Süd' });
    otherPartner = credentialScope(b, { id: theirs.partner_id, name: 'Other' });
  });

  afterAll(() => store?.remove());

  /** The Partner's credential with this title. */
  const titled = (title: string) => listCredentials(nodeA, { per_page: 100 }).items.find((c) => c.title === title)!;

  const body = (title: string, tags: string[], extra: Record<string, unknown> = {}) =>
    parseCreateCredentialBody({ title, metadata: { student: title.toLowerCase(), year: 2026 }, tags, ...extra });

  it('creates credentials in one call; the other node reads them as created, and another Partner does not', () => {
    const created = insertCredentials(nodeA, [body('Ada', ['comp', 'y2026']), body('Grace', ['comp']), body('Alan', ['math', 'y2026'])]);
    expect(created.map((c) => c.title)).toEqual(['Ada', 'Grace', 'Alan']);
    for (const credential of created) expect(getCredential(nodeB, credential.uid)).toEqual(credential);
    expect(() => getCredential(otherPartner, created[0]!.uid)).toThrow(expect.objectContaining({ id: 'missing_credential' }));
  });

  it('links a credential to another, and reads the link back', () => {
    const [ada] = listCredentials(nodeB, { and_tags: 'comp', sort_by: 'title', order: 'asc' }).items;
    const [linked] = insertCredentials(nodeA, [body('Ada (transcript)', ['comp'], { credentials: [ada!.uid] })]);
    expect(getCredential(nodeB, linked!.uid).credentials.map((c) => c.uid)).toEqual([ada!.uid]);
  });

  it("reads a record's graph over links, and which of some uids are the Partner's credentials", () => {
    const [ada, transcript] = [titled('Ada'), titled('Ada (transcript)')];
    const graph = recordGraphOf(nodeB, ada.uid, 10);
    expect([...graph.nodes.keys()].sort()).toEqual([ada.uid, transcript.uid].sort());
    expect([...graph.links]).toEqual([[transcript.uid, [ada.uid]]]);
    const unknown = '0190d6c4-7a1b-7c2d-8e3f-123456789abc';
    expect(existingCredentialUids(nodeB, [ada.uid, unknown, transcript.uid])).toEqual(new Set([ada.uid, transcript.uid]));
    expect(existingCredentialUids(otherPartner, [ada.uid])).toEqual(new Set());
  });

  it('lists by tags (all of, any of), sorted and paged, with totals', () => {
    expect(listCredentials(nodeB, { and_tags: 'comp,y2026' }).items.map((c) => c.title)).toEqual(['Ada']);
    expect(listCredentials(nodeB, { or_tags: 'math,y2026', sort_by: 'title', order: 'asc' }).items.map((c) => c.title)).toEqual(['Ada', 'Alan']);
    expect(listCredentials(nodeB, { or_tags: 'math,comp', and_tags: 'y2026', sort_by: 'title', order: 'desc' }).items.map((c) => c.title)).toEqual(['Alan', 'Ada']);
    const page = listCredentials(nodeB, { sort_by: 'title', order: 'asc', per_page: 2, page: 2 });
    expect({ total: page.total_items, pages: page.total_pages, titles: page.items.map((c) => c.title) }).toEqual({ total: 4, pages: 2, titles: ['Alan', 'Grace'] });
    expect(listCredentials(otherPartner, {}).total_items).toBe(0);
  });

  it('refuses a link to a credential that does not exist, and creates none of the call', () => {
    const before = listCredentials(nodeA, {}).total_items;
    expect(() => insertCredentials(nodeA, [body('Kept?', []), body('Broken', [], { credentials: ['0190d6c4-7a1b-7c2d-8e3f-123456789abc'] })])).toThrow(
      expect.objectContaining({ id: 'missing_credential' }),
    );
    expect(listCredentials(nodeB, {}).total_items).toBe(before);
  });

  it('logs one "created" entry per credential, in order, read on the other node', () => {
    const entries = listActivity(nodeB, { kind: 'created', sort_by: 'date', order: 'asc', per_page: 10 }).items;
    expect(entries.map((e) => [e.kind, e.actor])).toEqual(Array(4).fill(['created', 'tester']));
    const titles = entries.map((e) => getCredential(nodeB, e.credential_uid!).title);
    expect(titles).toEqual(['Ada', 'Grace', 'Alan', 'Ada (transcript)']);
  });

  it('schedules credentials into the open job on the engine; the other node lists and reads it', () => {
    const [ada, grace] = [titled('Ada'), titled('Grace')];
    const jobId = scheduleCredentials(nodeA, { engine: 'local', credentials: [ada.uid, grace.uid] });
    expect(scheduleCredentials(nodeA, { engine: 'local', credentials: [titled('Alan').uid] })).toBe(jobId);
    const jobs = listJobs(nodeB, { status: 'scheduled' });
    expect(jobs.total_items).toBe(1);
    expect(jobs.items[0]).toMatchObject({ status: 'scheduled', chain: 'local', partner: { id: nodeA.partner.id } });
    expect(getJob(nodeB, jobs.items[0]!.uid)).toEqual(jobs.items[0]);
    expect(listJobs(nodeB, { uid: ada.uid }).items.map((j) => j.uid)).toEqual([jobs.items[0]!.uid]);
    expect(listJobs(otherPartner, {}).total_items).toBe(0);
  });

  it('refuses to schedule a credential twice, or on an unknown engine, and changes nothing', () => {
    const [ada, grace, transcript] = [titled('Ada'), titled('Grace'), titled('Ada (transcript)')];
    expect(() => scheduleCredentials(nodeB, { engine: 'local', credentials: [transcript.uid, ada.uid] })).toThrow(expect.objectContaining({ id: 'credential_already_scheduled_or_issued' }));
    expect(() => scheduleCredentials(nodeB, { engine: 'mainnet-nowhere', credentials: [grace.uid] })).toThrow(expect.objectContaining({ id: 'wrong_blockchain_engine' }));
    expect(listJobs(nodeA, { uid: grace.uid }).total_items).toBe(1);
    expect(listJobs(nodeA, { uid: transcript.uid }).total_items).toBe(0);
  });

  it('unscheduling a credential nothing else holds deletes it, as the spec says', () => {
    const grace = titled('Grace');
    expect(unscheduleCredential(nodeB, grace.uid, 'local')).toEqual({ credential_uid: grace.uid, engine: 'local', credential_deleted: true });
    expect(() => getCredential(nodeA, grace.uid)).toThrow(expect.objectContaining({ id: 'missing_credential' }));
  });
});

describe.each(STORES)('credentials in batches on %s', (kind) => {
  let store: EngineStore;
  let scope: PartnerScope;
  /** More than one statement's rows on PostgreSQL (2,000 per statement). */
  const COUNT = 2_500;
  /** Titles and metadata with what an array parameter must quote: quotes, backslashes, braces, commas, NULL spelled out, spaces, non-Latin text. */
  const awkward = ['He said "hi", {then} left\\', 'NULL', '  ', 'Ünïcödé — 学位 ✓', 'a,b;c'];

  beforeAll(() => {
    store = createEngineStore(kind);
    const db = store.connect();
    const partner = new PartnerRegistry(db, systemClock).add({ name: 'Batch University' });
    scope = credentialScope(db, { id: partner.partner_id, name: 'Batch University' });
  });

  afterAll(() => store?.remove());

  const bodies = (count: number, extra: Record<string, unknown> = {}) =>
    Array.from({ length: count }, (_, i) =>
      parseCreateCredentialBody({ title: `${awkward[i % awkward.length]} ${i}`, metadata: { note: awkward[(i + 1) % awkward.length], i }, tags: i % 2 ? ['odd', `t-${i % 3}`] : [], ...extra }),
    );

  it(`creates ${COUNT} credentials in one call as written, in order, their tags filterable; one expired credential among them and none is created`, () => {
    const created = insertCredentials(scope, bodies(COUNT));
    const page = listCredentials(scope, { per_page: 0 });
    expect(page.items).toEqual(created);
    expect(created.map((c) => [c.title, c.metadata, c.tags, c.expiry_date])).toEqual(
      Array.from({ length: COUNT }, (_, i) => [`${awkward[i % awkward.length]} ${i}`, { note: awkward[(i + 1) % awkward.length], i }, i % 2 ? ['odd', `t-${i % 3}`] : [], null]),
    );
    expect(listCredentials(scope, { and_tags: 'odd,t-1', per_page: 0 }).items.map((c) => c.metadata['i'])).toEqual(
      Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 2 === 1 && i % 3 === 1),
    );
    const expired = parseCreateCredentialBody({ title: 'Expired', metadata: { a: 1 }, expiry_date: '2020-01-01T00:00:00Z' });
    expect(() => insertCredentials(scope, [...bodies(10), expired, ...bodies(2_100)])).toThrow(expect.objectContaining({ id: 'invalid_expiry_date' }));
    expect(listCredentials(scope, {}).total_items).toBe(COUNT);
  });

  it('finds every credential of a bulk create by the search box\'s words as soon as the call returns, and logs one "created" entry each, in order', () => {
    /** The words of a search for one credential alone: a finished word, not a prefix. */
    const found = (word: string) => {
      const { total, ids } = filterWindowIds(scope, { search: `${word} ` }, { by: 'upload_date', order: 'asc' }, 0, 10);
      return { word, total, uids: uidsOf(scope, ids) };
    };
    const earlier = listCredentials(scope, { per_page: 0 }).items;
    // At the edges of the rows a statement writes, in the call above.
    for (const i of [0, 1, 49, 50, 51, 999, 1_000, 2_449, 2_450, 2_499]) expect(found(String(i))).toEqual({ word: String(i), total: 1, uids: [earlier[i]!.uid] });
    // 67 rows: statements of 50, 10 and single rows.
    const late = insertCredentials(scope, Array.from({ length: 67 }, (_, i) => parseCreateCredentialBody({ title: `Nachzügler ${i}`, metadata: { code: `late${i}` } })));
    late.forEach((credential, i) => expect(found(`late${i}`)).toEqual({ word: `late${i}`, total: 1, uids: [credential.uid] }));
    const entries = listActivity(scope, { kind: 'created', sort_by: 'date', order: 'asc', per_page: 0 }).items;
    expect(entries.map((e) => e.credential_uid)).toEqual([...earlier, ...late].map((c) => c.uid));
  });

  it(`schedules ${COUNT} credentials in one call (a uid in capitals too); a missing or taken uid among others schedules none of them`, () => {
    const uids = listCredentials(scope, { per_page: 0 }).items.map((c) => c.uid);
    const late = insertCredentials(scope, bodies(3)).map((c) => c.uid);
    expect(() => scheduleCredentials(scope, { engine: 'local', credentials: [...uids.slice(0, 2_200), '0190d6c4-7a1b-7c2d-8e3f-123456789abc', late[0]] })).toThrow(
      expect.objectContaining({ id: 'missing_credential', message: expect.stringContaining('0190d6c4-7a1b-7c2d-8e3f-123456789abc') }),
    );
    expect(listJobs(scope, {}).total_items).toBe(0);
    const jobId = scheduleCredentials(scope, { engine: 'local', credentials: [uids[0]!.toUpperCase(), ...uids.slice(1)] });
    expect(listJobCredentials(scope, jobId, { per_page: 0 }).items.map((c) => c.uid)).toEqual(uids);
    expect(() => scheduleCredentials(scope, { engine: 'local', credentials: [...late, uids[COUNT - 1]] })).toThrow(
      expect.objectContaining({ id: 'credential_already_scheduled_or_issued', message: expect.stringContaining(uids[COUNT - 1]!) }),
    );
    expect(late.map((uid) => listJobs(scope, { uid }).total_items)).toEqual([0, 0, 0]);
  });

  it('refuses to schedule many credentials when one among them has expired by then, naming it, and schedules none of them', () => {
    const HOUR = 3_600_000;
    const fresh = insertCredentials(scope, [...bodies(60), parseCreateCredentialBody({ title: 'Short-lived', metadata: { a: 1 }, expiry_date: new Date(Date.now() + HOUR).toISOString() }), ...bodies(2)]);
    const uids = fresh.map((c) => c.uid);
    // The same Partner two hours on: the short-lived credential has expired.
    const later = Object.create(scope, { clock: { value: new ManualClock(Date.now() + 2 * HOUR) } }) as PartnerScope;
    expect(() => scheduleCredentials(later, { engine: 'local', credentials: uids })).toThrow(
      expect.objectContaining({ id: 'invalid_expiry_date', message: expect.stringContaining(uids[60]!) }),
    );
    // None of them was scheduled: all but the expired one join the open job now, in order.
    const rest = uids.filter((_, i) => i !== 60);
    const jobId = scheduleCredentials(later, { engine: 'local', credentials: rest });
    expect(listJobCredentials(scope, jobId, { per_page: 0 }).items.map((c) => c.uid).filter((uid) => uids.includes(uid))).toEqual(rest);
  });
});
