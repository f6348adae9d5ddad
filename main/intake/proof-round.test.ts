import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempNameOf, writeRound, type RoundStep } from './proof-round.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'proof-round-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeRound', () => {
  it('writes every file whole under its name (folders made; 300: one syncfs on Linux), in steps written → synced → renamed, leaving no temporary file', async () => {
    const steps: RoundStep[] = [];
    const files = Array.from({ length: 300 }, (_, i) => ({ path: join(dir, i % 2 ? 'a' : 'b/c', `${i}.proof.json`), text: `proof ${i}` }));
    const errors = await writeRound(files, { mode: 0o644, afterStep: (s) => steps.push(s) });
    expect(errors.every((e) => e === undefined)).toBe(true);
    expect(steps).toEqual(['written', 'synced', 'renamed']);
    for (const f of files) expect(readFileSync(f.path, 'utf8')).toBe(f.text);
    expect((statSync(files[0]!.path).mode & 0o777).toString(8)).toBe('644');
    expect([...readdirSync(join(dir, 'a')), ...readdirSync(join(dir, 'b/c'))].filter((n) => n.endsWith('.writing'))).toEqual([]);
  });

  it('a file that cannot be written fails alone, with its path, and leaves nothing behind', async () => {
    writeFileSync(join(dir, 'not-a-folder'), 'x');
    const errors = await writeRound([
      { path: join(dir, 'ok.json'), text: 'ok' },
      { path: join(dir, 'not-a-folder', 'x.json'), text: 'no' },
    ]);
    expect(errors[0]).toBeUndefined();
    expect(errors[1]).toMatchObject({ code: expect.stringMatching(/EEXIST|ENOTDIR/) });
    expect(readFileSync(join(dir, 'ok.json'), 'utf8')).toBe('ok');
    expect(readdirSync(dir).sort()).toEqual(['not-a-folder', 'ok.json']);
  });

  it('a temporary file left by a crash is overwritten by the next write of the same file', async () => {
    const path = join(dir, 'x.proof.json');
    writeFileSync(tempNameOf(path), 'half a pro');
    await writeRound([{ path, text: 'the whole proof' }]);
    expect(readdirSync(dir)).toEqual(['x.proof.json']);
    expect(readFileSync(path, 'utf8')).toBe('the whole proof');
  });
});

describe('writeRound, renames in the thread pool', () => {
  it('writes every file whole under its name, in the same steps, leaving no temporary file; a file that cannot be renamed fails alone', async () => {
    const steps: RoundStep[] = [];
    const files = Array.from({ length: 300 }, (_, i) => ({ path: join(dir, i % 2 ? 'a' : 'b/c', `${i}.proof.json`), text: `proof ${i}` }));
    // A folder where the last file's name is: its rename fails (and its temporary file is removed).
    const blocked = join(dir, 'a', 'blocked.proof.json');
    mkdirSync(join(blocked, 'inside'), { recursive: true });
    const errors = await writeRound([...files, { path: blocked, text: 'no' }], { afterStep: (s) => steps.push(s) });
    expect(errors.slice(0, 300).every((e) => e === undefined)).toBe(true);
    expect(errors[300]).toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    expect(steps).toEqual(['written', 'synced', 'renamed']);
    for (const f of files) expect(readFileSync(f.path, 'utf8')).toBe(f.text);
    expect([...readdirSync(join(dir, 'a')), ...readdirSync(join(dir, 'b/c'))].filter((n) => n.endsWith('.writing'))).toEqual([]);
  });
});
