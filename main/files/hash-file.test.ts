import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { SMALL_FILE_BYTES, hashChunks, hashFile, sha256Hex } from './hash-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fileWith(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'hash-file-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'f'), bytes);
  return join(dir, 'f');
}

describe('hashFile', () => {
  it('hashes a small file as SHA-256 hex, with its size', async () => {
    expect(await hashFile(fileWith(Buffer.from('abc')))).toEqual({ sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', size: 3 });
  });

  it('hashes an empty file', async () => {
    expect(await hashFile(fileWith(Buffer.alloc(0)))).toEqual({ sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', size: 0 });
  });

  it('streams a file over SMALL_FILE_BYTES to the same hash as its bytes', async () => {
    const bytes = Buffer.alloc(SMALL_FILE_BYTES + 12_345, 7);
    expect(await hashFile(fileWith(bytes))).toEqual({ sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
  });

  it("rejects with the file system's error for a missing file", async () => {
    await expect(hashFile(join(tmpdir(), 'no-such-file-for-hash-file'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('hashChunks and sha256Hex', () => {
  it('give the same hash for the same bytes, in chunks or whole', async () => {
    expect(await hashChunks(Readable.from([Buffer.from('a'), Buffer.from('bc')]))).toEqual({ sha256: sha256Hex('abc'), size: 3 });
    expect(sha256Hex(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
