import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreateAndScheduleRequest } from '../../common/requests.js';
import { openEngineWithPartner, type EngineFixture } from '../../test/support/engine-fixture.js';
import { createAndScheduleMany } from './create-and-schedule-many.js';
import type { FileStore } from './file-store.js';
import type { PartnerScope } from './scope.js';
import { indexPendingCredentials } from './search-index.js';

const fixtures: EngineFixture[] = [];
afterEach(async () => {
  for (const f of fixtures.splice(0)) await f.close();
});

function open(): PartnerScope {
  const { fixture, scope } = openEngineWithPartner();
  fixtures.push(fixture);
  return scope;
}

const sha256Hex = (data: string) => createHash('sha256').update(data).digest('hex');
const file = (text: string) => ({ data: Buffer.from(text), name: `${text.slice(0, 12)}.txt` });
const details = (title: string, extra: Record<string, unknown> = {}) => ({ title, metadata: { ingest: { path: `inbox/${title}` } }, tags: ['bench-watch'], ...extra });

/** Every row the create-and-schedule path writes, uids left out (random), in a stable order. */
function rows(scope: PartnerScope): Record<string, unknown[]> {
  const all = (sql: string) => scope.db.prepare(sql).all();
  return {
    files: all('SELECT id, file_hash, file_type, size, uploaded_date, unused_since FROM files ORDER BY id'),
    credentials: all('SELECT id, title, metadata, upload_date, expiry_date, tags FROM credentials ORDER BY id'),
    credential_files: all('SELECT * FROM credential_files ORDER BY credential_id, file_id'),
    credential_links: all('SELECT * FROM credential_links ORDER BY credential_id, linked_id'),
    credential_tags: all('SELECT tag, credential_id FROM credential_tags ORDER BY tag, credential_id'),
    jobs: all('SELECT id, engine, status, created_date, scheduled_date, tags FROM jobs ORDER BY id'),
    job_credentials: all('SELECT * FROM job_credentials ORDER BY job_id, credential_id'),
    unindexed: all('SELECT id FROM credentials_unindexed ORDER BY id'),
    // What a search would find once the waiting credentials are indexed, as a search first does.
    search: (indexPendingCredentials(scope.db), all("SELECT rowid FROM credentials_fts WHERE credentials_fts MATCH 'inbox' ORDER BY rowid")),
  };
}

/** Statements run while `fn` runs (better-sqlite3's Statement methods, wrapped for the test). */
async function countStatements(fn: () => Promise<unknown>): Promise<string[]> {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  const seen: string[] = [];
  const originals = Object.fromEntries(['run', 'get', 'all', 'iterate'].map((name) => [name, proto[name]!]));
  for (const [name, original] of Object.entries(originals)) {
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      seen.push(this.source);
      return original.apply(this, args);
    };
  }
  try {
    await fn();
  } finally {
    Object.assign(proto, originals);
  }
  return seen;
}

