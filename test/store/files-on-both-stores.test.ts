/**
 * Uploaded files on both stores: their bytes in the data directory (SQLite) or in the database
 * (PostgreSQL), uploaded, read back on another node, deduplicated, refused past the limit,
 * swept after the hour by the issuing lease's holder only, and streamed in and out without
 * holding a large file in memory. Then the engine's change events on both stores.
 */
import { createHash, randomFillSync } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, systemClock, type Clock } from '../../main/engine/clock.js';
import { getCredential, insertCredentials } from '../../main/engine/credentials.js';
import { parseCreateCredentialBody } from '../../main/engine/credential-input.js';
import type { Db } from '../../main/engine/database.js';
import { EmbeddedService } from '../../main/engine/embedded-service.js';
import { EngineCatalog } from '../../main/engine/engine-catalog.js';
import { engineEventsOf, type EngineEvent } from '../../main/engine/events/engine-events.js';
import { watchChanges } from '../../main/engine/events/watch-changes.js';
import { openFileBytes, type FileBytes } from '../../main/engine/file-bytes.js';
import { getFile, listFiles, markUsed, sweepUnusedFiles, uploadFile } from '../../main/engine/files.js';
import { IssuingLease } from '../../main/engine/issuing/issuing-lease.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import { scheduleCredentials } from '../../main/engine/scheduling.js';
import { othersCommitMark } from '../../main/engine/store/dialect.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { LIMITS } from '../../common/limits.js';
import { createEngineStore, STORES, type EngineStore, type StoreKind } from '../support/engine-stores.js';

const MiB = 1024 * 1024;

/**
 * `total` bytes in 64 KiB pieces as they are read, cycling through 17 random pieces made once
 * (the test makes no garbage of its own, and no two 1 MiB stretches are alike, so bytes out of
 * order change the hash); `sha256` is theirs once read to the end.
 */
