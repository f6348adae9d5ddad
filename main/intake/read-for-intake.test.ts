import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ByteGate } from './pool.js';
import { readForIntake } from './read-for-intake.js';
import { SMALL_FILE_BYTES } from '../files/hash-file.js';

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('readForIntake', () => {
  it('keeps a small file’s bytes while the budget allows, and only hashes a large file or one beyond the budget', async () => {
    dir = mkdtempSync(join(tmpdir(), 'proofdesk-read-'));
    const small = join(dir, 'small.txt');
    const large = join(dir, 'large.bin');
    writeFileSync(small, 'x'.repeat(1000));
    writeFileSync(large, Buffer.alloc(SMALL_FILE_BYTES + 1, 7));
    const budget = new ByteGate(1500);

    const first = await readForIntake(small, budget);
    expect(first.bytes?.length).toBe(1000);
    expect(first.sha256).toBe(createHash('sha256').update('x'.repeat(1000)).digest('hex'));
    const second = await readForIntake(small, budget);
    expect(second).toMatchObject({ bytes: undefined, size: 1000, sha256: first.sha256 });
    budget.release(1000);
    expect((await readForIntake(small, budget)).bytes?.length).toBe(1000);

    const big = await readForIntake(large);
    expect(big).toMatchObject({ bytes: undefined, size: SMALL_FILE_BYTES + 1 });
    await expect(readForIntake(join(dir, 'gone.txt'), budget)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
