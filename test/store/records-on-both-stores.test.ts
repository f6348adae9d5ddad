/**
 * The app's records workspace on both stores: windows of records filtered by tags, state,
 * upload date and words, in every sort, select-all-matching with a bulk tag edit and its undo,
 * the metadata keys offered as columns, linked records, and the certificates an export writes.
 * What an admin sees must not depend on the store: the same rows, in the same order. The
 * PostgreSQL database sorts text by a real locale (en-US) by default, as an operator's would.
 *
 * Issuing and stored files do not run in these suites: a job's certificates are written by a
 * stand-in for the issuing runtime (standInIssue), and a file's rows by a stand-in for an upload
 * (standInFile), the rows each leaves behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordFilter, RecordSort } from '../../common/records.js';
import { listActivity, recordExports } from '../../main/engine/activity.js';
import { writeBatch } from '../../main/engine/batch-records.js';
import { ManualClock, type Clock } from '../../main/engine/clock.js';
import { parseCreateCredentialBody, parseCredentialDetails } from '../../main/engine/credential-input.js';
import { insertCredentials } from '../../main/engine/credentials.js';
import { inWriteLock, type Db } from '../../main/engine/database.js';
import { EngineCatalog } from '../../main/engine/engine-catalog.js';
import { listJobs } from '../../main/engine/jobs.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import { editTagsRemembering, restoreTagsOf } from '../../main/engine/records/bulk-changes.js';
import { certificatesOfFile } from '../../main/engine/records/certificates-of-file.js';
import { existingCredentialUids, fileOfCredential, findExistingByHash } from '../../main/engine/records/credential-lookups.js';
import { exportableOfCredentials, exportableOfJob } from '../../main/engine/records/exportable-certificates.js';
import { partnerMetadataKeyCounts } from '../../main/engine/records/metadata-keys.js';
import { recordGraphOf } from '../../main/engine/records/record-graph.js';
import { filterWindowIds, partnerTagCounts, readRecordRows } from '../../main/engine/records/records-window.js';
import { countFilter, idsOfExisting, idsOfFilter, idsOfRanges, idsOfUids, uidsOf } from '../../main/engine/records/selection-ids.js';
import { scheduleCredentials } from '../../main/engine/scheduling.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { createEngineStore, STORES, type EngineStore } from '../support/engine-stores.js';

const START = Date.UTC(2026, 2, 1, 9);
const DAY = 86_400_000;

/** A Partner's scope for the records workspace: stored files and issuing are not reached (they say so if they are). */
function recordsScope(db: Db, partner: { id: string; name: string }, clock: Clock): PartnerScope {
  const unused = (part: string) => () => {
    throw new Error(`the records workspace does not use the ${part} here`);
  };
  const scope = { db, partner, clock, actor: 'tester', catalog: new EngineCatalog() };
  Object.defineProperty(scope, 'store', { get: unused('file store') });
  Object.defineProperty(scope, 'issuing', { get: unused('issuing runtime') });
  return scope as PartnerScope;
}

/** Titles in the order SQLite's BINARY collation sorts them (UTF-8 bytes), ties by creation. */
function bytewise(a: { title: string; n: number }, b: { title: string; n: number }): number {
  return Buffer.compare(Buffer.from(a.title), Buffer.from(b.title)) || a.n - b.n;
}

const SORTS: RecordSort[] = [
  { by: 'upload_date', order: 'asc' },
  { by: 'upload_date', order: 'desc' },
  { by: 'title', order: 'asc' },
  { by: 'title', order: 'desc' },
];