function generated(total: number, onPiece: () => void = () => {}): { data: AsyncIterable<Uint8Array>; sha256: () => string } {
  const hash = createHash('sha256');
  const pieces = Array.from({ length: 17 }, () => randomFillSync(Buffer.allocUnsafe(64 * 1024)));
  async function* stream() {
    for (let sent = 0, i = 0; sent < total; i++) {
      const piece = pieces[i % pieces.length]!.subarray(0, Math.min(64 * 1024, total - sent));
      hash.update(piece);
      sent += piece.length;
      onPiece();
      yield piece;
    }
  }
  return { data: stream(), sha256: () => hash.digest('hex') };
}

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(STORES)('uploaded files on %s', (kind: StoreKind) => {
  let store: EngineStore;
  let dataDir: string;
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let dbA: Db;
  let dbB: Db;
  let nodeA: PartnerScope;
  let nodeB: PartnerScope;
  let otherPartner: PartnerScope;

  /** A Partner's scope on one node; issuing is not reached by files. */
  function scopeOn(db: Db, partner: { id: string; name: string }, bytes: FileBytes): PartnerScope {
    const scope = { db, partner, clock: clock as Clock, actor: 'tester', catalog: new EngineCatalog(), store: bytes };
    Object.defineProperty(scope, 'issuing', {
      get() {
        throw new Error('files do not use the issuing runtime');
      },
    });
    return scope as PartnerScope;
  }

  /** Uploads that were staged and never became stored bytes (none may stay). */
  function leftovers(): number {
    if (kind === 'postgres') return dbA.prepare('SELECT count(*) FROM file_blobs WHERE file_hash IS NULL').pluck().get() as number;
    return readdirSync(join(dataDir, 'tmp'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
  }

  const fileRows = () => dbA.prepare('SELECT count(*) FROM files').pluck().get() as number;

  beforeAll(() => {
    store = createEngineStore(kind);
    dataDir = mkdtempSync(join(tmpdir(), 'proofdesk-files-'));
    dbA = store.connect();
    dbB = store.connect();
    const partners = new PartnerRegistry(dbA, clock);
    const mine = partners.add({ name: 'Uni West' });
    const theirs = partners.add({ name: 'Other' });
    // Two nodes: on SQLite two processes sharing the data directory, on PostgreSQL two serve nodes.
    nodeA = scopeOn(dbA, { id: mine.partner_id, name: 'Uni West' }, openFileBytes(dbA, dataDir, clock));
    nodeB = scopeOn(dbB, { id: mine.partner_id, name: 'Uni West' }, openFileBytes(dbB, dataDir, clock));
    otherPartner = scopeOn(dbB, { id: theirs.partner_id, name: 'Other' }, nodeB.store);
  });

  afterAll(() => {
    nodeA?.store.close();
    nodeB?.store.close();
    store?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores an upload; the other node reads the record and the very bytes back', async () => {
    const bytes = Buffer.from('%PDF-1.7\nDiploma of Ada Lovelace\n%%EOF\n');
    const uploaded = await uploadFile(nodeA, { data: bytes, name: 'ada.pdf' }, false);
    expect(uploaded).toEqual({ file_hash: sha256Of(bytes), file_type: 'application/pdf' });
    expect(getFile(nodeB, uploaded.file_hash)).toEqual(uploaded);
    expect(nodeB.store.sizeOf(uploaded.file_hash)).toBe(bytes.length);
    expect(await buffer(nodeB.store.read(uploaded.file_hash))).toEqual(bytes);
    expect(() => getFile(otherPartner, uploaded.file_hash)).toThrow(expect.objectContaining({ id: 'missing_file' }));

    // A stream of plain Uint8Arrays (not Buffers), the last one cut short.
    const pieces = [new Uint8Array(700 * 1024).fill(1), new Uint8Array(500 * 1024).fill(2), new TextEncoder().encode('end')];
    const streamed = await uploadFile(nodeB, { data: (async function* () { yield* pieces; })() }, false);
    expect(await buffer(nodeA.store.read(streamed.file_hash))).toEqual(Buffer.concat(pieces));
    expect(leftovers()).toBe(0);
  });

  it('a file uploaded again is file_already_exists (409) unless duplicates are allowed; its bytes are stored once', async () => {
    const bytes = Buffer.from('transcript of Grace Hopper');
    const first = await uploadFile(nodeA, { data: bytes, name: 'grace.txt' }, false);
    const rows = fileRows();
    await expect(uploadFile(nodeB, { data: bytes, name: 'grace.txt' }, false)).rejects.toMatchObject({ id: 'file_already_exists', status: 409 });
    expect(fileRows()).toBe(rows);
    expect(await uploadFile(nodeB, { data: bytes, name: 'grace.txt' }, true)).toEqual(first);
    expect(listFiles(nodeA, { file_hash: first.file_hash }).total_items).toBe(1);
    // Another Partner's upload of the same bytes is its own record over the same stored bytes.
    expect(await uploadFile(otherPartner, { data: bytes }, false)).toMatchObject({ file_hash: first.file_hash });
    expect(fileRows()).toBe(rows + 1);
    if (kind === 'postgres') expect(dbB.prepare('SELECT count(*) FROM file_blobs WHERE file_hash = ?').pluck().get(first.file_hash)).toBe(1);
    expect(leftovers()).toBe(0);
  });

  it('no file, an unreadable stream or one past the limit are refused with the spec ids, and nothing of them stays', async () => {
    const rows = fileRows();
    await expect(uploadFile(nodeA, undefined, false)).rejects.toMatchObject({ id: 'no_file_on_payload', status: 400 });
    await expect(uploadFile(nodeA, { path: join(dataDir, 'no-such-file') }, false)).rejects.toMatchObject({ id: 'no_file_on_payload' });
    async function* brokenAfterTwoMiB() {
      yield Buffer.alloc(2 * MiB, 1);
      throw new Error('connection reset by peer');
    }
    await expect(uploadFile(nodeA, { data: brokenAfterTwoMiB() }, false)).rejects.toMatchObject({ id: 'no_file_on_payload' });
    // Broken before its temporary file is even open: the file opened after the failure goes too.
    async function* brokenAtOnce(): AsyncGenerator<Uint8Array> {
      throw new Error('connection reset by peer');
    }
    await expect(uploadFile(nodeA, { data: brokenAtOnce() }, false)).rejects.toMatchObject({ id: 'no_file_on_payload' });

    const limited = scopeOn(dbA, nodeA.partner, openFileBytes(dbA, dataDir, clock, 3 * MiB));
    try {
      const tooLarge = generated(5 * MiB);
      await expect(uploadFile(limited, { data: tooLarge.data }, false)).rejects.toMatchObject({ id: 'payload_too_large', status: 413 });
      await expect(uploadFile(limited, { data: Buffer.alloc(3 * MiB + 1) }, false)).rejects.toMatchObject({ id: 'payload_too_large' });
      const atLimit = Buffer.alloc(3 * MiB, 7);
      expect(await uploadFile(limited, { data: atLimit }, false)).toMatchObject({ file_hash: sha256Of(atLimit) });
    } finally {
      limited.store.close();
    }
    expect(fileRows()).toBe(rows + 1);
    expect(leftovers()).toBe(0);
  });

  it('create-and-schedule with a file stores its bytes with the credential; one refused after its bytes went in leaves neither', async () => {
    const service = new EmbeddedService(nodeA);
    const bytes = Buffer.from(`certificate of Alan Turing`);
    const credential = await service.createAndScheduleCredential('local', { file: { data: bytes, name: 'alan.txt' }, credential_details: { title: 'Alan', metadata: {} } });
    expect(credential.files).toEqual([{ file_hash: sha256Of(bytes), file_type: 'text/plain' }]);
    expect(await buffer(nodeB.store.read(sha256Of(bytes)))).toEqual(bytes);

    const rows = fileRows();
    const refused = Buffer.from('linked to a credential that does not exist');
    await expect(
      service.createAndScheduleCredential('local', { file: { data: refused }, credential_details: { title: 'Broken', metadata: {}, credentials: ['0190d6c4-7a1b-7c2d-8e3f-123456789abc'] } }),
    ).rejects.toMatchObject({ id: 'missing_credential' });
    await expect(service.createAndScheduleCredential('local', { file: { data: bytes }, credential_details: { title: 'Again', metadata: {} } })).rejects.toMatchObject({
      id: 'file_already_exists',
    });
    expect(fileRows()).toBe(rows);
    expect(nodeB.store.has(sha256Of(refused))).toBe(false);
    expect(leftovers()).toBe(0);
  });

  it('streams a 300 MB upload in and out by hash, the process growing far less than the file', async () => {
    const size = 300 * MiB;
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
    const upload = generated(size, sample);
    const { file_hash } = await uploadFile(nodeA, { data: upload.data, name: 'scan.bin' }, false);
    expect(file_hash).toBe(upload.sha256());
    expect(nodeB.store.sizeOf(file_hash)).toBe(size);
    const readBack = createHash('sha256');
    let read = 0;
    for await (const piece of nodeB.store.read(file_hash) as AsyncIterable<Buffer>) {
      readBack.update(piece);
      read += piece.length;
      sample();
    }
    expect({ read, hash: readBack.digest('hex') }).toEqual({ read: size, hash: file_hash });
    expect(peak - before).toBeLessThan(64 * MiB);
    expect(leftovers()).toBe(0);
  }, 300_000);

  it('the hour after upload: unused files go with their bytes on the sweep, used ones and bytes another record names stay', async () => {
    const start = clock.now();
    const lonely = await uploadFile(nodeA, { data: Buffer.from('never used') }, false);
    const shared = Buffer.from('uploaded by two Partners');
    const mineShared = await uploadFile(nodeA, { data: shared }, false);
    await uploadFile(otherPartner, { data: shared }, false);
    const used = await uploadFile(nodeA, { data: Buffer.from('the file of a credential') }, false);
    insertCredentials(nodeA, [parseCreateCredentialBody({ title: 'With a file', metadata: {}, files: [used.file_hash] })]);
    const theirsId = dbB.prepare('SELECT id FROM files WHERE partner_id = ? AND file_hash = ?').pluck().get(otherPartner.partner.id, mineShared.file_hash) as number;
    markUsed(dbB, [theirsId]);
    const nobody = { heldElsewhere: () => undefined };

    clock.set(start + LIMITS.unusedFileRetentionMs - 1);
    const rows = fileRows();
    expect(sweepUnusedFiles(dbA, nodeA.store, clock.now(), nobody)).toBe(0);
    expect(fileRows()).toBe(rows);

    clock.set(start + LIMITS.unusedFileRetentionMs);
    const swept = sweepUnusedFiles(dbA, nodeA.store, clock.now(), nobody);
    expect(swept).toBeGreaterThanOrEqual(2);
    expect(fileRows()).toBe(rows - swept);
    expect(() => getFile(nodeB, lonely.file_hash)).toThrow(expect.objectContaining({ id: 'missing_file' }));
    expect(nodeB.store.has(lonely.file_hash)).toBe(false);
    expect(() => getFile(nodeB, mineShared.file_hash)).toThrow(expect.objectContaining({ id: 'missing_file' }));
    expect(await buffer(nodeB.store.read(mineShared.file_hash))).toEqual(shared);
    expect(getFile(nodeB, used.file_hash)).toEqual(used);
    expect(nodeB.store.has(used.file_hash)).toBe(true);
  });

  it('only the node holding the issuing lease sweeps', async () => {
    const start = clock.now();
    const file = await uploadFile(nodeA, { data: Buffer.from('swept by the leader') }, false);
    const wall = { now: Date.now() };
    const leader = new IssuingLease(dbA, () => wall.now, 'node-a');
    const follower = new IssuingLease(dbB, () => wall.now, 'node-b');
    expect(leader.acquire()).toBe(true);
    try {
      clock.set(start + LIMITS.unusedFileRetentionMs);
      expect(sweepUnusedFiles(dbB, nodeB.store, clock.now(), follower)).toBe(0);
      expect(getFile(nodeB, file.file_hash)).toEqual(file);
      expect(sweepUnusedFiles(dbA, nodeA.store, clock.now(), leader)).toBe(1);
      expect(() => getFile(nodeB, file.file_hash)).toThrow(expect.objectContaining({ id: 'missing_file' }));
    } finally {
      leader.release();
    }
  });

  it('creates 2,500 credentials with files and links in one call, each answered as a GET reads it; a refused one among them creates none, with the error the first refused one gives', async () => {
    const files = await Promise.all(Array.from({ length: 40 }, (_, i) => uploadFile(nodeA, { data: Buffer.from(`transcript ${i}`), name: `t${i}.txt` }, false)));
    const targets = insertCredentials(nodeA, Array.from({ length: 3 }, (_, i) => parseCreateCredentialBody({ title: `Programme ${i}`, metadata: { programme: i } })));
    const unused = () => dbB.prepare('SELECT file_hash FROM files WHERE partner_id = ? AND unused_since IS NOT NULL ORDER BY file_hash').pluck().all(nodeA.partner.id) as string[];
    const rows = () => ['credentials', 'credential_files', 'credential_links'].map((table) => Number(dbB.prepare(`SELECT count(*) FROM ${table}`).pluck().get()));
    // Each with one or two files (in the order given) and none, one or two links; a uid in capitals too.
    const bodies = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        title: `Graduate ${i}`,
        metadata: { student: i },
        tags: i % 2 === 0 ? ['graduates'] : [],
        files: i % 5 === 0 ? [files[(i + 1) % 40]!.file_hash, files[i % 40]!.file_hash] : [files[i % 40]!.file_hash],
        credentials: [targets[i % 3]!.uid, targets[(i + 1) % 3]!.uid.toUpperCase()].slice(0, i % 3),
      }));
    const before = rows();
    const refused = (changes: Record<number, Record<string, unknown>>) => {
      const all = bodies(2_500).map((b, i) => ({ ...b, ...changes[i] }));
      try {
        insertCredentials(nodeA, all.map((b) => parseCreateCredentialBody(b)));
      } catch (error) {
        return { id: (error as { id: string }).id, message: (error as Error).message };
      }
      return undefined;
    };
    const stillUnused = unused();
    expect(stillUnused).toEqual(expect.arrayContaining(files.map((f) => f.file_hash)));
    const missingHash = 'ab'.repeat(32);
    const missingUid = '0190d6c4-7a1b-7c2d-8e3f-123456789abc';
    expect(refused({ 1_700: { credentials: [targets[0]!.uid, missingUid] }, 2_000: { files: [missingHash] } })).toEqual({
      id: 'missing_credential',
      message: `No credential ${JSON.stringify(missingUid)} to link`,
    });
    expect(refused({ 2_100: { expiry_date: '2000-01-01T00:00:00Z' }, 2_400: { files: [missingHash] } })).toMatchObject({ id: 'invalid_expiry_date' });
    expect(refused({ 2_499: { files: [files[0]!.file_hash, missingHash] } })).toEqual({ id: 'missing_file', message: `No uploaded file with hash ${missingHash}` });
    expect(rows()).toEqual(before);
    expect(unused()).toEqual(stillUnused);

    const created = insertCredentials(nodeA, bodies(2_500).map((b) => parseCreateCredentialBody(b)));
    expect(created).toHaveLength(2_500);
    expect(created.map((c) => c.title)).toEqual(bodies(2_500).map((b) => b.title));
    const wanted = bodies(2_500);
    created.forEach((credential, i) => {
      expect(credential.files.map((f) => f.file_hash)).toEqual(wanted[i]!.files);
      expect(credential.credentials.map((c) => c.uid)).toEqual(wanted[i]!.credentials.map((uid) => uid.toLowerCase()));
    });
    for (const i of [0, 1, 2, 5, 1_234, 2_499]) expect(getCredential(nodeB, created[i]!.uid)).toEqual(created[i]);
    // 500 of them (every fifth) with two files; 833 with one link and 833 with two.
    expect(rows()).toEqual([before[0]! + 2_500, before[1]! + 2_500 + 500, before[2]! + 833 + 2 * 833]);
    expect(unused().filter((hash) => files.some((f) => f.file_hash === hash))).toEqual([]);
  });

  it('an upload abandoned mid-stream (its process killed) does not stay: cleared when a store opens (SQLite), or by the sweep an hour later (PostgreSQL)', () => {
    const nobody = { heldElsewhere: () => undefined };
    if (kind === 'sqlite') {
      const gone = spawnSync(process.execPath, ['-e', '']).pid!;
      mkdirSync(join(dataDir, 'tmp', `${gone}-abandoned`));
      writeFileSync(join(dataDir, 'tmp', `${gone}-abandoned`, 'half-an-upload'), 'half');
      expect(leftovers()).toBe(1);
      openFileBytes(dbB, dataDir, clock).close();
      expect(leftovers()).toBe(0);
      return;
    }
    dbB.prepare('INSERT INTO file_blobs (touched_date) VALUES (?)').run(clock.now());
    expect(leftovers()).toBe(1);
    sweepUnusedFiles(dbA, nodeA.store, clock.now() + LIMITS.unusedFileRetentionMs - 1, nobody);
    expect(leftovers()).toBe(1);
    sweepUnusedFiles(dbA, nodeA.store, clock.now() + LIMITS.unusedFileRetentionMs, nobody);
    expect(leftovers()).toBe(0);
  });
});

