/**
 * Reading a proof file (verify-read-proof.ts): what it answers, and how few calls to the file
 * system it takes (a folder of 10,000 proofs is read one file after another).
 */
import * as fs from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { isServiceError } from '../../../common/errors.js';

// readSync counted (and still done by the real one).
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  return { ...real, readSync: vi.fn(real.readSync) };
});
// Loaded anew after the mock: unit test files share a worker's modules (isolate: false), and an
// earlier file may have loaded verify-read-proof.js with the real node:fs.
vi.resetModules();
const { MAX_PROOF_FILE_BYTES, readProofFile } = await import('./verify-read-proof.js');

const dir = mkdtempSync(join(tmpdir(), 'proofdesk-read-proof-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function messageOf(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (isServiceError(error)) return error.message;
    throw error;
  }
  return 'no error';
}

describe('readProofFile', () => {
  it('reads a proof-sized file with one read (its short read is its end)', () => {
    const path = file('one.proof.json', JSON.stringify({ leaf: 'ab'.repeat(32), pad: 'x'.repeat(3000) }));
    vi.mocked(fs.readSync).mockClear();
    expect(readProofFile(path)).toEqual({ leaf: 'ab'.repeat(32), pad: 'x'.repeat(3000) });
    expect(vi.mocked(fs.readSync).mock.calls.length).toBe(1);
  });

  it('accepts a UTF-8 byte-order mark, and an empty file is not JSON', () => {
    expect(readProofFile(file('bom.proof.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')])))).toEqual({ a: 1 });
    expect(messageOf(() => readProofFile(file('empty.proof.json', '')))).toMatch(/is not a proof file: it is not JSON/);
  });

  it('refuses a file over the limit before reading it, and says why a file cannot be read', () => {
    const big = file('big.proof.json', Buffer.alloc(MAX_PROOF_FILE_BYTES + 1, 0x20));
    vi.mocked(fs.readSync).mockClear();
    expect(messageOf(() => readProofFile(big))).toMatch(/a proof file is at most/);
    expect(vi.mocked(fs.readSync)).not.toHaveBeenCalled();
    expect(messageOf(() => readProofFile(join(dir, 'gone.proof.json')))).toMatch(/there is no such file/);
    expect(messageOf(() => readProofFile(dir))).toMatch(/is not a file|it is a directory/);
  });

  it('reads a file of exactly the limit', () => {
    const text = `{"pad":"${'x'.repeat(MAX_PROOF_FILE_BYTES - 10)}"}`;
    expect(Buffer.byteLength(text)).toBe(MAX_PROOF_FILE_BYTES);
    expect((readProofFile(file('limit.proof.json', text)) as { pad: string }).pad).toHaveLength(MAX_PROOF_FILE_BYTES - 10);
  });
});
