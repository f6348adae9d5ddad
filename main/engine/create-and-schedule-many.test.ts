import { createHash } from 'node:crypto';
import fs, { existsSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../common/errors.js';
import { openEngineWithPartner, type EngineFixture, type TestPartner } from '../../test/support/engine-fixture.js';

let fixture: EngineFixture;
let partner: TestPartner;
afterEach(() => fixture?.close());

function open(): void {
  ({ fixture, partner } = openEngineWithPartner());
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const details = (title: string, extra: Record<string, unknown> = {}) => ({ title, metadata: { n: title }, tags: ['batch'], ...extra });

describe('createAndScheduleCredentials: many create-and-schedule requests in one write transaction', () => {
  it('creates and schedules every good request into the open job, each with its file, and refuses the bad ones alone with the single call’s error ids', async () => {
    open();
    const service = partner.service;
    const first = await service.createAndScheduleCredential('local', { file: { data: Buffer.from('uploaded before'), name: 'a.txt' }, credential_details: details('before') });
    const outcomes = await service.createAndScheduleCredentials!('local', [
      { file: { data: Buffer.from('%PDF-1.4 one'), name: 'one.pdf' }, credential_details: details('one') },
      { file: { data: Buffer.from('uploaded before'), name: 'again.txt' }, credential_details: details('again') },
      { credential_details: details('past', { expiry_date: '2001-01-01' }) },
      { credential_details: '{not json' },
      { file: { data: Buffer.from('two'), name: 'two.txt' }, credential_details: JSON.stringify(details('two', { credentials: [first.uid] })) },
      { credential_details: details('link to nobody', { credentials: ['01a2032a-4433-77f4-9fc2-3039f92839d7'] }) },
      { file: { data: Buffer.from('uploaded before'), name: 'allowed.txt' }, credential_details: details('allowed', { ignore_duplicate: 'true' }) },
    ]);
    expect(outcomes.map((o) => o.error?.id ?? 'created')).toEqual([
      'created',
      'file_already_exists',
      'invalid_expiry_date',
      'no_json',
      'created',
      'missing_credential',
      'created',
    ]);
    for (const o of outcomes) if (o.error) expect(o.error).toBeInstanceOf(ServiceError);
    const one = outcomes[0]!.credential!;
    expect(one.files).toEqual([{ file_hash: sha256Hex('%PDF-1.4 one'), file_type: 'application/pdf' }]);
    expect(outcomes[4]!.credential!.credentials.map((c) => c.uid)).toEqual([first.uid]);
    expect(existsSync(join(fixture.dataDir, 'files', sha256Hex('two').slice(0, 2), sha256Hex('two')))).toBe(true);

    const job = (await service.listJobs({ status: 'scheduled' })).items[0]!;
    const inJob = (await service.listJobCredentials(job.uid, { per_page: 100 })).items.map((c) => c.title).sort();
    expect(inJob).toEqual(['allowed', 'before', 'one', 'two']);
    // Nothing of the refused requests is left behind.
    expect((await service.listCredentials({ per_page: 100 })).total_items).toBe(4);
  });

  it('an unknown engine or too many requests fail the whole call and change nothing', async () => {
    open();
    const service = partner.service;
    await expect(service.createAndScheduleCredentials!('nowhere', [{ credential_details: details('x') }])).rejects.toMatchObject({ id: 'wrong_blockchain_engine' });
    const many = Array.from({ length: 1_001 }, (_, i) => ({ credential_details: details(`t${i}`) }));
    await expect(service.createAndScheduleCredentials!('local', many)).rejects.toMatchObject({ id: 'invalid_value' });
    expect((await service.listCredentials()).total_items).toBe(0);
  });

  it('two requests with the same new content: the first is created, the second is a duplicate', async () => {
    open();
    const outcomes = await partner.service.createAndScheduleCredentials!('local', [
      { file: { data: Buffer.from('same'), name: 'a.txt' }, credential_details: details('a') },
      { file: { data: Buffer.from('same'), name: 'b.txt' }, credential_details: details('b') },
    ]);
    expect(outcomes.map((o) => o.error?.id ?? 'created')).toEqual(['created', 'file_already_exists']);
  });

  it('leaves the staged files it moved into the store alone (no delete per file after the commit), and deletes those it did not', async () => {
    open();
    const staging = join(fixture.dataDir, 'tmp');
    const deletes: string[] = [];
    const rmSync = fs.rmSync;
    fs.rmSync = (path, options) => {
      if (String(path).startsWith(staging)) deletes.push(String(path));
      rmSync(path, options);
    };
    syncBuiltinESMExports();
    try {
      const outcomes = await partner.service.createAndScheduleCredentials!('local', [
        ...Array.from({ length: 20 }, (_, i) => ({ file: { data: Buffer.from(`file ${i}`), name: `f${i}.txt` }, credential_details: details(`f${i}`) })),
        { file: { data: Buffer.from('refused'), name: 'r.txt' }, credential_details: details('refused', { expiry_date: '2001-01-01' }) },
      ]);
      expect(outcomes.filter((o) => o.credential)).toHaveLength(20);
    } finally {
      fs.rmSync = rmSync;
      syncBuiltinESMExports();
    }
    // Only the refused request's staged bytes are deleted; the 20 stored ones were renamed.
    expect(deletes).toHaveLength(1);
    expect(existsSync(deletes[0]!)).toBe(false);
  });
});
