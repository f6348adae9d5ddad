import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countFsCalls } from '../../test/support/fs-calls.js';
import { FileStore, type StagedFile } from './file-store.js';

let dir: string;
let store: FileStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'file-store-'));
  store = new FileStore(dir);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The files left in the store's staging folders (the folders themselves stay until it closes). */
function stagedFiles(): string[] {
  return readdirSync(join(dir, 'tmp'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

/** How many calls of node:fs `name` inside the store's folder committing `staged` makes. */
function callsWhileCommitting(staged: StagedFile[], name: string): number {
  const counter = countFsCalls(dir, [], [name]);
  try {
    for (const s of staged) store.commit(s);
    return counter.count();
  } finally {
    counter.restore();
  }
}

describe('FileStore staging in bulk', () => {
  it('stages bytes in memory (hash, size, sniffed type), syncs a batch of them in one pass, then commits them under their hash', async () => {
    const bytes = Array.from({ length: 50 }, (_, i) => Buffer.from(i === 0 ? '%PDF-1.4 zero' : `file ${i}`));
    const staged = await Promise.all(bytes.map((data, i) => store.stage({ data, name: `f${i}.txt` })));
    expect(staged[0]).toMatchObject({ hash: sha256Hex(bytes[0]!), size: bytes[0]!.length, fileType: 'application/pdf' });
    expect(staged[1]!.fileType).toBe('text/plain');
    await store.syncStaged(staged);
    for (const s of staged) store.commit(s);
    for (const data of bytes) expect(readFileSync(store.pathOf(sha256Hex(data)))).toEqual(data);
    expect(readdirSync(join(dir, 'tmp'))).toHaveLength(1);
    expect(stagedFiles()).toEqual([]);
  });

  it('folders removed by hand meanwhile (its staging folder, a shard of the store) are made again, not made per file', async () => {
    const a = Buffer.from('first');
    store.commit(await store.stage({ data: a }));
    rmSync(join(dir, 'files', sha256Hex(a).slice(0, 2)), { recursive: true });
    rmSync(join(dir, 'tmp'), { recursive: true });
    const again = await store.stage({ data: a });
    await store.syncStaged([again]);
    store.commit(again);
    expect(existsSync(store.pathOf(sha256Hex(a)))).toBe(true);
  });

  it.runIf(process.platform !== 'win32')('commits each staged file with one rename, no look first (counted on the real file system); bytes stored already stay the same', async () => {
    const bytes = Array.from({ length: 20 }, (_, i) => Buffer.from(`file ${i % 10}`));
    const staged = [];
    for (const data of bytes) staged.push(await store.stage({ data }));
    await store.syncStaged(staged);
    expect(callsWhileCommitting(staged, 'existsSync')).toBe(0);
    for (const data of bytes) expect(readFileSync(store.pathOf(sha256Hex(data)))).toEqual(data);
    expect(stagedFiles()).toEqual([]);
  });

  it('makes a batch’s new store folders before its sync pass, in the thread pool: committing then makes none on the calling thread', async () => {
    const bytes = Array.from({ length: 40 }, (_, i) => Buffer.from(`shard ${i}`));
    const staged = await Promise.all(bytes.map((data) => store.stage({ data })));
    await store.makeShards(staged);
    for (const s of staged) expect(existsSync(join(dir, 'files', s.hash.slice(0, 2)))).toBe(true);
    await store.syncStaged(staged);
    expect(callsWhileCommitting(staged, 'mkdirSync')).toBe(0);
    for (const data of bytes) expect(readFileSync(store.pathOf(sha256Hex(data)))).toEqual(data);
  });
});
