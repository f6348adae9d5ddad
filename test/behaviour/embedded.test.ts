/**
 * The behaviour suite against the embedded engine (two Partners in one engine), plus what
 * only the embedded engine can show: its Partners and clock (on both stores), its file store on
 * disk (SQLite's data directory).
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isServiceError, type ServiceError } from '../../common/errors.js';
import { Engine } from '../../main/engine/index.js';
import { addPartner, embeddedContext, type EngineFixture, type TestPartner } from '../support/engine-fixture.js';
import { STORES } from '../support/engine-stores.js';
import { describeIssuingService } from './issuing-service.suite.js';

describeIssuingService('embedded engine', embeddedContext);

async function errorOf(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(isServiceError(error), String(error)).toBe(true);
    return error as ServiceError;
  }
  throw new Error('Expected the call to fail');
}

/** Every stored or half-stored file under the data directory's store. */
function storedFiles(dataDir: string): string[] {
  const out: string[] = [];
  for (const top of ['files', 'tmp']) {
    const root = join(dataDir, top);
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) out.push(join(entry.parentPath, entry.name).slice(dataDir.length + 1));
    }
  }
  return out.sort();
}

describe.each(STORES)('embedded engine specifics on %s', (store) => {
  let fixture: EngineFixture;
  let a: TestPartner;
  let close: () => Promise<void>;

  beforeEach(async () => {
    const ctx = await embeddedContext({ store });
    ({ fixture, partnerA: a } = ctx);
    close = ctx.close;
  });
  afterEach(async () => {
    await close();
  });

  it('a job belongs to its Partner and is due one issuing interval after it was made', async () => {
    const slow = addPartner(fixture.engine, 'Weekly Issuer', 7 * 24 * 3600);
    const cA = await a.service.createCredential({ title: 'A', metadata: { a: 1 } });
    const cS = await slow.service.createCredential({ title: 'S', metadata: { s: 1 } });
    const jobA = await a.service.scheduleCredentials({ engine: 'local', credentials: [cA.uid] });
    const jobS = await slow.service.scheduleCredentials({ engine: 'local', credentials: [cS.uid] });
    expect(jobA.partner).toEqual({ id: a.id, name: a.name });
    expect(jobS.partner).toEqual({ id: slow.id, name: 'Weekly Issuer' });
    expect(jobA.created_date).toBe(new Date(fixture.clock.now()).toISOString());
    expect(Date.parse(jobA.scheduled_date!) - Date.parse(jobA.created_date)).toBe(3600 * 1000);
    expect(Date.parse(jobS.scheduled_date!) - Date.parse(jobS.created_date)).toBe(7 * 24 * 3600 * 1000);
  });

  it('dates on the wire are the engine clock\'s, in UTC', async () => {
    fixture.clock.set(Date.UTC(2026, 4, 17, 9, 30, 15, 250));
    const c = await a.service.createCredential({ title: 'Clocked', metadata: { a: 1 } });
    expect(c.upload_date).toBe('2026-05-17T09:30:15.250Z');
  });

  it('an expiry date must lie after the engine clock\'s now: now itself is invalid_expiry_date, one millisecond later is fine', async () => {
    const now = fixture.clock.now();
    const e = await errorOf(a.service.createCredential({ title: 'Now', metadata: { a: 1 }, expiry_date: new Date(now).toISOString() }));
    expect({ id: e.id, status: e.status }).toEqual({ id: 'invalid_expiry_date', status: 400 });
    const ok = await a.service.createCredential({ title: 'Later', metadata: { a: 1 }, expiry_date: new Date(now + 1).toISOString() });
    expect(ok.expiry_date).toBe(new Date(now + 1).toISOString());
    fixture.clock.advance(1);
    const e2 = await errorOf(a.service.createAndScheduleCredential('local', { credential_details: { title: 'Now', metadata: { a: 1 }, expiry_date: new Date(now + 1).toISOString() } }));
    expect(e2.id).toBe('invalid_expiry_date');
  });

  it('the bulk create of the desktop app makes all credentials or none', async () => {
    const made = await a.service.createCredentials([
      { title: 'One', metadata: { n: 1 }, tags: ['bulk'] },
      { title: 'Two', metadata: { n: 2 }, tags: ['bulk'] },
    ]);
    expect(made.map((c) => c.title)).toEqual(['One', 'Two']);
    const e = await errorOf(
      a.service.createCredentials([
        { title: 'Three', metadata: { n: 3 } },
        { title: 'Four', metadata: {} },
      ]),
    );
    expect({ id: e.id, status: e.status }).toEqual({ id: 'missing_file_and_metadata', status: 400 });
    const e2 = await errorOf(
      a.service.createCredentials([
        { title: 'Five', metadata: { n: 5 } },
        { title: 'Six', metadata: { n: 6 }, credentials: [randomUUID()] },
      ]),
    );
    expect(e2.id).toBe('missing_credential');
    expect((await a.service.listCredentials({ per_page: 0 })).items).toEqual(made);
  });

  it('a service for an unknown Partner is refused', () => {
    expect(() => fixture.engine.serviceFor(randomUUID())).toThrowError(expect.objectContaining({ id: 'unauthorized', status: 401 }));
  });
});

