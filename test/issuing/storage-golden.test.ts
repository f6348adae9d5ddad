/**
 * Proof files are the product: however certificates are stored, a proof downloaded today must
 * be byte for byte the one downloaded when it was issued. fixtures/golden-v3 is a data directory
 * written by schema 3 (see fixtures/make-golden.ts) with the proof files it produced then; a copy
 * is opened (migrated) here and every proof downloaded again.
 */
import Database from 'better-sqlite3';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../main/engine/migrations.js';
import { schemaVersion } from '../../main/engine/store/dialect.js';
import { makeTempDir, openIssuingEngine, removeTempDirs, type IssuingFixture } from '../support/issuing-fixture.js';

const GOLDEN = join(import.meta.dirname, 'fixtures', 'golden-v3');
const golden = JSON.parse(readFileSync(join(GOLDEN, 'proofs.json'), 'utf8')) as Record<string, string>;

describe('a data directory written by schema 3', () => {
  let fx: IssuingFixture;
  let partnerId: string;

  beforeAll(() => {
    const dataDir = makeTempDir('proofdesk-golden-');
    cpSync(join(GOLDEN, 'data'), dataDir, { recursive: true });
    const db = new Database(join(dataDir, 'proofdesk.sqlite'), { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    partnerId = db.prepare('SELECT id FROM partners').pluck().get() as string;
    db.close();
    fx = openIssuingEngine({ dataDir });
  });

  afterAll(async () => {
    await fx?.close();
    removeTempDirs();
  });

  it('is migrated to the current schema', () => {
    expect(schemaVersion(fx.engine.issuing.ctx.db)).toBe(MIGRATIONS.length);
  });

  it('stores its certificates compactly: leaves and signatures as bytes, payloads deflated smaller than their text', () => {
    const db = fx.engine.issuing.ctx.db;
    const rows = db.prepare('SELECT typeof(leaf) AS lt, length(leaf) AS ll, typeof(signature) AS st, length(signature) AS sl, typeof(payload) AS pt, length(payload) AS pl FROM certificates').all() as {
      lt: string; ll: number; st: string; sl: number; pt: string; pl: number;
    }[];
    expect(rows).toHaveLength(110);
    for (const r of rows) expect(r).toMatchObject({ lt: 'blob', ll: 32, st: 'blob', sl: 64, pt: 'blob' });
    const stored = rows.reduce((a, r) => a + r.pl, 0);
    const text = Object.values(golden).reduce((a, proof) => a + Buffer.byteLength(JSON.stringify((JSON.parse(proof) as { certificate: unknown }).certificate)), 0);
    expect(stored).toBeLessThan(text / 2);
  });

  it('downloads every one of its 110 proof files byte for byte as they were issued', async () => {
    const service = fx.engine.serviceFor(partnerId);
    expect(Object.keys(golden)).toHaveLength(110);
    for (const [uid, proof] of Object.entries(golden)) expect(await service.downloadCertificate(uid)).toBe(proof);
  });

  it('downloads them all in one bulk call (downloadCertificates) byte for byte as issued; a uid not issued gets its own missing_certificate', async () => {
    const service = fx.engine.serviceFor(partnerId);
    const uids = Object.keys(golden);
    const unknown = '01a2032a-4433-77f4-9fc2-3039f92839d7';
    const texts = await service.downloadCertificates!([...uids.map((u) => u.toUpperCase()), unknown, 'not-a-uid']);
    expect(texts.slice(0, uids.length)).toEqual(uids.map((u) => golden[u]));
    expect(texts.slice(uids.length).map((t) => (typeof t === 'string' ? t : t.id))).toEqual(['missing_certificate', 'missing_certificate']);
  });

  it("tells each job's certificates by credential in one call (jobCertificateUids) as listJobCertificates does", async () => {
    const service = fx.engine.serviceFor(partnerId);
    const jobs = (await service.listJobs({ per_page: 0 })).items.filter((j) => j.status === 'finished');
    expect(jobs.length).toBeGreaterThan(0);
    let certificates = 0;
    for (const job of jobs) {
      const listed = new Map((await service.listJobCertificates(job.uid, { per_page: 0 })).items.map((c) => [c.certificate.credential.uid, c.certificate.uid]));
      expect(await service.jobCertificateUids!(job.uid)).toEqual(listed);
      certificates += listed.size;
    }
    expect(certificates).toBe(110);
  });

  it('lists the same certificates with the same signatures', async () => {
    const service = fx.engine.serviceFor(partnerId);
    const page = await service.listCertificates({ per_page: 0 });
    expect(page.total_items).toBe(110);
    for (const item of page.items) expect(item.certificate.signature).toBe((JSON.parse(golden[item.certificate.uid]!) as { issuer: { signature: string } }).issuer.signature);
  });
});
