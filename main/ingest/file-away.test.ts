/** Stage 5, file away: notes and moves on a real folder and journal (core.fixture.ts). */
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageFixture, type StageFixture } from './core.fixture.js';

let f: StageFixture;
beforeEach(() => (f = stageFixture(20)));
afterEach(() => f.close());

describe('file away', () => {
  it('a failed file moves to failed/ with its note; a failed link gets its note and stays where it is', async () => {
    writeFileSync(join(f.root, 'bad.txt'), 'bad');
    symlinkSync('/etc/hostname', join(f.root, 'link.txt'));
    const bad = await f.settled('bad.txt');
    f.core.filer.fail(bad, 'invalid_value', 'Not good enough');
    await f.core.filer.fileAway(bad);
    expect(readFileSync(join(f.root, 'failed', 'bad.txt'), 'utf8')).toBe('bad');
    expect(JSON.parse(readFileSync(join(f.root, 'failed', 'bad.txt.error.json'), 'utf8'))).toMatchObject({ id: 'invalid_value', message: 'Not good enough', file: 'bad.txt' });
    const link = [...f.core.rows.values()].find((r) => r.rel_path === 'link.txt')!;
    expect(link.state).toBe('failed'); // failed by the settling round
    await f.core.filer.fileAway(link);
    expect(lstatSync(join(f.root, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(f.root, 'failed', 'link.txt'))).toBe(false);
    expect(existsSync(join(f.root, 'failed', 'link.txt.error.json'))).toBe(true);
  });

  it('removes the stale note of a file that was put back and has now succeeded, and only that one', async () => {
    mkdirSync(join(f.root, 'failed'));
    writeFileSync(join(f.root, 'failed', 'a.txt.error.json'), JSON.stringify({ id: 'invalid_value', message: 'old', file: 'a.txt' }));
    writeFileSync(join(f.root, 'failed', 'b.txt'), 'still failed');
    writeFileSync(join(f.root, 'failed', 'b.txt.error.json'), JSON.stringify({ id: 'invalid_value', message: 'old', file: 'b.txt' }));
    writeFileSync(join(f.root, 'a.txt'), 'a');
    writeFileSync(join(f.root, 'b.txt'), 'b, another file of the same name');
    const a = await f.settled('a.txt');
    const b = [...f.core.rows.values()].find((r) => r.rel_path === 'b.txt')!;
    await f.core.filer.removeStaleNote(a);
    await f.core.filer.removeStaleNote(b);
    expect(existsSync(join(f.root, 'failed', 'a.txt.error.json'))).toBe(false);
    // failed/b.txt is still there: its note stays with it.
    expect(existsSync(join(f.root, 'failed', 'b.txt.error.json'))).toBe(true);
  });
});

describe('file away, destinations', () => {
  it('a failed/ that is a link to elsewhere is not moved into: the file stays in the folder', async () => {
    const elsewhere = join(f.base, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(f.root, 'failed'));
    writeFileSync(join(f.root, 'bad.txt'), 'bad');
    const bad = await f.settled('bad.txt');
    f.core.filer.fail(bad, 'invalid_value', 'Not good enough');
    await expect(f.core.filer.fileAway(bad)).rejects.toMatchObject({ code: 'EOUTSIDE' });
    expect(readFileSync(join(f.root, 'bad.txt'), 'utf8')).toBe('bad');
    expect(existsSync(join(elsewhere, 'bad.txt'))).toBe(false);
    expect(existsSync(join(elsewhere, 'bad.txt.error.json'))).toBe(false);
  });
});