describe.each(STORES)('engine events on %s', (kind: StoreKind) => {
  let store: EngineStore;
  let dbA: Db;
  let dbB: Db;
  let stopWatching: () => void;
  const heard: EngineEvent[] = [];
  const waiters = new Set<() => void>();
  let partners: { mine: string; theirs: string };

  /** Resolves with the first event heard (before or after the call) that `match` accepts. */
  function heardEvent(match: (event: EngineEvent) => boolean): Promise<EngineEvent> {
    return new Promise((resolve) => {
      const check = () => {
        const found = heard.find(match);
        if (!found) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
    });
  }

  function scope(db: Db, partnerId: string): PartnerScope {
    return { db, partner: { id: partnerId, name: partnerId }, clock: systemClock, actor: 'tester', catalog: new EngineCatalog() } as unknown as PartnerScope;
  }

  beforeAll(() => {
    store = createEngineStore(kind);
    dbA = store.connect();
    dbB = store.connect();
    const registry = new PartnerRegistry(dbA, systemClock);
    partners = { mine: registry.add({ name: 'Events' }).partner_id, theirs: registry.add({ name: 'Elsewhere' }).partner_id };
    const events = engineEventsOf(dbA);
    stopWatching = watchChanges(dbA, events, 50);
    events.subscribe((event) => {
      heard.push(event);
      for (const check of [...waiters]) check();
    });
  });

  afterAll(() => {
    stopWatching?.();
    store?.remove();
  });

  it('a job created on this connection is announced, with its counts', async () => {
    const mine = scope(dbA, partners.mine);
    const [credential] = insertCredentials(mine, [parseCreateCredentialBody({ title: 'Ada', metadata: { year: 2026 } })]);
    scheduleCredentials(mine, { engine: 'local', credentials: [credential!.uid] });
    const created = await heardEvent((e) => e.type === 'job-state' && e.partnerId === partners.mine);
    expect(created).toMatchObject({ type: 'job-state', engine: 'local', from: null, to: 'scheduled' });
    await heardEvent((e) => e.type === 'counts' && e.partnerId === partners.mine && e.of === 'jobs');
  });

  it('a job created and moved by another connection (another process, another node) is announced', async () => {
    const theirs = scope(dbB, partners.theirs);
    const [credential] = insertCredentials(theirs, [parseCreateCredentialBody({ title: 'Grace', metadata: { year: 2026 } })]);
    scheduleCredentials(theirs, { engine: 'local', credentials: [credential!.uid] });
    const created = await heardEvent((e) => e.type === 'job-state' && e.partnerId === partners.theirs);
    expect(created).toMatchObject({ from: null, to: 'scheduled' });
    dbB.prepare("UPDATE jobs SET status = 'started' WHERE partner_id = ?").run(partners.theirs);
    expect(await heardEvent((e) => e.type === 'job-state' && e.partnerId === partners.theirs && e.to === 'started')).toMatchObject({ from: 'scheduled', to: 'started' });
  });

  it('a certificate revoked on this connection is announced', async () => {
    const row = dbA.prepare('SELECT jc.job_id AS job_id, jc.credential_id AS credential_id FROM job_credentials jc JOIN jobs j ON j.id = jc.job_id WHERE j.partner_id = ?').get(partners.mine) as {
      job_id: number;
      credential_id: number;
    };
    dbA
      .prepare('INSERT INTO certificates (uid, partner_id, credential_id, job_id, engine, leaf_index, leaf, payload, signature) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)')
      .run('cert-1', partners.mine, row.credential_id, row.job_id, 'local', Buffer.alloc(32), Buffer.alloc(8), Buffer.alloc(64));
    dbA.prepare('UPDATE certificates SET revoked_date = ? WHERE uid = ?').run(Date.now(), 'cert-1');
    expect(await heardEvent((e) => e.type === 'certificate-revoked')).toEqual({ type: 'certificate-revoked', partnerId: partners.mine, certificateUid: 'cert-1', engine: 'local' });
  });
});

describe('the change mark cached counts are checked against, on postgres', () => {
  it('moves when a transaction already writing at the last look commits, though a later one committed before it', () => {
    const store = createEngineStore('postgres');
    try {
      const [a, b, c] = [store.connect(), store.connect(), store.connect()];
      const partnerId = new PartnerRegistry(a, systemClock).add({ name: 'Marked' }).partner_id;
      b.exec('BEGIN');
      expect(b.prepare('UPDATE partners SET name = ? WHERE id = ?').run('Marked by b', partnerId).changes).toBe(1);
      new PartnerRegistry(c, systemClock).add({ name: 'Later' });
      const during = othersCommitMark(a);
      b.exec('COMMIT');
      expect(othersCommitMark(a)).not.toBe(during);
    } finally {
      store.remove();
    }
  });
});
