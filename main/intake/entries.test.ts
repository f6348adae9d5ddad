/** What the intake may read and move: real files, links and pipes in a temporary folder. */
import { execFileSync } from 'node:child_process';
import fs, { linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkMovable, ContainmentError, hashContained, HARDLINK_REASON, isInside, openContained, statEntry, SYMLINK_REASON } from './entries.js';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'proofdesk-entries-')));
  root = join(base, 'inbox');
  outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'outside');
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('statEntry', () => {
  it('a regular file with one name is a file; links are refused as they are, never followed', async () => {
    writeFileSync(join(root, 'a.txt'), 'abc');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(outside, join(root, 'dir-link'));
    symlinkSync('nowhere', join(root, 'dangling'));
    linkSync(join(outside, 'secret.txt'), join(root, 'hard.txt'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    expect(await statEntry(join(root, 'a.txt'))).toMatchObject({ kind: 'file', size: 3 });
    for (const name of ['link.txt', 'dir-link', 'dangling']) expect(await statEntry(join(root, name))).toMatchObject({ kind: 'other', reason: SYMLINK_REASON, link: true });
    expect(await statEntry(join(root, 'hard.txt'))).toMatchObject({ kind: 'other', reason: HARDLINK_REASON, link: true });
    expect(await statEntry(join(root, 'pipe'))).toMatchObject({ kind: 'other', reason: expect.stringContaining('named pipe') });
    expect(await statEntry(join(root, 'gone.txt'))).toEqual({ kind: 'gone' });
  });
});

describe('openContained and hashContained', () => {
  it('read a regular file inside the folder', async () => {
    writeFileSync(join(root, 'a.txt'), 'abc');
    const { sha256, bytes } = await hashContained(join(root, 'a.txt'), 3, root);
    expect(sha256).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(bytes?.toString()).toBe('abc');
  });

  it('refuse a link, a hard link, and a file reached through a linked folder', () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    writeFileSync(join(outside, 'other.txt'), 'outside, one name');
    linkSync(join(outside, 'secret.txt'), join(root, 'hard.txt'));
    symlinkSync(outside, join(root, 'sub'));
    expect(() => openContained(join(root, 'link.txt'), root)).toThrow(ContainmentError);
    expect(() => openContained(join(root, 'hard.txt'), root)).toThrow(HARDLINK_REASON);
    expect(() => openContained(join(root, 'sub', 'other.txt'), root)).toThrow(/outside the watched folder/);
  });

  it('a file swapped for a link after it was looked at is not read (O_NOFOLLOW, and the descriptor checked)', async () => {
    writeFileSync(join(root, 'a.txt'), 'abc');
    expect(await statEntry(join(root, 'a.txt'))).toMatchObject({ kind: 'file' });
    unlinkSync(join(root, 'a.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'a.txt'));
    await expect(hashContained(join(root, 'a.txt'), 3, root)).rejects.toThrow(ContainmentError);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside');
  });
});

/** Counts the calls of some node:fs functions (the real ones run) while `run` runs. */
async function countingFs<T>(names: string[], run: () => Promise<T>): Promise<{ result: T; calls: Record<string, number> }> {
  const target = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = names.map((name) => target[name]!);
  const calls: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  names.forEach((name, i) => {
    target[name] = (...args: unknown[]) => {
      calls[name]!++;
      return originals[i]!(...args);
    };
  });
  syncBuiltinESMExports();
  try {
    return { result: await run(), calls };
  } finally {
    names.forEach((name, i) => (target[name] = originals[i]!));
    syncBuiltinESMExports();
  }
}

describe('hashContained with the fewest calls (counted on the real file system)', () => {
  const names = ['lstatSync', 'openSync', 'fstatSync', 'readSync', 'readFileSync', 'closeSync'];

  it('a tiny file: lstat, open, fstat, one read of its size, fstat after, close — the read stats nothing more', async () => {
    writeFileSync(join(root, 'a.txt'), 'abc');
    const { result, calls } = await countingFs(names, () => hashContained(join(root, 'a.txt'), 3, root));
    expect(result.bytes?.toString()).toBe('abc');
    expect(calls).toEqual({ lstatSync: 1, openSync: 1, fstatSync: 2, readSync: 1, readFileSync: 0, closeSync: 1 });
  });

  it('given the look its caller just took (seen) and no look after wanted: no second lstat, no fstat after the read', async () => {
    writeFileSync(join(root, 'a.txt'), 'abc');
    const seen = await statEntry(join(root, 'a.txt'));
    const { result, calls } = await countingFs(names, () => hashContained(join(root, 'a.txt'), 3, root, { seen, after: false }));
    expect(result.sha256).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(calls).toEqual({ lstatSync: 0, openSync: 1, fstatSync: 1, readSync: 1, readFileSync: 0, closeSync: 1 });
  });

  it('given an old look of a file since swapped for a link: not read all the same (O_NOFOLLOW, the descriptor checked)', async () => {
    writeFileSync(join(root, 'a.txt'), 'abc');
    const seen = await statEntry(join(root, 'a.txt'));
    unlinkSync(join(root, 'a.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'a.txt'));
    await expect(hashContained(join(root, 'a.txt'), 3, root, { seen })).rejects.toThrow(ContainmentError);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside');
  });

  it('a file that grew since its size was taken: the read stops at the size it was opened with, as readFileSync did', async () => {
    writeFileSync(join(root, 'a.txt'), 'abcdef');
    const { bytes } = await hashContained(join(root, 'a.txt'), 6, root);
    expect(bytes?.toString()).toBe('abcdef');
  });
});

describe('checkMovable', () => {
  it('given the look its caller just took: no second lstat (counted on the real file system); a folder that leads outside is refused all the same', async () => {
    writeFileSync(join(root, 'a.txt'), 'abc');
    const seen = await statEntry(join(root, 'a.txt'));
    const { result, calls } = await countingFs(['lstatSync'], () => Promise.resolve(checkMovable(join(root, 'a.txt'), root, seen)));
    expect(result).toBe(true);
    expect(calls).toEqual({ lstatSync: 0 });
    mkdirSync(join(outside, 'sub'));
    writeFileSync(join(outside, 'sub', 'b.txt'), 'b');
    symlinkSync(join(outside, 'sub'), join(root, 'sub'));
    const seenOutside = await statEntry(join(root, 'sub', 'b.txt'));
    expect(() => checkMovable(join(root, 'sub', 'b.txt'), root, seenOutside)).toThrow(/outside/);
  });

  it('a file inside may move; a link may not; a file gone is false', () => {
    writeFileSync(join(root, 'a.txt'), 'abc');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(outside, join(root, 'sub'));
    expect(checkMovable(join(root, 'a.txt'), root)).toBe(true);
    expect(() => checkMovable(join(root, 'link.txt'), root)).toThrow(ContainmentError);
    expect(() => checkMovable(join(root, 'sub', 'secret.txt'), root)).toThrow(/outside/);
    expect(checkMovable(join(root, 'gone.txt'), root)).toBe(false);
  });

  it('isInside compares whole path segments', () => {
    expect(isInside('/a/inbox', '/a/inbox/x')).toBe(true);
    expect(isInside('/a/inbox', '/a/inbox')).toBe(true);
    expect(isInside('/a/inbox', '/a/inbox2/x')).toBe(false);
  });
});
