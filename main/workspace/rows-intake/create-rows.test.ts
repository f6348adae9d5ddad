/** Creating staged rows on a real engine: link order, bad rows alone, nothing half-made, cancel. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StagingCreateRow } from '../../../common/ipc/staging.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import type { TaskContext } from '../../../common/tasks.js';
import { makeTempDir, openEngineWithPartner, type EngineFixture, type TestPartner } from '../../../test/support/engine-fixture.js';
import { INTAKE_BATCH } from '../../intake/index.js';
import { createRows } from './create-rows.js';

let fixture: EngineFixture;
let partner: TestPartner;
let dir: string;

beforeEach(() => {
  ({ fixture, partner } = openEngineWithPartner());
  dir = makeTempDir('proofdesk-create-');
});
afterEach(() => fixture.close());

function task(cancelAfter = Infinity): TaskContext & { seen: number[] } {
  const controller = new AbortController();
  const seen: number[] = [];
  return {
    seen,
    signal: controller.signal,
    progress(done) {
      seen.push(done);
      if (done >= cancelAfter) controller.abort();
    },
  };
}

function fileRow(name: string, extra: Partial<StagingCreateRow> = {}): StagingCreateRow {
  const path = join(dir, name);
  writeFileSync(path, `content of ${name}`);
  return { key: path, file: { path, file_hash: '' }, title: name, metadata: {}, tags: [], expiry_date: null, links: [], ...extra };
}

const counts = async () => ({
  credentials: (await partner.service.listCredentials({ per_page: 1 })).total_items,
  files: (await partner.service.listFiles({ per_page: 1 })).total_items,
});

/** The same engine seen as a service without the batched call, as a RemoteService is: single requests. */
function withoutBatch(service: IssuingService): IssuingService {
  return Object.create(service, { createAndScheduleCredentials: { value: undefined } }) as IssuingService;
}

describe.each([
  ['concurrent single requests (a service without the batched call, as remote)', false],
  ['chunks in one transaction each (embedded engine)', true],
])('createRows: %s', (_name, embedded) => {
  const service = () => (embedded ? partner.service : withoutBatch(partner.service));
  it('creates rows in link order, linking to the new uids, and schedules them', async () => {
    const diploma = fileRow('diploma.pdf');
    const transcript: StagingCreateRow = { key: 'meta-1', file: null, title: 'Transcript', metadata: { grade: 'A' }, tags: ['transcript'], expiry_date: null, links: [diploma.key] };
    const outcomes = await createRows(service(), [transcript, diploma], { engine: 'local', allowDuplicates: false }, task());

    expect(outcomes.map((o) => o.status)).toEqual(['created', 'created']);
    const [t, d] = outcomes as { uid: string }[];
    const created = await partner.service.getCredential(t!.uid);
    expect(created.credentials.map((c) => c.uid)).toEqual([d!.uid]);
    const jobs = await partner.service.listJobs({ uid: d!.uid });
    expect(jobs.items.map((j) => [j.chain, j.status])).toEqual([['local', 'scheduled']]);
  });

  it('fails a bad row alone with the spec id, uploading nothing for it', async () => {
    const good = fileRow('good.pdf');
    const badTag = fileRow('bad-tag.pdf', { tags: ['x!'] });
    const badExpiry = fileRow('old.pdf', { expiry_date: '2001-01-01' });
    const empty: StagingCreateRow = { key: 'empty', file: null, title: 'No data', metadata: {}, tags: [], expiry_date: null, links: [] };
    const linksToBad = fileRow('follows.pdf', { links: [badTag.key] });

    const outcomes = await createRows(service(), [good, badTag, badExpiry, empty, linksToBad], { engine: null, allowDuplicates: false }, task());

    expect(outcomes.map((o) => (o.status === 'failed' ? o.error.id : o.status))).toEqual(['created', 'invalid_tag', 'invalid_expiry_date', 'missing_file_and_metadata', 'not_created']);
    expect(await counts()).toEqual({ credentials: 1, files: 1 });
  });

  it('an engine the service does not offer is refused with the service\'s reason, and nothing is made', async () => {
    const run = createRows(service(), [fileRow('elsewhere.pdf')], { engine: 'nowhere', allowDuplicates: false }, task());
    await expect(run).rejects.toMatchObject({ id: 'wrong_blockchain_engine', message: expect.stringContaining('Unknown blockchain engine "nowhere"; known engines: local') });
    expect(await counts()).toEqual({ credentials: 0, files: 0 });
  });

  it('refuses the second of two rows with the same content in one run, keeping the first', async () => {
    const first = fileRow('twin-a.pdf');
    const path = join(dir, 'twin-b.pdf');
    writeFileSync(path, 'content of twin-a.pdf');
    const outcomes = await createRows(service(), [first, { ...first, key: path, file: { path, file_hash: '' }, title: 'twin b' }], { engine: 'local', allowDuplicates: false }, task());
    expect(outcomes.map((o) => (o.status === 'failed' ? o.error.id : o.status))).toEqual(['created', 'file_already_exists']);
    expect(await counts()).toEqual({ credentials: 1, files: 1 });
  });

  it('refuses content already uploaded unless duplicates are allowed', async () => {
    const first = fileRow('same.pdf');
    await createRows(service(), [first], { engine: null, allowDuplicates: false }, task());
    const again = await createRows(service(), [{ ...first, key: 'again' }], { engine: 'local', allowDuplicates: false }, task());
    expect(again[0]).toMatchObject({ status: 'failed', error: { id: 'file_already_exists' } });
    const allowed = await createRows(service(), [{ ...first, key: 'allowed' }], { engine: 'local', allowDuplicates: true }, task());
    expect(allowed[0]!.status).toBe('created');
  });

  it('stops between rows (or chunks of rows) on cancel: each row wholly created or not at all', async () => {
    // The embedded path sees a cancel between chunks of INTAKE_BATCH rows, the other between rounds of 8 concurrent requests.
    const [count, cancelAfter] = embedded ? [INTAKE_BATCH + 150, INTAKE_BATCH] : [20, 8];
    const rows = Array.from({ length: count }, (_, i) => fileRow(`f${i}.pdf`));
    const outcomes = await createRows(service(), rows, { engine: 'local', allowDuplicates: false }, task(cancelAfter));

    expect(outcomes.map((o) => o.status)).toEqual([...Array(cancelAfter).fill('created'), ...Array(count - cancelAfter).fill('not_created')]);
    expect(await counts()).toEqual({ credentials: cancelAfter, files: cancelAfter });
    const job = (await partner.service.listJobs({ status: 'scheduled' })).items[0]!;
    expect((await partner.service.listJobCredentials(job.uid, { per_page: 1 })).total_items).toBe(cancelAfter);
  });

  it('refuses an unknown engine before creating anything', async () => {
    await expect(createRows(service(), [fileRow('a.pdf')], { engine: 'nope', allowDuplicates: false }, task())).rejects.toMatchObject({ id: 'wrong_blockchain_engine' });
    expect(await counts()).toEqual({ credentials: 0, files: 0 });
  });
});