describe('createAndScheduleMany: the batch is checked first, then written without a savepoint per request', () => {
  it('a batch of 500 with one bad request: the 499 others are created and scheduled, the bad one gets the single call’s error', async () => {
    const scope = open();
    const requests: CreateAndScheduleRequest[] = Array.from({ length: 500 }, (_, i) => ({ file: file(`diploma ${i}`), credential_details: details(`d${i}`) }));
    requests[250] = { file: file('diploma 250'), credential_details: details('d250', { expiry_date: '2001-01-01' }) };
    const outcomes = await createAndScheduleMany(scope, 'local', requests);
    expect(outcomes.filter((o) => o.credential)).toHaveLength(499);
    expect(outcomes[250]!.error).toMatchObject({ id: 'invalid_expiry_date', status: 400 });
    expect(outcomes[250]!.error!.message).toBe('expiry_date 2001-01-01T00:00:00.000Z is not in the future');
    const scheduled = scope.db.prepare('SELECT count(*) FROM job_credentials').pluck().get();
    expect(scheduled).toBe(499);
    // The refused request left nothing: no record of its file, no bytes in the store.
    expect(scope.db.prepare('SELECT count(*) FROM files WHERE file_hash = ?').pluck().get(sha256Hex('diploma 250'))).toBe(0);
    expect(scope.store.has(sha256Hex('diploma 250'))).toBe(false);
    expect(outcomes[499]!.credential).toMatchObject({ title: 'd499', tags: ['bench-watch'], files: [{ file_hash: sha256Hex('diploma 499') }] });
  });

  it('runs a few statements per batch beside one per request with a new file (it ran 11-12 per request, a savepoint each)', async () => {
    const scope = open();
    const requests = Array.from({ length: 200 }, (_, i) => ({ file: file(`file ${i}`), credential_details: details(`f${i}`) }));
    const statements = await countStatements(() => createAndScheduleMany(scope, 'local', requests));
    expect(statements.filter((s) => /SAVEPOINT|RELEASE/.test(s))).toEqual([]);
    expect(statements.length).toBeLessThanOrEqual(200 + 20);
  });

  it('writes the same rows as the single call, request by request (files, credentials, tags, links, job, search index)', async () => {
    const batch = open();
    const single = open();
    const first = { file: file('uploaded first'), credential_details: details('first') };
    const linkedInBatch = (await createAndScheduleMany(batch, 'local', [first]))[0]!.credential!.uid;
    const linkedInSingle = (await createAndScheduleMany(single, 'local', [first]))[0]!.credential!.uid;
    const requests = (link: string): CreateAndScheduleRequest[] => [
      { file: file('%PDF-1.4 one'), credential_details: details('one') },
      { file: file('uploaded first'), credential_details: details('again') },
      { file: file('uploaded first'), credential_details: details('allowed', { ignore_duplicate: 'true' }) },
      { credential_details: details('metadata only', { tags: ['year-2026', 'honours'], expiry_date: '2999-01-01' }) },
      { file: file('same'), credential_details: details('links nobody', { credentials: ['01a2032a-4433-77f4-9fc2-3039f92839d7'] }) },
      { file: file('same'), credential_details: details('same, after a refused one') },
      { file: file('same'), credential_details: details('same again', { ignore_duplicate: 'true' }) },
      { file: file('linking'), credential_details: details('linking', { credentials: [link] }) },
      { credential_details: details('expired', { expiry_date: '2001-01-01' }) },
    ];
    const batched = await createAndScheduleMany(batch, 'local', requests(linkedInBatch));
    const singles = [];
    for (const request of requests(linkedInSingle)) singles.push((await createAndScheduleMany(single, 'local', [request]))[0]!);
    const shape = (o: (typeof batched)[number]) => (o.error ? { error: o.error.id, status: o.error.status, message: o.error.message } : { ...o.credential, uid: 'u', credentials: o.credential!.credentials.map((c) => ({ ...c, uid: 'u' })) });
    expect(batched.map(shape)).toEqual(singles.map(shape));
    expect(batched.map((o) => o.error?.id ?? 'created')).toEqual([
      'created',
      'file_already_exists',
      'created',
      'created',
      'missing_credential',
      'created',
      'created',
      'created',
      'invalid_expiry_date',
    ]);
    expect(rows(batch)).toEqual(rows(single));
  });

  it('a write that fails unforeseen (a staged file removed behind its back: its rename fails) rolls the batch back and goes request by request: only that request fails, as before', async () => {
    const scope = open();
    const texts = Array.from({ length: 40 }, (_, i) => `stored ${i}`);
    const victim = sha256Hex(texts[17]!);
    // The staged copy vanishes after the sync pass (a real failed rename, no mocked store).
    const store = scope.store as FileStore;
    const syncStaged = store.syncStaged.bind(store);
    store.syncStaged = async (files) => {
      await syncStaged(files);
      rmSync(files.find((f) => f.hash === victim)!.tempPath);
    };
    const outcomes = await createAndScheduleMany(
      scope,
      'local',
      texts.map((t) => ({ file: file(t), credential_details: details(t) })),
    );
    expect(outcomes[17]!.error).toMatchObject({ id: 'internal_error', message: 'Could not store the uploaded file' });
    expect(outcomes.filter((o) => o.credential)).toHaveLength(39);
    expect(scope.db.prepare('SELECT count(*) FROM job_credentials').pluck().get()).toBe(39);
    expect(scope.db.prepare('SELECT count(*) FROM credentials').pluck().get()).toBe(39);
    expect(scope.db.prepare('SELECT count(*) FROM files WHERE file_hash = ?').pluck().get(victim)).toBe(0);
    for (const [i, t] of texts.entries()) expect(scope.store.has(sha256Hex(t))).toBe(i !== 17);
  });
});
