/** Stage 1, find and settle, driven step by step on a real folder and journal (core.fixture.ts). */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageFixture, type StageFixture } from './core.fixture.js';
import { SYMLINK_REASON } from './entries.js';

let f: StageFixture;
beforeEach(() => (f = stageFixture(50)));
afterEach(() => f.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rowOf(rel: string) {
  return [...f.core.rows.values()].find((r) => r.rel_path === rel);
}

describe('find and settle', () => {
  it('a scan finds files and links but never looks into a linked folder; a name that is not UTF-8 is reported once', async () => {
    const outside = join(f.base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'c.txt'), 'outside');
    mkdirSync(join(f.root, 'sub'));
    writeFileSync(join(f.root, 'a.txt'), 'a');
    writeFileSync(join(f.root, 'sub', 'b.txt'), 'b');
    symlinkSync(outside, join(f.root, 'linked'));
    writeFileSync(Buffer.concat([Buffer.from(`${f.root}/x-`), Buffer.from([0xc3, 0x28]), Buffer.from('.txt')]), 'bad name');
    await f.core.settler.rescan();
    expect([...f.core.discovered.values()].map((d) => d.rel).sort()).toEqual(['a.txt', 'linked', 'sub/b.txt']);
    await f.core.settler.rescan();
    const failed = f.events.filter((e) => e.type === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ id: 'invalid_value', message: expect.stringContaining('not valid UTF-8 (bytes 782dc3282e747874)') });
    expect(f.core.counts.failed).toBe(1);
  });

  it('a file is taken once unchanged for the stable time; one still being written waits; a link fails with its reason', async () => {
    writeFileSync(join(f.root, 'done-writing.txt'), 'complete');
    writeFileSync(join(f.root, 'growing.txt'), 'part');
    symlinkSync('done-writing.txt', join(f.root, 'link.txt'));
    await f.core.settler.rescan();
    await f.core.settler.settleRound();
    expect(rowOf('done-writing.txt')?.state).toBe('seen');
    for (let i = 0; i < 4; i++) {
      await sleep(30);
      writeFileSync(join(f.root, 'growing.txt'), `part ${i}`, { flag: 'a' });
      await f.core.settler.settleRound();
    }
    const taken = rowOf('done-writing.txt')!;
    expect(f.core.queues.take.queued.has(taken.id)).toBe(true);
    expect(f.core.queues.take.queued.has(rowOf('growing.txt')!.id)).toBe(false);
    expect(rowOf('link.txt')).toMatchObject({ state: 'failed', error_id: 'no_file_on_payload', error_message: SYMLINK_REASON });
  });
});
