/**
 * Credentials (without files) created, read and listed, and the activity log they write, on
 * both stores: the engine's credential functions over SQLite and over PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listActivity } from '../../main/engine/activity.js';
import { systemClock } from '../../main/engine/clock.js';
import { parseCreateCredentialBody } from '../../main/engine/credential-input.js';
import { getCredential, insertCredentials, listCredentials } from '../../main/engine/credentials.js';
import type { Db } from '../../main/engine/database.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { createEngineStore, STORES, type EngineStore } from '../support/engine-stores.js';

/**
 * A Partner's scope for the credential functions: chains, stored files and issuing are not
 * reached by credentials without files, and say so if they are.
 */
function credentialScope(db: Db, partner: { id: string; name: string }): PartnerScope {
  const unused = (part: string) => () => {
    throw new Error(`credentials without files do not use the ${part}`);
  };
  const scope = { db, partner, clock: systemClock, actor: 'tester' };
  Object.defineProperty(scope, 'catalog', { get: unused('engine catalog') });
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
});
