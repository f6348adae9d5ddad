import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UploadWriter } from './upload-writer.js';

const dirs: string[] = [];
const writers: UploadWriter[] = [];
afterEach(() => {
  for (const w of writers.splice(0)) w.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setUp(): { dir: string; writer: UploadWriter } {
  const dir = mkdtempSync(join(tmpdir(), 'proofdesk-upload-writer-'));
  dirs.push(dir);
  const writer = new UploadWriter();
  writers.push(writer);
  return { dir, writer };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('UploadWriter', () => {
  it('writes each file of a body where it goes (0600, folders 0700) and answers their SHA-256 in order', async () => {
    const { dir, writer } = setUp();
    const body = Buffer.from('headeralicexbob');
    const files = [
      { target: join(dir, 'drop', 'alice.pdf'), start: 6, end: 11 },
      { target: join(dir, 'drop', 'sub', 'bob.pdf'), start: 12, end: 15 },
    ];
    const hashes = await writer.write([join(dir, 'drop'), join(dir, 'drop', 'sub')], files, body);
    expect(hashes).toEqual([sha256('alice'), sha256('bob')]);
    expect(readFileSync(files[0]!.target, 'utf8')).toBe('alice');
    expect(readFileSync(files[1]!.target, 'utf8')).toBe('bob');
    expect(statSync(files[0]!.target).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'drop', 'sub')).mode & 0o777).toBe(0o700);
  });

  it('takes a body that shares its memory with other Buffers, leaving them as they were', async () => {
    const { dir, writer } = setUp();
    // Small Buffers come from one shared pool: only this one's bytes may go to the thread.
    const other = Buffer.from('other bytes');
    const body = Buffer.from('small');
    expect(body.byteLength).toBeLessThan(body.buffer.byteLength);
    await writer.write([dir], [{ target: join(dir, 'small.txt'), start: 0, end: 5 }], body);
    expect(readFileSync(join(dir, 'small.txt'), 'utf8')).toBe('small');
    expect(other.toString()).toBe('other bytes');
  });

  it('refuses with a sentence when a file cannot be written, and writes the next request', async () => {
    const { dir, writer } = setUp();
    writeFileSync(join(dir, 'a-file'), 'x');
    // A folder where a file is: the write fails.
    await expect(writer.write([join(dir, 'a-file', 'sub')], [{ target: join(dir, 'a-file', 'sub', 'x.pdf'), start: 0, end: 1 }], Buffer.from('x'))).rejects.toThrow(
      /^The uploaded files could not be saved in the temporary folder \(E[A-Z]+\): check that it has room and may be written to, then drop the files again$/,
    );
    const hashes = await writer.write([dir], [{ target: join(dir, 'ok.pdf'), start: 0, end: 2 }], Buffer.from('ok'));
    expect(hashes).toEqual([sha256('ok')]);
  });
});
