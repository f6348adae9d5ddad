/** Stage 2, describe: hash and metadata of a settled file, on a real folder and journal (core.fixture.ts). */
import { createHash } from 'node:crypto';
import { symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageFixture, type StageFixture } from './folder-intake-core.fixture.js';

let f: StageFixture;
beforeEach(() => (f = stageFixture(20)));
afterEach(() => f.close());

describe('describe', () => {
  it('hashes the bytes it reads and makes the details from the sidecar, the folder and the ingest key', async () => {
    writeFileSync(join(f.root, 'd.pdf.json'), '{"title": "Diploma", "metadata": {"grade": "A"}}');
    f.clock.advance(40); // the sidecar is older than the stable time
    writeFileSync(join(f.root, 'd.pdf'), 'diploma bytes');
    const row = await f.settled('d.pdf');
    const result = await f.core.describer.hash(row);
    const sha256 = createHash('sha256').update('diploma bytes').digest('hex');
    expect(result?.bytes?.toString()).toBe('diploma bytes');
    expect(row).toMatchObject({ state: 'hashed', sha256, sidecar: 'd.pdf.json' });
    expect(JSON.parse(row.details!)).toEqual({ title: 'Diploma', metadata: { grade: 'A', ingest: { sha256, path: 'd.pdf' } }, tags: [] });
  });

  it('a file swapped for a link after it settled is failed, not read', async () => {
    writeFileSync(join(f.base, 'secret.txt'), 'outside!');
    writeFileSync(join(f.root, 'x.txt'), 'inside!!');
    const row = await f.settled('x.txt');
    unlinkSync(join(f.root, 'x.txt'));
    symlinkSync(join(f.base, 'secret.txt'), join(f.root, 'x.txt'));
    expect(await f.core.describer.hash(row)).toBeUndefined();
    expect(row).toMatchObject({ state: 'failed', error_id: 'no_file_on_payload', sha256: null });
    expect(row.error_message).toContain('symbolic link');
  });
});
