/** Staging on real files and a real engine: the watch folder's rules, sidecars, manifests, duplicates. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, openEngineWithPartner, type EngineFixture, type TestPartner } from '../../../test/support/engine-fixture.js';
import { stagePaths } from './stage-files.js';

let fixture: EngineFixture;
let partner: TestPartner;
let dir: string;

beforeEach(() => {
  ({ fixture, partner } = openEngineWithPartner());
  dir = makeTempDir('proofdesk-stage-');
});
afterEach(() => fixture.close());

const scope = () => fixture.engine.scopeFor(partner.id);

describe('stagePaths', () => {
  it('walks a folder with the watch folder rules and applies sidecars and manifest.csv', async () => {
    const folder = join(dir, 'diplomas');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'alice.pdf'), 'alice');
    writeFileSync(join(folder, 'alice.pdf.json'), JSON.stringify({ title: 'Diploma of Alice', tags: ['diploma'], metadata: { grade: 'A' } }));
    writeFileSync(join(folder, 'sub', 'bob.pdf'), 'bob');
    writeFileSync(join(folder, 'manifest.csv'), 'file,title,tags,meta.grade\nsub/bob.pdf,Diploma of Bob,diploma;bsc,B\n');
    writeFileSync(join(folder, 'carol.pdf.part'), 'partial download');
    writeFileSync(join(folder, '.DS_Store'), 'litter');
    writeFileSync(join(folder, 'dave.pdf'), 'dave');
    writeFileSync(join(folder, 'dave.pdf.json'), '{"tags": ["x"]}');
    symlinkSync('/etc/hostname', join(folder, 'outside.pdf'));

    const { rows, skipped } = await stagePaths([folder], { scope: scope() });

    expect(rows.map((r) => r.file?.rel_path)).toEqual(['alice.pdf', 'dave.pdf', 'sub/bob.pdf']);
    const [alice, dave, bob] = rows;
    expect(alice).toMatchObject({ title: 'Diploma of Alice', tags: ['diploma'], metadata: { grade: 'A' }, problem: null, duplicate_of: [] });
    expect(alice!.file!.file_hash).toBe('2bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90');
    expect(bob).toMatchObject({ title: 'Diploma of Bob', tags: ['diploma', 'bsc'], metadata: { grade: 'B' }, problem: null });
    // A bad sidecar fails that row alone, with the spec's id and where the problem is.
    expect(dave!.title).toBe('Dave');
    expect(dave!.problem).toMatchObject({ id: 'invalid_tag' });
    expect(dave!.problem!.message).toContain('dave.pdf.json');
    expect(skipped.map((s) => s.path).sort()).toEqual([join(folder, '.DS_Store'), join(folder, 'carol.pdf.part'), join(folder, 'outside.pdf')].sort());
  });

  it('asks the intake about every file with anything beside it, even a sidecar that is a link or a manifest two folders up', async () => {
    const folder = join(dir, 'drop');
    mkdirSync(join(folder, 'a', 'b'), { recursive: true });
    writeFileSync(join(folder, 'plain.pdf'), 'plain');
    writeFileSync(join(folder, 'linked.pdf'), 'linked');
    writeFileSync(join(dir, 'elsewhere.json'), '{"title": "Not from here"}');
    symlinkSync(join(dir, 'elsewhere.json'), join(folder, 'linked.pdf.json'));
    writeFileSync(join(folder, 'a', 'manifest.csv'), 'file,title\nb/deep.pdf,Deep diploma\n');
    writeFileSync(join(folder, 'a', 'b', 'deep.pdf'), 'deep');

    const { rows } = await stagePaths([folder], { scope: scope() });

    const byPath = Object.fromEntries(rows.map((r) => [r.file!.rel_path, r]));
    expect(byPath['plain.pdf']).toMatchObject({ title: 'Plain', problem: null });
    expect(byPath['linked.pdf']!.problem).toMatchObject({ id: 'invalid_value' });
    expect(byPath['linked.pdf']!.problem!.message).toContain('symbolic link');
    expect(byPath['a/b/deep.pdf']).toMatchObject({ title: 'Deep diploma', problem: null });
  });

  it('takes loose files, refuses temporary ones, and flags content that is already a credential', async () => {
    writeFileSync(join(dir, 'one.txt'), 'one');
    writeFileSync(join(dir, 'two.txt'), 'two');
    writeFileSync(join(dir, 'three.tmp'), 'three');
    const uploaded = await partner.service.uploadFile({ file: { path: join(dir, 'one.txt') } });
    const existing = await partner.service.createCredential({ title: 'Earlier one', metadata: {}, files: [uploaded.file_hash] });

    const { rows, skipped } = await stagePaths([join(dir, 'one.txt'), join(dir, 'two.txt'), join(dir, 'three.tmp'), join(dir, 'gone.txt')], { scope: scope() });

    expect(rows.map((r) => r.title)).toEqual(['One', 'Two']);
    expect(rows[0]!.duplicate_of).toEqual([{ uid: existing.uid, title: 'Earlier one' }]);
    expect(rows[1]!.duplicate_of).toEqual([]);
    expect(skipped.map((s) => s.reason)).toEqual(['a hidden or temporary file', 'it is not there any more']);
  });
});