/** The records created, in creation order: title, metadata, tags and the day (0-based) of upload. */
const RECORDS = [
  { title: 'Diploma in Physics', metadata: { student: 'Jürgen Müller', city: 'Köln', matriculation: 482913 }, tags: ['phys', 'y2026'], day: 0 },
  { title: 'diploma in chemistry', metadata: { student: 'Ada Muller', address: { city: 'Graz' } }, tags: ['chem', 'y2026'], day: 0 },
  { title: 'Zertifikat Ökologie', metadata: { student: 'Émile Zola' }, tags: ['bio'], day: 0 },
  { title: 'Über Grundlagen', metadata: { student: 'Zoë Ng', honours: true }, tags: ['bio', 'y2025', 'Zoology'], day: 0 },
  { title: 'Diplomarbeit', metadata: { student: 'Grace Hopper', note: 'AND NEAR * "quoted" Σίσυφος' }, tags: ['phys'], day: 1 },
  { title: 'apple', metadata: { student: 'alan turing' }, tags: [], day: 1 },
  { title: 'Apple', metadata: { student: 'Alan Turing' }, tags: ['chem'], day: 1 },
] as const;

/** The records the app's batch intake writes on day 2, scheduled on the local engine. */
const BATCH = [
  { title: 'Batch One', metadata: { student: 'Hans Müller-Lüdenscheidt' }, tags: ['batch'] },
  { title: 'Batch Two', metadata: { student: 'Ida Pfeiffer' }, tags: ['batch', 'phys'] },
] as const;

