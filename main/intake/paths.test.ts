/** Names that always fit, and writes that leave nothing half-done: real files in a temporary folder. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fitName, moveFile, NAME_MAX, numbered, tempNameOf, writeAtomic } from './paths.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'proofdesk-paths-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('fitName', () => {
  it('leaves a name that fits as it is', () => {
    expect(fitName('a.pdf', '.proof.json')).toBe('a.pdf.proof.json');
  });

  it('shortens a long name to 255 bytes, keeping its extension and the suffix, distinct per name', () => {
    const a = `${'a'.repeat(250)}1.pdf`;
    const b = `${'a'.repeat(250)}2.pdf`;
    const fa = fitName(a, '.proof.json');
    expect(Buffer.byteLength(fa)).toBeLessThanOrEqual(NAME_MAX);
    expect(fa.endsWith('.pdf.proof.json')).toBe(true);
    expect(fa).not.toBe(fitName(b, '.proof.json'));
    // The same name gives the same short name every time (a restart writes the same file).
    expect(fitName(a, '.proof.json')).toBe(fa);
  });

  it('cuts between characters, never inside a multi-byte one', () => {
    const name = `${'é'.repeat(127)}.txt`; // 258 bytes
    const fitted = fitName(name, '.error.json');
    expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(NAME_MAX);
    expect(fitted).not.toContain('\ufffd');
    expect(Buffer.from(fitted, 'utf8').toString('utf8')).toBe(fitted);
  });

  it('a numbered long name fits too', () => {
    expect(Buffer.byteLength(basename(numbered(`x/${'n'.repeat(251)}.txt`, 2)))).toBeLessThanOrEqual(NAME_MAX);
  });
});

describe('writeAtomic', () => {
  it('writes beside a 255-byte name through a short temporary name', async () => {
    const target = join(dir, `${'n'.repeat(251)}.txt`);
    expect(Buffer.byteLength(basename(tempNameOf(target)))).toBeLessThan(40);
    await writeAtomic(target, 'proof');
    expect(readFileSync(target, 'utf8')).toBe('proof');
    expect(readdirSync(dir)).toEqual([basename(target)]);
  });

  it('a write that fails leaves no temporary file, and names the path in its error', async () => {
    writeFileSync(join(dir, 'file'), 'not a folder');
    await expect(writeAtomic(join(dir, 'file', 'x.json'), 'data')).rejects.toMatchObject({ path: expect.stringContaining(dir) });
    expect(existsSync(tempNameOf(join(dir, 'file', 'x.json')))).toBe(false);
  });

  it('a folder removed after it was made once is made again by the next write and the next move', async () => {
    const out = join(dir, 'proofs');
    await writeAtomic(join(out, 'a.json'), 'a');
    rmSync(out, { recursive: true });
    await writeAtomic(join(out, 'b.json'), 'b');
    expect(readFileSync(join(out, 'b.json'), 'utf8')).toBe('b');
    writeFileSync(join(dir, 'c.txt'), 'c');
    expect(await moveFile(join(dir, 'c.txt'), join(dir, 'done', 'c.txt'))).toBe(true);
    rmSync(join(dir, 'done'), { recursive: true });
    writeFileSync(join(dir, 'd.txt'), 'd');
    expect(await moveFile(join(dir, 'd.txt'), join(dir, 'done', 'd.txt'))).toBe(true);
    expect(readdirSync(join(dir, 'done'))).toEqual(['d.txt']);
    expect(await moveFile(join(dir, 'gone.txt'), join(dir, 'done', 'gone.txt'))).toBe(false);
  });
});
