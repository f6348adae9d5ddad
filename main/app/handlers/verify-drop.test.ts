import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// statSync counted (and still done by the real one): how many looks a walk takes.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  return { ...real, statSync: vi.fn(real.statSync) };
});
// Loaded anew after the mock: unit test files share a worker's modules (isolate: false), and an
// earlier file may have loaded verify-drop.js with the real node:fs.
vi.resetModules();
const { collectDrop, originalNameOf } = await import('./verify-drop.js');

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'proofdesk-verify-drop-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('collectDrop', () => {
  it('sorts a folder into proofs and originals; a .json original of a proof stays an original; hidden files are left out', () => {
    const dir = tree({ 'a.pdf.proof.json': '{}', 'a.pdf': 'x', 'data.json': '{}', 'data.json.proof.json': '{}', 'other.json': '{}', 'sub/b.PROOF.JSON': '{}', '.DS_Store': 'junk' });
    const { proofs, originals, skipped } = collectDrop([dir]);
    const base = dir.split('/').pop();
    expect(proofs.map((p) => p.name).sort()).toEqual([`${base}/a.pdf.proof.json`, `${base}/data.json.proof.json`, `${base}/other.json`, `${base}/sub/b.PROOF.JSON`]);
    expect(originals.map((o) => o.name).sort()).toEqual([`${base}/a.pdf`, `${base}/data.json`]);
    expect(skipped).toEqual([]);
  });

  it('lists the regular files of a folder from its listing, without a look (stat) at each', () => {
    const dir = tree(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`sub/p${i}.proof.json`, '{}'])));
    vi.mocked(fs.statSync).mockClear();
    const { proofs } = collectDrop([dir]);
    expect(proofs).toHaveLength(50);
    // The dropped folder and its subfolder: a look each.
    expect(vi.mocked(fs.statSync).mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('follows a link in a dropped folder as before: to a file it is that file, to a folder its files; a broken one is reported', () => {
    const outside = tree({ 'linked.proof.json': '{}', 'inner/deep.proof.json': '{}' });
    const dir = tree({ 'own.proof.json': '{}' });
    symlinkSync(join(outside, 'linked.proof.json'), join(dir, 'link.proof.json'));
    symlinkSync(join(outside, 'inner'), join(dir, 'folder-link'));
    symlinkSync(join(outside, 'nothing-here'), join(dir, 'broken.proof.json'));
    const base = dir.split('/').pop();
    const { proofs, skipped } = collectDrop([dir]);
    expect(proofs.map((p) => p.name)).toEqual([`${base}/folder-link/deep.proof.json`, `${base}/link.proof.json`, `${base}/own.proof.json`]);
    expect(proofs.find((p) => p.name.endsWith('link.proof.json'))?.path).toBe(join(dir, 'link.proof.json'));
    expect(skipped).toEqual([{ name: `${base}/broken.proof.json`, reason: 'it could not be read (it was moved, or permission is denied)' }]);
  });

  it('names loose files by their base name and reports a path that is gone', () => {
    const dir = tree({ 'x.proof.json': '{}' });
    const { proofs, skipped } = collectDrop([join(dir, 'x.proof.json'), join(dir, 'gone.pdf')]);
    expect(proofs).toEqual([{ path: join(dir, 'x.proof.json'), name: 'x.proof.json' }]);
    expect(skipped).toEqual([{ name: 'gone.pdf', reason: 'it could not be read (it was moved, or permission is denied)' }]);
  });
});

describe('originalNameOf', () => {
  it('strips .proof.json only', () => {
    expect(originalNameOf('f/diploma.pdf.proof.json')).toBe('f/diploma.pdf');
    expect(originalNameOf('UID.json')).toBeNull();
  });
});