describe.each(STORES)('the records workspace on %s', (kind) => {
  let store: EngineStore;
  let clock: ManualClock;
  let nodeA: PartnerScope;
  let nodeB: PartnerScope;
  let otherPartner: PartnerScope;
  /** uid by title, for every record of the Partner. */
  const uid: Record<string, string> = {};
  /** Every record of the Partner: title, creation position, tags, day and state on `local`. */
  let all: { title: string; n: number; tags: string[]; day: number; state: string }[];
  let finishedJobUid: string;

  /** A stand-in for the issuing runtime: the job's status, and a certificate per credential as issuing leaves them. */
  function standInIssue(db: Db, jobId: number, status: 'started' | 'finished'): void {
    db.prepare('UPDATE jobs SET status = ? WHERE id = ?').run(status, jobId);
    if (status !== 'finished') return;
    const credentials = db.prepare('SELECT credential_id FROM job_credentials WHERE job_id = ? ORDER BY credential_id').pluck().all(jobId) as number[];
    const insert = db.prepare(
      "INSERT INTO certificates (uid, partner_id, credential_id, job_id, engine, leaf_index, leaf, payload, signature) VALUES (?, ?, ?, ?, 'local', ?, ?, ?, ?)",
    );
    credentials.forEach((credentialId, leafIndex) =>
      insert.run(`0190d6c4-0000-7000-8000-${String(credentialId).padStart(12, '0')}`, nodeA.partner.id, credentialId, jobId, leafIndex, Buffer.alloc(32, 1), Buffer.from('{}'), Buffer.alloc(64, 2)),
    );
  }

  const idOf = (title: string) => nodeA.db.prepare('SELECT id FROM credentials WHERE uid = ?').pluck().get(uid[title]) as number;

  beforeAll(() => {
    store = createEngineStore(kind, { icuLocale: 'en-US' });
    clock = new ManualClock(START);
    const a = store.connect();
    const b = store.connect();
    const partners = new PartnerRegistry(a, clock);
    const mine = partners.add({ name: 'Uni Süd' });
    const theirs = partners.add({ name: 'Other' });
    nodeA = recordsScope(a, { id: mine.partner_id, name: 'Uni Süd' }, clock);
    nodeB = recordsScope(b, { id: mine.partner_id, name: 'Uni Süd' }, clock);
    otherPartner = recordsScope(b, { id: theirs.partner_id, name: 'Other' }, clock);

    // Another Partner's records carry the same words and tags: they never appear.
    insertCredentials(otherPartner, [parseCreateCredentialBody({ title: 'Diploma in Physics', metadata: { student: 'Jürgen Müller' }, tags: ['phys', 'batch'] })]);

    for (const day of [0, 1]) {
      const created = insertCredentials(
        nodeA,
        RECORDS.filter((r) => r.day === day).map((r) =>
          parseCreateCredentialBody({ title: r.title, metadata: r.metadata, tags: [...r.tags], ...(r.title === 'Diplomarbeit' ? { credentials: [uid['Diploma in Physics']] } : {}) }),
        ),
      );
      for (const c of created) uid[c.title] = c.uid;
      clock.advance(DAY);
    }

    // Day 0's first four: one job issuing, one issued (then one of its certificates revoked), one scheduled.
    const issuing = scheduleCredentials(nodeA, { engine: 'local', credentials: [uid['Über Grundlagen']] });
    standInIssue(a, issuing, 'started');
    const finished = scheduleCredentials(nodeA, { engine: 'local', credentials: [uid['Diploma in Physics'], uid['diploma in chemistry']] });
    standInIssue(a, finished, 'finished');
    finishedJobUid = listJobs(nodeA, {}).items.find((j) => j.status === 'finished')!.uid;
    a.prepare('UPDATE certificates SET revoked_date = ? WHERE credential_id = ?').run(clock.now(), idOf('diploma in chemistry'));
    scheduleCredentials(nodeA, { engine: 'local', credentials: [uid['Zertifikat Ökologie']] });

    // Day 2: the batch intake, joining the open job, one record linking to an earlier one; then a single create after it.
    const items = BATCH.map((r, i) => ({
      details: parseCredentialDetails({ title: r.title, metadata: r.metadata, tags: [...r.tags], ...(i === 0 ? { credentials: [uid.Diplomarbeit] } : {}) }, false),
      staged: undefined,
    }));
    const written = inWriteLock(a, () => writeBatch(nodeA, 'local', items, []));
    for (const result of written) {
      if (!result || !('credential' in result)) throw new Error(`the batch refused a record: ${JSON.stringify(result)}`);
      uid[result.credential.title] = result.credential.uid;
    }
    const [after] = insertCredentials(nodeA, [parseCreateCredentialBody({ title: 'After Batch', metadata: { student: 'Nils' }, tags: ['y2026'] })]);
    uid['After Batch'] = after!.uid;

    const state: Record<string, string> = {
      'Über Grundlagen': 'issuing',
      'Diploma in Physics': 'issued',
      'diploma in chemistry': 'revoked',
      'Zertifikat Ökologie': 'scheduled',
      'Batch One': 'scheduled',
      'Batch Two': 'scheduled',
    };
    all = [
      ...RECORDS.map((r) => ({ title: r.title, tags: [...r.tags] as string[], day: r.day })),
      ...BATCH.map((r) => ({ title: r.title, tags: [...r.tags] as string[], day: 2 })),
      { title: 'After Batch', tags: ['y2026'], day: 2 },
    ].map((r, n) => ({ ...r, n, state: state[r.title] ?? 'not_scheduled' }));
  });

  afterAll(() => store?.remove());

  /** The titles of a window, read on the other node, with its total. */
  function window(filter: RecordFilter, sort: RecordSort, offset = 0, limit = 100, scope = nodeB): { total: number; titles: string[] } {
    const { total, ids } = filterWindowIds(scope, filter, sort, offset, limit);
    return { total, titles: readRecordRows(scope, ids, ['local']).map((r) => r.title) };
  }

  /** The records matching `keep`, in a sort, as an admin expects them. */
  function expected(keep: (r: (typeof all)[number]) => boolean, sort: RecordSort): string[] {
    const rows = all.filter(keep);
    rows.sort(sort.by === 'title' ? bytewise : (x, y) => x.n - y.n);
    if (sort.order === 'desc') rows.reverse();
    return rows.map((r) => r.title);
  }

  describe('windows of records', () => {
    const FILTERS: [string, RecordFilter, (r: (typeof all)[number]) => boolean][] = [
      ['no filter', {}, () => true],
      ['one tag', { andTags: ['phys'] }, (r) => r.tags.includes('phys')],
      ['all of two tags', { andTags: ['chem', 'y2026'] }, (r) => r.tags.includes('chem') && r.tags.includes('y2026')],
      ['any of two tags', { orTags: ['bio', 'batch'] }, (r) => r.tags.includes('bio') || r.tags.includes('batch')],
      ['a tag and an upload date range', { orTags: ['phys', 'y2026'], uploadedFrom: '2026-03-02', uploadedTo: '2026-03-03T23:59:59Z' }, (r) => (r.tags.includes('phys') || r.tags.includes('y2026')) && r.day >= 1],
      ['uploaded from a date', { uploadedFrom: '2026-03-03' }, (r) => r.day === 2],
      ['a state', { state: { engine: 'local', states: ['scheduled'] } }, (r) => r.state === 'scheduled'],
      ['several states', { state: { engine: 'local', states: ['issued', 'revoked', 'issuing'] } }, (r) => ['issued', 'revoked', 'issuing'].includes(r.state)],
      ['not scheduled', { state: { engine: 'local', states: ['not_scheduled'] } }, (r) => r.state === 'not_scheduled'],
      ['a state and a tag', { state: { engine: 'local', states: ['scheduled', 'not_scheduled'] }, andTags: ['bio'] }, (r) => r.tags.includes('bio') && ['scheduled', 'not_scheduled'].includes(r.state)],
    ];

    it.each(FILTERS)('%s: the same rows in the same order in every sort, titles byte by byte', (_, filter, keep) => {
      for (const sort of SORTS) {
        const want = expected(keep, sort);
        expect(window(filter, sort), `${sort.by} ${sort.order}`).toEqual({ total: want.length, titles: want });
      }
    });

    it('pages a sorted window without gaps or overlaps', () => {
      const sort: RecordSort = { by: 'title', order: 'asc' };
      const pages = [0, 3, 6, 9].flatMap((offset) => window({}, sort, offset, 3).titles);
      expect(pages).toEqual(expected(() => true, sort));
    });

    it('reads each row with its tags, state, links, dates and metadata columns', () => {
      const rows = readRecordRows(nodeB, idsOfUids(nodeB, [uid['Diploma in Physics']!, uid['Batch One']!, uid['diploma in chemistry']!]), ['local']);
      expect(rows.map((r) => ({ title: r.title, tags: r.tags, state: r.states.local, linkedUids: r.linkedUids, linkedFromCount: r.linkedFromCount }))).toEqual([
        { title: 'Diploma in Physics', tags: ['phys', 'y2026'], state: 'issued', linkedUids: [], linkedFromCount: 1 },
        { title: 'Batch One', tags: ['batch'], state: 'scheduled', linkedUids: [uid.Diplomarbeit], linkedFromCount: 0 },
        { title: 'diploma in chemistry', tags: ['chem', 'y2026'], state: 'revoked', linkedUids: [], linkedFromCount: 0 },
      ]);
      expect(rows[0]!.uploadDate).toBe(new Date(START).toISOString());
      expect(rows[0]!.metadata).toMatchObject({ student: 'Jürgen Müller', city: 'Köln', matriculation: '482913' });
    });

    it('offers the tags with their counts, most used first, then by tag byte by byte', () => {
      expect(partnerTagCounts(nodeB)).toEqual([
        { tag: 'phys', count: 3 },
        { tag: 'y2026', count: 3 },
        { tag: 'batch', count: 2 },
        { tag: 'bio', count: 2 },
        { tag: 'chem', count: 2 },
        { tag: 'Zoology', count: 1 },
        { tag: 'y2025', count: 1 },
      ]);
    });

    it("never shows another Partner's records", () => {
      expect(window({}, SORTS[0]!, 0, 100, otherPartner).titles).toEqual(['Diploma in Physics']);
      expect(window({ andTags: ['batch'] }, SORTS[2]!, 0, 100, otherPartner).titles).toEqual(['Diploma in Physics']);
      expect(window({ search: 'müller' }, SORTS[0]!, 0, 100, otherPartner).titles).toEqual(['Diploma in Physics']);
      expect(window({ state: { engine: 'local', states: ['scheduled', 'issued'] } }, SORTS[0]!, 0, 100, otherPartner).total).toBe(0);
      expect(() => idsOfUids(otherPartner, [uid.Apple!])).toThrow(expect.objectContaining({ id: 'missing_credential' }));
      expect(idsOfExisting(otherPartner, [uid.Apple!, uid.apple!])).toEqual([]);
      expect(existingCredentialUids(otherPartner, [uid.Apple!])).toEqual(new Set());
    });
  });

  describe('word search', () => {
    const SEARCHES: [string, string, string[]][] = [
      ['a plain word of a title', 'physics', ['Diploma in Physics']],
      ['a word in any case', 'APPLE', ['apple', 'Apple']],
      ['the last word as a prefix', 'dipl', ['Diploma in Physics', 'diploma in chemistry', 'Diplomarbeit']],
      ['a finished word, not a prefix', 'dipl ', []],
      ['a word without its diacritics', 'Muller', ['Diploma in Physics', 'diploma in chemistry', 'Batch One']],
      ['a word with diacritics it lacks', 'Mûller', ['Diploma in Physics', 'diploma in chemistry', 'Batch One']],
      ['ü spelled ue is another word', 'ueber', []],
      ['a title word without its diacritic', 'uber', ['Über Grundlagen']],
      ['two words, both required', 'muller koln', ['Diploma in Physics']],
      ['two words in another order, the last a prefix', 'köln jürg', ['Diploma in Physics']],
      ['a nested metadata value', 'graz', ['diploma in chemistry']],
      ['a number in metadata', '482913', ['Diploma in Physics']],
      ['a hyphenated value, word by word', 'ludenscheidt', ['Batch One']],
      ['a metadata key is not a value', 'student', []],
      ['query syntax as plain words', 'AND NEAR', ['Diplomarbeit']],
      ['a quote and a star', '"quoted" *', ['Diplomarbeit']],
      ['Greek in capitals, its final sigma as any sigma', 'ΣΊΣΥΦΟΣ', ['Diplomarbeit']],
      ['Greek typed with a plain sigma at the end', 'σίσυφοσ', ['Diplomarbeit']],
      ['punctuation alone', '!?-', []],
      ['a word nobody has', 'zzzz', []],
    ];

    it.each(SEARCHES)('%s (%j) finds the same records in every sort', (_, search, titles) => {
      for (const sort of SORTS) {
        const want = expected((r) => titles.includes(r.title), sort);
        expect(window({ search }, sort), `${sort.by} ${sort.order}`).toEqual({ total: want.length, titles: want });
      }
    });

    it('pages a search, and answers a window past its end with the total and no rows', () => {
      const sort: RecordSort = { by: 'title', order: 'desc' };
      const want = expected((r) => ['Diploma in Physics', 'diploma in chemistry', 'Batch One'].includes(r.title), sort);
      expect([0, 2].flatMap((offset) => window({ search: 'muller' }, sort, offset, 2).titles)).toEqual(want);
      expect(window({ search: 'muller' }, sort, 2, 2)).toEqual({ total: 3, titles: want.slice(2) });
      expect(window({ search: 'mull' }, sort, 10, 2)).toEqual({ total: 3, titles: [] });
      expect(window({ search: 'mull' }, sort, 0, 2)).toEqual({ total: 3, titles: want.slice(0, 2) });
    });

    it('combines a search with tags, dates and states', () => {
      expect(window({ search: 'muller', andTags: ['y2026'] }, SORTS[2]!).titles).toEqual(['Diploma in Physics', 'diploma in chemistry']);
      expect(window({ search: 'muller', uploadedFrom: '2026-03-03' }, SORTS[0]!).titles).toEqual(['Batch One']);
      expect(window({ search: 'muller', state: { engine: 'local', states: ['revoked', 'scheduled'] } }, SORTS[1]!).titles).toEqual(['Batch One', 'diploma in chemistry']);
    });

    it('finds a record created after the search ran once, and the other node finds it too', () => {
      expect(window({ search: 'ornithology' }, SORTS[0]!).total).toBe(0);
      clock.advance(DAY);
      const [bird] = insertCredentials(nodeA, [parseCreateCredentialBody({ title: 'Ornithology Basics', metadata: { student: 'Ørjan' }, tags: ['late'] })]);
      all.push({ title: 'Ornithology Basics', n: all.length, tags: ['late'], day: 3, state: 'not_scheduled' });
      uid['Ornithology Basics'] = bird!.uid;
      // On SQLite the create only queued it for the search index; the search indexes it first.
      const queued = () => nodeA.db.prepare('SELECT count(*) FROM credentials_unindexed WHERE id = ?').pluck().get(idOf('Ornithology Basics'));
      if (kind === 'sqlite') expect(queued()).toBe(1);
      expect(window({ search: 'ornitho' }, SORTS[0]!).titles).toEqual(['Ornithology Basics']);
      if (kind === 'sqlite') expect(queued()).toBe(0);
      expect(window({ search: 'ornithology basics' }, SORTS[0]!, 0, 100, nodeA).titles).toEqual(['Ornithology Basics']);
    });
  });

  describe('selections and bulk tag changes', () => {
    it('resolves select-all-matching to the same records: by search, by tags, by several conditions, less exceptions', () => {
      const titlesOf = (ids: number[]) => readRecordRows(nodeB, ids, ['local']).map((r) => r.title);
      expect(titlesOf(idsOfFilter(nodeB, { search: 'muller' }))).toEqual(['Diploma in Physics', 'diploma in chemistry', 'Batch One']);
      expect(titlesOf(idsOfFilter(nodeB, { orTags: ['chem', 'bio'] }))).toEqual(['diploma in chemistry', 'Zertifikat Ökologie', 'Über Grundlagen', 'Apple']);
      expect(titlesOf(idsOfFilter(nodeB, { search: 'dipl', state: { engine: 'local', states: ['not_scheduled'] } }))).toEqual(['Diplomarbeit']);
      expect(countFilter(nodeB, { search: 'muller' })).toBe(3);
      expect(countFilter(nodeB, { search: 'muller' }, [uid['Batch One']!, uid.Apple!])).toBe(2);
      expect(countFilter(nodeB, { search: '...' })).toBe(0);
    });

    it('resolves ranges of positions in a sorted window, and refuses them once the list moved', () => {
      const sort: RecordSort = { by: 'title', order: 'desc' };
      const list = expected((r) => r.tags.includes('y2026') || r.tags.includes('chem'), sort);
      const filter: RecordFilter = { orTags: ['y2026', 'chem'] };
      const ranges = [
        { from: 0, to: 1, fromUid: uid[list[0]!]!, toUid: uid[list[1]!]! },
        { from: 3, to: 3, fromUid: uid[list[3]!]!, toUid: uid[list[3]!]! },
      ];
      expect(uidsOf(nodeB, idsOfRanges(nodeB, { kind: 'ranges', filter, sort, ranges }))).toEqual([uid[list[0]!], uid[list[1]!], uid[list[3]!]]);
      const moved = ranges.map((r) => ({ ...r, fromUid: r.toUid }));
      expect(() => idsOfRanges(nodeB, { kind: 'ranges', filter, sort, ranges: moved })).toThrow(expect.objectContaining({ id: 'invalid_value' }));
    });

    it('adds a tag to every record a search matches, the other node filters by it, and the undo puts the tags back exactly', () => {
      const ids = idsOfFilter(nodeA, { search: 'muller' });
      const { changed, changes } = editTagsRemembering(nodeA, ids, { mode: 'add', tags: ['alumni', 'phys'] });
      expect(changed).toBe(3);
      expect(window({ andTags: ['alumni'] }, SORTS[2]!).titles).toEqual(['Batch One', 'Diploma in Physics', 'diploma in chemistry']);
      expect(readRecordRows(nodeB, idsOfUids(nodeB, [uid['Diploma in Physics']!, uid['diploma in chemistry']!]), ['local']).map((r) => r.tags)).toEqual([
        ['phys', 'y2026', 'alumni'],
        ['chem', 'y2026', 'alumni', 'phys'],
      ]);
      expect(restoreTagsOf(nodeA, changes)).toEqual({ restored: 3, skipped: 0 });
      expect(window({ andTags: ['alumni'] }, SORTS[0]!).total).toBe(0);
      expect(window({ andTags: ['phys'] }, SORTS[0]!).titles).toEqual(['Diploma in Physics', 'Diplomarbeit', 'Batch Two']);
      expect(readRecordRows(nodeB, idsOfUids(nodeB, [uid['diploma in chemistry']!]), ['local'])[0]!.tags).toEqual(['chem', 'y2026']);
      const tagged = listActivity(nodeB, { kind: 'tagged', per_page: 100 }).items;
      expect(tagged).toHaveLength(6);
      expect(listActivity(otherPartner, { kind: 'tagged' }).total_items).toBe(0);
    });

    it('refuses a tag edit that would exceed the tag limit on one record, and changes none', () => {
      const ids = idsOfFilter(nodeA, { search: 'apple' });
      const many = Array.from({ length: 64 }, (_, i) => `t${i}`);
      expect(() => editTagsRemembering(nodeA, ids, { mode: 'add', tags: many })).toThrow(expect.objectContaining({ id: 'invalid_tag' }));
      expect(window({ andTags: ['t0'] }, SORTS[0]!).total).toBe(0);
    });
  });

  describe('metadata keys, linked records and exports', () => {
    it('offers the metadata keys with a text, number or boolean value, most used first, then by key byte by byte', () => {
      expect(partnerMetadataKeyCounts(nodeB, 10)).toEqual([
        { key: 'student', count: 11 },
        { key: 'city', count: 1 },
        { key: 'honours', count: 1 },
        { key: 'matriculation', count: 1 },
        { key: 'note', count: 1 },
      ]);
      expect(partnerMetadataKeyCounts(nodeB, 2).map((k) => k.key)).toEqual(['student', 'city']);
      expect(partnerMetadataKeyCounts(otherPartner, 10)).toEqual([{ key: 'student', count: 1 }]);
    });

    it('draws the graph of linked records in both directions', () => {
      const graph = recordGraphOf(nodeB, uid.Diplomarbeit!, 50);
      expect([...graph.nodes.values()].map((n) => n.title).sort()).toEqual(['Batch One', 'Diploma in Physics', 'Diplomarbeit']);
      expect(Object.fromEntries(graph.links)).toEqual({ [uid.Diplomarbeit!]: [uid['Diploma in Physics']], [uid['Batch One']!]: [uid.Diplomarbeit] });
      expect(recordGraphOf(otherPartner, uid.Diplomarbeit!, 50).nodes.size).toBe(0);
    });

    it('lists the certificates a proof export writes, and logs the export once per certificate', () => {
      const ids = idsOfFilter(nodeB, { search: 'dipl' });
      const ofRecords = exportableOfCredentials(nodeB, ids, 'local');
      expect({ titles: ofRecords.certificates.map((c) => c.title), without: ofRecords.withoutCertificate }).toEqual({ titles: ['Diploma in Physics', 'diploma in chemistry'], without: 1 });
      expect(exportableOfCredentials(nodeB, ids, undefined).certificates).toHaveLength(2);
      expect(exportableOfCredentials(nodeB, ids, 'sepolia').certificates).toEqual([]);
      const ofJob = exportableOfJob(nodeB, finishedJobUid);
      expect({ titles: ofJob.certificates.map((c) => c.title), without: ofJob.withoutCertificate }).toEqual({ titles: ['Diploma in Physics', 'diploma in chemistry'], without: 0 });
      expect(() => exportableOfJob(otherPartner, finishedJobUid)).toThrow(expect.objectContaining({ id: 'missing_job' }));

      const certificateUids = ofRecords.certificates.map((c) => c.uid);
      recordExports(nodeA, 'vc', [certificateUids[1]!.toUpperCase(), certificateUids[0]!]);
      recordExports(otherPartner, 'proof', certificateUids);
      const exported = listActivity(nodeB, { kind: 'exported', per_page: 10 }).items;
      expect(exported.map((e) => ({ certificate: e.certificate_uid, credential: e.credential_uid, job: e.job_uid, detail: e.detail }))).toEqual([
        { certificate: certificateUids[1], credential: uid['diploma in chemistry'], job: finishedJobUid, detail: { format: 'vc' } },
        { certificate: certificateUids[0], credential: uid['Diploma in Physics'], job: finishedJobUid, detail: { format: 'vc' } },
      ]);
      expect(listActivity(otherPartner, { kind: 'exported' }).total_items).toBe(0);
    });

    it('says which uids exist for the Partner', () => {
      expect(existingCredentialUids(nodeB, [uid.Apple!, uid['Batch Two']!, '0190d6c4-7a1b-7c2d-8e3f-123456789abc'])).toEqual(new Set([uid.Apple, uid['Batch Two']]));
      expect(idsOfExisting(nodeB, [uid['Batch Two']!.toUpperCase()])).toHaveLength(1);
    });
  });
  describe('files named by records (stand-in uploads)', () => {
    const DIPLOMA = 'a'.repeat(64);
    const TRANSCRIPT = 'b'.repeat(64);

    /** A stand-in for an upload: the file's row, used by the credential. */
    function standInFile(title: string, hash: string, type: string | null): void {
      const fileId = nodeA.db
        .prepare('INSERT INTO files (partner_id, file_hash, file_type, size, uploaded_date, unused_since) VALUES (?, ?, ?, 10, ?, NULL)')
        .run(nodeA.partner.id, hash, type, clock.now()).lastInsertRowid as number;
      nodeA.db.prepare('INSERT INTO credential_files (credential_id, file_id, position) VALUES (?, ?, 0)').run(idOf(title), fileId);
    }

    beforeAll(() => {
      standInFile('Diploma in Physics', DIPLOMA, 'application/pdf');
      // The watch folder records where a file came from in the credential's metadata.
      const [watched] = insertCredentials(nodeA, [parseCreateCredentialBody({ title: 'Watched Transcript', metadata: { ingest: { sha256: TRANSCRIPT, path: 'inbox/2026/transcript.pdf' } } })]);
      uid['Watched Transcript'] = watched!.uid;
      standInFile('Watched Transcript', TRANSCRIPT, null);
    });

    it('shows each record\'s files, named where the watch folder recorded the name', () => {
      const rows = readRecordRows(nodeB, idsOfUids(nodeB, [uid['Watched Transcript']!, uid['Diploma in Physics']!]), ['local']);
      expect(rows.map((r) => ({ count: r.fileCount, files: r.files }))).toEqual([
        { count: 1, files: [{ hash: TRANSCRIPT, type: null, name: 'transcript.pdf' }] },
        { count: 1, files: [{ hash: DIPLOMA, type: 'application/pdf', name: null }] },
      ]);
    });

    it('finds the credential of a file, its path, and the issued certificates holding it', () => {
      expect(fileOfCredential(nodeB, uid['Watched Transcript']!, TRANSCRIPT.toUpperCase())).toEqual({ title: 'Watched Transcript', type: null, ingestPath: 'inbox/2026/transcript.pdf' });
      expect(fileOfCredential(nodeB, uid['Diploma in Physics']!, DIPLOMA)).toEqual({ title: 'Diploma in Physics', type: 'application/pdf', ingestPath: null });
      expect(() => fileOfCredential(nodeB, uid['Diploma in Physics']!, TRANSCRIPT)).toThrow(expect.objectContaining({ id: 'missing_file' }));
      expect(findExistingByHash(nodeB, [DIPLOMA, TRANSCRIPT, 'c'.repeat(64)])).toEqual(
        new Map([
          [DIPLOMA, [{ uid: uid['Diploma in Physics'], title: 'Diploma in Physics' }]],
          [TRANSCRIPT, [{ uid: uid['Watched Transcript'], title: 'Watched Transcript' }]],
        ]),
      );
      expect(certificatesOfFile(nodeB, DIPLOMA)).toEqual([expect.objectContaining({ credential_uid: uid['Diploma in Physics'], title: 'Diploma in Physics' })]);
      expect(certificatesOfFile(nodeB, TRANSCRIPT)).toEqual([]);
    });

    it("never finds another Partner's files", () => {
      expect(findExistingByHash(otherPartner, [DIPLOMA])).toEqual(new Map());
      expect(certificatesOfFile(otherPartner, DIPLOMA)).toEqual([]);
      expect(() => fileOfCredential(otherPartner, uid['Diploma in Physics']!, DIPLOMA)).toThrow(expect.objectContaining({ id: 'missing_file' }));
    });
  });
});