describe('embedded engine specifics of the data directory\'s file store (SQLite)', () => {
  let fixture: EngineFixture;
  let a: TestPartner;
  let b: TestPartner;
  let close: () => Promise<void>;

  beforeEach(async () => {
    const ctx = await embeddedContext();
    ({ fixture, partnerA: a, partnerB: b } = ctx);
    close = ctx.close;
  });
  afterEach(async () => {
    await close();
  });

  it('a failed upload or create-and-schedule leaves no bytes behind in the store', async () => {
    const bytes = new TextEncoder().encode(`kept ${randomUUID()}`);
    const file = await a.service.uploadFile({ file: { data: bytes, name: 'kept.txt' } });
    const stored = storedFiles(fixture.dataDir);
    expect(stored).toEqual([join('files', file.file_hash.slice(0, 2), file.file_hash)]);
    await errorOf(a.service.uploadFile({ file: { data: bytes } }));
    await errorOf(a.service.createAndScheduleCredential('local', { file: { data: bytes }, credential_details: { title: 'Dup', metadata: {} } }));
    await errorOf(a.service.createAndScheduleCredential('local', { file: { data: new TextEncoder().encode(randomUUID()) }, credential_details: { title: 'Old', metadata: {}, expiry_date: '2000-01-01' } }));
    await errorOf(a.service.createAndScheduleCredential('local', { file: { data: new TextEncoder().encode(randomUUID()) }, credential_details: { title: 'X', metadata: {}, credentials: [randomUUID()] } }));
    expect(storedFiles(fixture.dataDir)).toEqual(stored);
  });

  it('sweeping another Partner\'s unused copy keeps the bytes a credential uses; the last record takes them along', async () => {
    const bytes = new TextEncoder().encode(`shared ${randomUUID()}`);
    const hash = createHash('sha256').update(bytes).digest('hex');
    const onDisk = join(fixture.dataDir, 'files', hash.slice(0, 2), hash);
    await a.service.uploadFile({ file: { data: bytes } });
    await a.service.createCredential({ title: 'Uses it', metadata: {}, files: [hash] });
    await b.service.uploadFile({ file: { data: bytes } });
    fixture.clock.advance(2 * 3600 * 1000);
    expect(fixture.engine.sweepUnusedFiles()).toBe(1);
    expect(existsSync(onDisk)).toBe(true);

    const lonely = new TextEncoder().encode(`lonely ${randomUUID()}`);
    const lonelyHash = createHash('sha256').update(lonely).digest('hex');
    await b.service.uploadFile({ file: { data: lonely } });
    expect(existsSync(join(fixture.dataDir, 'files', lonelyHash.slice(0, 2), lonelyHash))).toBe(true);
    fixture.clock.advance(3600 * 1000);
    expect(fixture.engine.sweepUnusedFiles()).toBe(1);
    expect(existsSync(join(fixture.dataDir, 'files', lonelyHash.slice(0, 2), lonelyHash))).toBe(false);
  });

  it('an upload in progress survives a second engine (another process, say the CLI) opening the same data directory', async () => {
    // The desktop app and a CLI command (`issue`, `serve`) share the default data directory.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* slowUpload(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode(`first half ${randomUUID()} `);
      await gate;
      yield new TextEncoder().encode('second half');
    }
    const upload = a.service.uploadFile({ file: { data: slowUpload(), name: 'slow.txt' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = Engine.open({ dataDir: fixture.dataDir, sweepIntervalMs: false });
    try {
      release();
      const file = await upload;
      expect(await a.service.getFile(file.file_hash)).toEqual(file);
      expect(existsSync(join(fixture.dataDir, 'files', file.file_hash.slice(0, 2), file.file_hash))).toBe(true);
    } finally {
      release();
      await upload.catch(() => undefined);
      await second.close();
    }
  });

});
