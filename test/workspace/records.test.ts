/**
 * The records view's queries on a real SQLite engine: windows by offset with the total,
 * filters (tags, dates, state on an engine, search), sorting, per-engine states and tag
 * autocomplete; and the full-text search migration (kept in step, backfilled).
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DATABASE_FILE } from '../../main/engine/database.js';
import { MIGRATIONS } from '../../main/engine/migrations.js';
import { compressPayload } from '../../main/engine/proofs/payload-codec.js';
import { Engine } from '../../main/engine/index.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { markUnindexed } from '../../main/engine/search-index.js';
import { DEFAULT_RECORD_SORT, type RecordFilter } from '../../common/records.js';
import { IPC_ARGUMENT_VALIDATORS } from '../../common/ipc-contract.js';
import { ServiceError } from '../../common/errors.js';
import { recordWindow, tagSuggestions } from '../../main/workspace/record-query.js';
import { partnerMetadataKeyCounts, searchMatch } from '../../main/engine/index.js';
import { addPartner, makeTempDir, openEngineWithPartner, type EngineFixture, type TestPartner } from '../support/engine-fixture.js';

let fixture: EngineFixture;
let partner: TestPartner;
let scope: PartnerScope;

beforeEach(() => {
  ({ fixture, partner, scope } = openEngineWithPartner());
});
afterEach(() => fixture.close());

const window = (filter: RecordFilter = {}, offset = 0, limit = 50, sort = DEFAULT_RECORD_SORT) => recordWindow(scope, { filter, sort, offset, limit });

async function seed(n: number): Promise<string[]> {
  const created = await partner.service.createCredentials(
    Array.from({ length: n }, (_, i) => ({
      title: `Diploma ${String.fromCharCode(65 + (i % 26))} ${i}`,
      metadata: { student: `Student${i}`, programme: i % 2 === 0 ? 'Mathematics' : 'History', nested: { city: i % 3 === 0 ? 'Zürich' : 'Bern' } },
      tags: [i % 2 === 0 ? 'even' : 'odd', `group-${i % 5}`],
    })),
  );
  return created.map((c) => c.uid);
}

describe('records window', () => {
  it('pages by offset and limit with the total, in creation order or by title', async () => {
    const uids = await seed(120);
    const first = window({}, 0, 50);
    expect(first.total).toBe(120);
    expect(first.rows.map((r) => r.uid)).toEqual(uids.slice(0, 50));
    expect(window({}, 110, 50).rows.map((r) => r.uid)).toEqual(uids.slice(110));
    // An offset that is not a multiple of the limit (a scrolled virtual table).
    expect(window({}, 37, 10).rows.map((r) => r.uid)).toEqual(uids.slice(37, 47));
    const desc = window({}, 0, 3, { by: 'upload_date', order: 'desc' });
    expect(desc.rows.map((r) => r.uid)).toEqual(uids.slice(-3).reverse());
    const byTitle = window({}, 0, 120, { by: 'title', order: 'asc' }).rows.map((r) => r.title);
    expect(byTitle).toEqual([...byTitle].sort());
  });

  it('filters by and/or tags, upload date range, and combines them', async () => {
    await seed(50);
    expect(window({ andTags: ['even', 'group-0'] }).total).toBe(5);
    expect(window({ orTags: ['group-1', 'group-2'] }).total).toBe(20);
    expect(window({ andTags: ['odd'], orTags: ['group-1', 'group-3'] }).total).toBe(10);
    fixture.clock.advance(86_400_000 * 2);
    await partner.service.createCredential({ title: 'Later', metadata: { a: 1 } });
    const now = new Date(fixture.clock.now()).toISOString();
    expect(window({ uploadedFrom: now }).rows.map((r) => r.title)).toEqual(['Later']);
    expect(window({ uploadedTo: new Date(fixture.clock.now() - 86_400_000).toISOString() }).total).toBe(50);
    expect(window({ uploadedFrom: now, andTags: ['even'] }).total).toBe(0);
  });

  it('shows files, links, link counts and the state on every engine, and filters by state', async () => {
    const [a, b, c] = await seed(3);
    const linked = await partner.service.createCredential({ title: 'Transcript', metadata: { x: 1 }, credentials: [a!, b!] });
    await partner.service.scheduleCredentials({ engine: 'local', credentials: [a!, linked.uid] });
    await partner.service.scheduleCredentials({ engine: 'sepolia', credentials: [a!] });
    const rows = window().rows;
    const row = (uid: string) => rows.find((r) => r.uid === uid)!;
    expect(window().engines).toEqual(['local', 'sepolia']);
    expect(row(a!).states).toEqual({ local: 'scheduled', sepolia: 'scheduled' });
    expect(row(c!).states).toEqual({ local: 'not_scheduled', sepolia: 'not_scheduled' });
    expect(row(linked.uid).linkedUids).toEqual([a, b]);
    expect(row(a!).linkedFromCount).toBe(1);
    expect(window({ state: { engine: 'local', states: ['scheduled'] } }).rows.map((r) => r.uid)).toEqual([a, linked.uid]);
    expect(window({ state: { engine: 'local', states: ['not_scheduled'] } }).rows.map((r) => r.uid)).toEqual([b, c]);
    expect(window({ state: { engine: 'sepolia', states: ['not_scheduled', 'scheduled'] } }).total).toBe(4);

    // Issuing states need a chain; here the job's status and the revocation are set in SQL
    // (the issuing tests cover how they get there) to check the mapping of each.
    const db = scope.db;
    db.prepare("UPDATE jobs SET status = 'started' WHERE engine = 'sepolia'").run();
    expect(window().rows.find((r) => r.uid === a)!.states.sepolia).toBe('issuing');
    db.prepare("UPDATE jobs SET status = 'finished' WHERE engine = 'sepolia'").run();
    expect(window({ state: { engine: 'sepolia', states: ['issued'] } }).rows.map((r) => r.uid)).toEqual([a]);
  });

  it('recounts the total after any write, by this process or another sharing the data directory', async () => {
    await seed(10);
    expect(window({ andTags: ['even'] }).total).toBe(5);
    expect(window({ andTags: ['even'] }, 3, 2).total).toBe(5);
    await partner.service.createCredential({ title: 'More', metadata: { a: 1 }, tags: ['even'] });
    expect(window({ andTags: ['even'] }).total).toBe(6);
    // Another process (here: another connection) adds a credential with the tag.
    const other = new Database(join(fixture.dataDir, DATABASE_FILE));
    try {
      const id = other
        .prepare("INSERT INTO credentials (uid, partner_id, title, metadata, upload_date, tags) VALUES ('0190a000-0000-7000-8000-0000000000aa', ?, 'From elsewhere', '{}', 0, '[\"even\"]')")
        .run(partner.id).lastInsertRowid;
      other.prepare("INSERT INTO credential_tags (partner_id, tag, credential_id) VALUES (?, 'even', ?)").run(partner.id, id);
      markUnindexed(other, [Number(id)]);
    } finally {
      other.close();
    }
    expect(window({ andTags: ['even'] }).total).toBe(7);
    expect(window({ search: 'elsewhere' }).total).toBe(1);
  });

  it('reads files with their hashes and types', async () => {
    const file = await partner.service.uploadFile({ file: { data: Buffer.from('%PDF-1.4 diploma'), name: 'd.pdf' } });
    const created = await partner.service.createCredential({ title: 'With a file', metadata: {}, files: [file.file_hash] });
    const row = window().rows.find((r) => r.uid === created.uid)!;
    expect(row.fileCount).toBe(1);
    expect(row.files[0]!.hash).toBe(file.file_hash);
  });

  it('refuses bad window requests with the spec ids and changes nothing', () => {
    const bad = (value: unknown) => {
      try {
        IPC_ARGUMENT_VALIDATORS['records:window']([value]);
      } catch (error) {
        return (error as ServiceError).id;
      }
      return 'accepted';
    };
    expect(bad({ offset: -1, limit: 10 })).toBe('wrong_pagination_argument');
    expect(bad({ offset: 0, limit: 100_000 })).toBe('wrong_pagination_argument');
    expect(bad({ offset: 0, limit: 10, sort: { by: 'expiry' } })).toBe('wrong_pagination_argument');
    expect(bad({ offset: 0, limit: 10, filter: { andTags: ['x'] } })).toBe('invalid_tag');
    expect(bad({ offset: 0, limit: 10, filter: { uploadedFrom: '2026-02-31' } })).toBe('invalid_value');
    expect(bad({ offset: 0, limit: 10, filter: { state: { engine: 'local', states: ['lost'] } } })).toBe('invalid_value');
    expect(bad({ offset: 0, limit: 10, filter: { colour: 'red' } })).toBe('invalid_value');
    expect(() => window(IPC_ARGUMENT_VALIDATORS['records:total']([{ state: { engine: 'nowhere', states: ['scheduled'] } }])[0])).toThrow(ServiceError);
  });

  it('suggests tags by prefix with counts, most used first, only the Partner’s own', async () => {
    await seed(20);
    const other = addPartner(fixture.engine, 'College B');
    await other.service.createCredential({ title: 'B', metadata: { a: 1 }, tags: ['group-9', 'even'] });
    expect(tagSuggestions(scope, 'gro')).toEqual([0, 1, 2, 3, 4].map((i) => ({ tag: `group-${i}`, count: 4 })));
    expect(tagSuggestions(scope, '')).toEqual(expect.arrayContaining([{ tag: 'even', count: 10 }, { tag: 'odd', count: 10 }]));
    expect(tagSuggestions(scope, 'EV')).toEqual([{ tag: 'even', count: 10 }]);
    expect(tagSuggestions(scope, 'group_')).toEqual([]);
    expect(tagSuggestions(scope, 'gro', 2)).toHaveLength(2);
    // Counts follow writes at once.
    await partner.service.addCredentialTags({ credentials: [{ credential_uid: (await partner.service.listCredentials()).items[0]!.uid, tags: ['Mixed-Case'] }] });
    expect(tagSuggestions(scope, 'mixed')).toEqual([{ tag: 'Mixed-Case', count: 1 }]);
    expect(tagSuggestions(scope, 'EVEN')).toEqual([{ tag: 'even', count: 10 }]);
  });

  it('counts the metadata keys with a plain value, most used first, only the Partner’s own, and shows their values in rows', async () => {
    await seed(6);
    await partner.service.createCredential({ title: 'Extra', metadata: { student: 'Ada', grade: 1.3, honours: true, list: [1] } });
    const other = addPartner(fixture.engine, 'College B');
    await other.service.createCredential({ title: 'B', metadata: { secret_key: 'x', student: 'Bob' } });
    // `nested` and `list` hold no plain value: no column for them.
    expect(partnerMetadataKeyCounts(scope, 10)).toEqual([
      { key: 'student', count: 7 },
      { key: 'programme', count: 6 },
      { key: 'grade', count: 1 },
      { key: 'honours', count: 1 },
    ]);
    expect(partnerMetadataKeyCounts(scope, 2).map((k) => k.key)).toEqual(['student', 'programme']);
    // Counts follow writes at once.
    await partner.service.createCredential({ title: 'Later', metadata: { honours: false } });
    expect(partnerMetadataKeyCounts(scope, 10).find((k) => k.key === 'honours')?.count).toBe(2);
    const rows = window({}, 0, 10).rows;
    expect(rows[0]!.metadata).toEqual({ student: 'Student0', programme: 'Mathematics' });
    expect(rows[6]!.metadata).toEqual({ student: 'Ada', grade: '1.3', honours: 'true' });
  });
});

describe('search', () => {
  it('finds records by any word of the title or of metadata values, the last word as a prefix', async () => {
    const uids = await seed(30);
    expect(window({ search: 'Student7' }).rows.map((r) => r.uid)).toEqual([uids[7]]);
    expect(window({ search: 'mathematics' }).total).toBe(15);
    expect(window({ search: 'zurich' }).total).toBe(10);
    expect(window({ search: 'Diploma C 2' }).rows.map((r) => r.uid)).toEqual([uids[2]!, uids[28]!]);
    expect(window({ search: 'hist' }).total).toBe(15);
    expect(window({ search: 'hist ' }).total).toBe(0);
    // Keys are not words of the record; FTS syntax typed by a user is plain text.
    expect(window({ search: 'programme' }).total).toBe(0);
    expect(window({ search: 'NEAR( "Student1" OR *' }).total).toBe(0);
    expect(window({ search: '!!!' }).total).toBe(0);
    expect(window({ search: 'Student1 ', andTags: ['odd'] }).rows.map((r) => r.uid)).toEqual([uids[1]]);
    expect(window({ search: 'Student1', andTags: ['odd'] }).total).toBe(6);
    expect(searchMatch('dipl')).toBe('"dipl"*');
    expect(window({ search: 'Zu\u0308rich' }).total).toBe(10);
    // A search alone is counted and paged by the search index: offsets, both orders, by title.
    expect(window({ search: 'diploma' }, 25, 10).rows.map((r) => r.uid)).toEqual(uids.slice(25, 30));
    expect(window({ search: 'diploma' }, 0, 3, { by: 'upload_date', order: 'desc' }).rows.map((r) => r.uid)).toEqual(uids.slice(-3).reverse());
    const titles = window({ search: 'history' }, 0, 50, { by: 'title', order: 'desc' }).rows.map((r) => r.title);
    expect(titles).toHaveLength(15);
    expect(titles).toEqual([...titles].sort().reverse());
  });

  it('keeps the index in step with credentials created and deleted, and only for the Partner', async () => {
    await partner.service.createCredential({ title: 'Certificate of attendance', metadata: { note: 'quokka' } });
    const other = addPartner(fixture.engine, 'College B');
    await other.service.createCredential({ title: 'Other', metadata: { note: 'quokka' } });
    const scheduled = await partner.service.createCredential({ title: 'Wombat record', metadata: { a: 1 } });
    await partner.service.scheduleCredentials({ engine: 'local', credentials: [scheduled.uid] });
    expect(window({ search: 'quokka' }).total).toBe(1);
    expect(window({ search: 'wombat' }).total).toBe(1);
    // Unscheduling a credential nothing else holds deletes it: it leaves the index too.
    await partner.service.unscheduleCredential(scheduled.uid, 'local');
    expect(window({ search: 'wombat' }).total).toBe(0);
    expect(scope.db.prepare("SELECT count(*) FROM credentials_fts WHERE credentials_fts MATCH 'wombat'").pluck().get()).toBe(0);
  });

  it('after the upgrade that has the inserts write the index, finds what the trigger indexed and what each insert path adds, each once', async () => {
    const dataDir = makeTempDir();
    // A database at the schema before (14), its credential indexed by the trigger per row.
    const old = new Database(join(dataDir, DATABASE_FILE));
    old.function('proofdesk_compress_payload', { deterministic: true }, (text, dictionary) => compressPayload(text as string, dictionary as Buffer));
    for (const migration of MIGRATIONS.slice(0, 14)) old.exec(migration);
    old.pragma('user_version = 14');
    old.prepare("INSERT INTO partners (id, name, client_id, secret_hash, issuing_interval_s, created_date, number) VALUES ('p1', 'Old', 'cid', 'hash', 3600, 0, 1)").run();
    old.prepare(`INSERT INTO credentials (uid, partner_id, title, metadata, upload_date, tags) VALUES ('0190a000-0000-7000-8000-000000000001', 'p1', 'Old diploma', '{"student":"Ada Lovelace"}', 0, '[]')`).run();
    old.close();
    const engine = Engine.open({ dataDir, sweepIntervalMs: false });
    try {
      const service = engine.serviceFor('p1');
      await service.createCredentials([
        { title: 'Bulk one', metadata: { student: 'Grace Hopper', courses: [{ name: 'Compilers' }] } },
        { title: 'Bulk two', metadata: { student: 'Alan Turing' } },
      ]);
      await service.createCredential({ title: 'Single', metadata: { student: 'Emmy Noether' } });
      const linked = await service.createCredential({ title: 'Linking', metadata: { student: 'Kurt Gödel' }, credentials: [(await service.listCredentials({})).items[0]!.uid] });
      const oldScope = engine.scopeFor('p1');
      const titles = (search: string) => recordWindow(oldScope, { filter: { search }, sort: DEFAULT_RECORD_SORT, offset: 0, limit: 10 }).rows.map((r) => r.title);
      expect(titles('lovelace')).toEqual(['Old diploma']);
      expect(titles('compilers')).toEqual(['Bulk one']);
      expect(titles('turing')).toEqual(['Bulk two']);
      expect(titles('noether')).toEqual(['Single']);
      expect(titles('godel')).toEqual(['Linking']);
      expect(titles('bulk')).toEqual(['Bulk one', 'Bulk two']);
      await service.scheduleCredentials({ engine: 'local', credentials: [linked.uid] });
      await service.unscheduleCredential(linked.uid, 'local');
      expect(titles('godel')).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('the migration backfills credentials that existed before it', async () => {
    const dataDir = makeTempDir();
    // A database at the schema before search, holding a credential.
    const old = new Database(join(dataDir, DATABASE_FILE));
    // Migrations 1 and 2: the one before search (3) is the second.
    for (const migration of MIGRATIONS.slice(0, 2)) old.exec(migration);
    old.pragma('user_version = 2');
    old.prepare("INSERT INTO partners VALUES ('p1', 'Old', 'cid', 'hash', 3600, 0)").run();
    old.prepare(`INSERT INTO credentials (uid, partner_id, title, metadata, upload_date, tags) VALUES ('0190a000-0000-7000-8000-000000000001', 'p1', 'Old diploma', '{"student":"Ada Lovelace"}', 0, '[]')`).run();
    old.close();
    const engine = Engine.open({ dataDir, sweepIntervalMs: false });
    try {
      const oldScope = engine.scopeFor('p1');
      expect(recordWindow(oldScope, { filter: { search: 'lovelace' }, sort: DEFAULT_RECORD_SORT, offset: 0, limit: 10 }).rows.map((r) => r.title)).toEqual(['Old diploma']);
    } finally {
      await engine.close();
    }
  });
});
