/** Stage 5, file away: notes and moves on a real folder and journal (core.fixture.ts). */
import { existsSync, lstatSync, readFileSync, renameSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageFixture, type StageFixture } from './folder-intake-core.fixture.js';
import { Filer } from './file-away.js';

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
    const link = [...f.core.rows.values()].find((r) => r.rel_path === 'link.txt')!;
    expect(link.state).toBe('failed'); // failed by the settling round
    await f.core.filer.fileAway(link);
    expect(lstatSync(join(f.root, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(f.root, 'failed', 'link.txt'))).toBe(false);
    expect(existsSync(join(f.root, 'failed', 'link.txt.error.json'))).toBe(true);
  });

  it('removes the stale note of a file that failed, was put back by hand and has now succeeded, and only that one', async () => {
    writeFileSync(join(f.root, 'a.txt'), 'a');
    const failed = await f.settled('a.txt');
    f.core.filer.fail(failed, 'invalid_value', 'Not good enough');
    await f.core.filer.fileAway(failed);
    f.core.untrack(failed);
    await f.core.durable();
    expect(existsSync(join(f.root, 'failed', 'a.txt.error.json'))).toBe(true);
    renameSync(join(f.root, 'failed', 'a.txt'), join(f.root, 'a.txt'));
    // b.txt failed too, and failed/b.txt is still there: its note stays with it.
    writeFileSync(join(f.root, 'b.txt'), 'b');
    const b = await f.settled('b.txt');
    f.core.filer.fail(b, 'invalid_value', 'old');
    await f.core.filer.fileAway(b);
    f.core.untrack(b);
    writeFileSync(join(f.root, 'b.txt'), 'b, another file of the same name');
    const a = await f.settled('a.txt');
    const b2 = await f.settled('b.txt');
    await f.core.filer.removeStaleNote(a);
    await f.core.filer.removeStaleNote(b2);
    expect(existsSync(join(f.root, 'failed', 'a.txt.error.json'))).toBe(false);
    expect(existsSync(join(f.root, 'failed', 'b.txt.error.json'))).toBe(true);
  });

  it('looks for a stale note only of a path the journal knows failed (read from the journal at start)', async () => {
    mkdirSync(join(f.root, 'failed'));
    // A note of a file that never failed here (written by hand): not a note of ours, left alone.
    writeFileSync(join(f.root, 'failed', 'c.txt.error.json'), JSON.stringify({ id: 'invalid_value', message: 'old', file: 'c.txt' }));
    writeFileSync(join(f.root, 'c.txt'), 'c');
    const c = await f.settled('c.txt');
    await f.core.filer.removeStaleNote(c);
    expect(existsSync(join(f.root, 'failed', 'c.txt.error.json'))).toBe(true);
    // A path failed in the journal (by an earlier run: a new Filer reads it from the journal).
    f.core.journal.save({ ...c, state: 'failed', closed_at: Date.now() });
    const restarted = new Filer(f.core);
    await restarted.removeStaleNote(c);
    expect(existsSync(join(f.root, 'failed', 'c.txt.error.json'))).toBe(false);
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
  });
});
