import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProofRounds, tempNameOf, writeRound, type RoundStep } from './proof-round.js';

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

describe('ProofRounds', () => {
  it('gathers writes made in the same turn into one round; the same path twice keeps the last text', async () => {
    const steps: RoundStep[] = [];
    const rounds = new ProofRounds(500, (s) => steps.push(s));
    await Promise.all([...Array.from({ length: 40 }, (_, i) => rounds.write(join(dir, `${i}.json`), `${i}`)), rounds.write(join(dir, '0.json'), 'again')]);
    expect(steps.filter((s) => s === 'synced')).toHaveLength(1);
    expect(readdirSync(dir)).toHaveLength(40);
    expect(readFileSync(join(dir, '0.json'), 'utf8')).toBe('again');
  });

  it('a full round goes at once; a failed write rejects only its own promise', async () => {
    const steps: RoundStep[] = [];
    const rounds = new ProofRounds(3, (s) => steps.push(s));
    writeFileSync(join(dir, 'file'), 'x');
    const results = await Promise.allSettled([1, 2, 3, 4].map((i) => rounds.write(join(dir, i === 2 ? 'file/2.json' : `${i}.json`), `${i}`)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(steps.filter((s) => s === 'synced')).toHaveLength(2);
  });
});
