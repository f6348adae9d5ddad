/** Reading ahead while a file settles, on a real folder and journal (core.fixture.ts), driven step by step. */
import { createHash } from 'node:crypto';
import { appendFileSync, lstatSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stageFixture, type StageFixture } from './folder-intake-core.fixture.js';
import { countOpens } from '../../test/support/fs-calls.js';
import type { FileRow } from './journal.js';
import { READ_AHEAD_MAX, SETTLED_TICK_MS } from './read-ahead.js';

let f: StageFixture;
beforeEach(() => (f = stageFixture(200)));
afterEach(() => f.close());

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const rowOf = (rel: string) => [...f.core.rows.values()].find((r) => r.rel_path === rel)!;

/** Journals what is in the folder (its rows begin to settle and are put up for reading ahead). */
async function found(): Promise<void> {
  await f.core.settler.rescan();
  await f.core.settler.settleRound();
}

/** Reads ahead what waits, once the files' last change is a timestamp tick old (as the stage's own turns do). */
async function readAhead(): Promise<void> {
  f.clock.advance(SETTLED_TICK_MS + 30);
  f.core.settler.readAhead.readPending();
}

/** Settle rounds past the stable time, until every row is taken off settling (or `rounds` are done). */
async function settleAll(rounds = 4): Promise<void> {
  for (let i = 0; i < rounds && f.core.settler.settlingCount > 0; i++) {
    f.clock.advance(f.core.stableMs + 20);
    await f.core.settler.settleRound();
  }
}

/** Describes a settled row as the uploader does: with its read ahead, if any. */
function describeRow(row: FileRow) {
  return f.core.describer.hash(row, f.core.settler.readAhead.take(row.id));
}

/** How many opens or reads of the folder's files describing `row` takes (0: its read ahead was used). */
async function opensToDescribe(row: FileRow): Promise<number> {
  const counter = countOpens(f.root);
  try {
    await describeRow(row);
    return counter.count();
  } finally {
    counter.restore();
  }
}


describe('reading ahead while files settle', () => {
  it('50 settled files need no open or read after settling (counting wrapper of node:fs): each is described from its read ahead', async () => {
    for (let i = 0; i < 50; i++) writeFileSync(join(f.root, `c-${i}.txt`), `certificate ${i}`);
    await found();
    await readAhead();
    expect(f.core.settler.readAhead.counts.read).toBe(50);
    await settleAll();
    expect(f.core.settler.settlingCount).toBe(0);
    const counter = countOpens(f.root);
    try {
      for (let i = 0; i < 50; i++) {
        const result = await describeRow(rowOf(`c-${i}.txt`));
        expect(result?.bytes?.toString()).toBe(`certificate ${i}`);
        expect(rowOf(`c-${i}.txt`)).toMatchObject({ state: 'hashed', sha256: sha(`certificate ${i}`) });
      }
      expect(counter.count()).toBe(0);
    } finally {
      counter.restore();
    }
    expect(f.core.settler.readAhead.counts).toMatchObject({ read: 50, used: 50, discarded: 0 });
  });

  it('a file rewritten during its stable window after it was read ahead (same size, other bytes, mtime bumped) gets the hash of its final bytes', async () => {
    writeFileSync(join(f.root, 'a.txt'), 'first bytes');
    await found();
    await readAhead();
    expect(f.core.settler.readAhead.counts.read).toBe(1);
    writeFileSync(join(f.root, 'a.txt'), 'final bytes');
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(f.root, 'a.txt'), later, later);
    await settleAll();
    const row = rowOf('a.txt');
    expect(f.core.settler.isSettling(row.id)).toBe(false);
    await describeRow(row);
    expect(row).toMatchObject({ state: 'hashed', sha256: sha('final bytes') });
    // The read that was thrown away gave its bytes back; the file was not read ahead twice.
    expect(f.core.settler.readAhead.counts.read).toBe(1);
    expect(f.core.uploader.held.used).toBe(0);
  });

  it('a file rewritten after its read ahead with its size and mtime put back (only the change time tells) gets the hash of its final bytes', async () => {
    const path = join(f.root, 'b.txt');
    writeFileSync(path, 'first bytes');
    // A time a utimes can put back exactly (whole seconds).
    const mtime = Math.floor(Date.now() / 1000) - 60;
    utimesSync(path, mtime, mtime);
    await found();
    await readAhead();
    await settleAll();
    const row = rowOf('b.txt');
    expect(row.state).toBe('seen');
    expect(f.core.settler.isSettling(row.id)).toBe(false);
    // After the settle check, before it is described: the settle rounds' size and mtime cannot see it.
    writeFileSync(path, 'final bytes');
    utimesSync(path, mtime, mtime);
    expect(lstatSync(path).mtimeMs).toBe(row.mtime_ms);
    await describeRow(row);
    expect(row).toMatchObject({ state: 'hashed', sha256: sha('final bytes') });
    expect(f.core.settler.readAhead.counts).toMatchObject({ read: 1, used: 0, discarded: 1 });
  });

  it('a file replaced by a symbolic link during its stable window is refused as without a read ahead, and its bytes are given back', async () => {
    writeFileSync(join(f.base, 'secret.txt'), 'outside!');
    writeFileSync(join(f.root, 'x.txt'), 'inside!!');
    await found();
    await readAhead();
    expect(f.core.settler.readAhead.counts.read).toBe(1);
    unlinkSync(join(f.root, 'x.txt'));
    symlinkSync(join(f.base, 'secret.txt'), join(f.root, 'x.txt'));
    await settleAll(6);
    const failed = f.events.filter((e) => e.type === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ id: 'no_file_on_payload', message: expect.stringContaining('symbolic link') });
    expect(f.core.uploader.held.used).toBe(0);
  });

  it('a file replaced by a symbolic link after it settled is refused, not described from its read ahead', async () => {
    writeFileSync(join(f.base, 'secret.txt'), 'outside!');
    writeFileSync(join(f.root, 'y.txt'), 'inside!!');
    await found();
    await readAhead();
    await settleAll();
    const row = rowOf('y.txt');
    unlinkSync(join(f.root, 'y.txt'));
    symlinkSync(join(f.base, 'secret.txt'), join(f.root, 'y.txt'));
    expect(await describeRow(row)).toBeUndefined();
    expect(row).toMatchObject({ state: 'failed', error_id: 'no_file_on_payload', sha256: null });
    expect(row.error_message).toContain('symbolic link');
  });

  it('a file still being written costs one read at most: it is not read ahead again, and is read once it is stable', async () => {
    const path = join(f.root, 'growing.txt');
    writeFileSync(path, 'part 1;');
    await found();
    await readAhead();
    for (let i = 2; i <= 4; i++) {
      appendFileSync(path, ` part ${i};`);
      f.clock.advance(f.core.stableMs + 20);
      await f.core.settler.settleRound();
      f.core.settler.readAhead.readPending();
    }
    expect(f.core.settler.readAhead.counts.read).toBe(1);
    expect(f.core.uploader.held.used).toBe(0);
    await settleAll();
    const row = rowOf('growing.txt');
    await describeRow(row);
    expect(row).toMatchObject({ state: 'hashed', sha256: sha('part 1; part 2; part 3; part 4;') });
  });

  it('a file changed a moment ago is not read yet (its timestamp tick), and is read once the tick has passed', async () => {
    // The stage looks at a deferred file again on a timer: a fake one, and a Date that stands
    // still but where the test moves it (however slow the machine, the file is fresh at first).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      writeFileSync(join(f.root, 'fresh.txt'), 'fresh');
      await found();
      f.core.settler.readAhead.readPending();
      expect(f.core.settler.readAhead.counts.read).toBe(0);
      vi.advanceTimersByTime(SETTLED_TICK_MS);
      await readAhead();
      expect(f.core.settler.readAhead.counts.read).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads ahead only within the byte budget and only small files; what does not fit waits for room', async () => {
    writeFileSync(join(f.root, 'big.bin'), Buffer.alloc(READ_AHEAD_MAX + 1, 1));
    writeFileSync(join(f.root, 'small.txt'), 'small');
    const gate = f.core.uploader.held;
    await gate.acquire(gate.limit - 2);
    await found();
    await readAhead();
    expect(f.core.settler.readAhead.counts.read).toBe(0);
    gate.release(gate.limit - 2);
    f.core.settler.readAhead.readPending();
    // The large file is never read ahead; the small one once there is room.
    expect(f.core.settler.readAhead.counts.read).toBe(1);
    expect(gate.used).toBe(5);
    await settleAll();
    const big = rowOf('big.bin');
    expect(await opensToDescribe(big)).toBe(1);
    expect(big.state).toBe('hashed');
  });

  it('one turn reads at most its byte budget (the reads are synchronous): the rest is read on the next turns', async () => {
    for (let i = 0; i < 6; i++) writeFileSync(join(f.root, `m-${i}.bin`), Buffer.alloc(512 * 1024, i));
    await found();
    f.clock.advance(SETTLED_TICK_MS + 30);
    expect(f.core.settler.readAhead.readPending(Infinity, 1024 * 1024)).toBe(true);
    expect(f.core.settler.readAhead.counts.read).toBe(2);
    expect(f.core.settler.readAhead.readPending(Infinity, 1024 * 1024)).toBe(true);
    expect(f.core.settler.readAhead.readPending(Infinity, 1024 * 1024)).toBe(false);
    expect(f.core.settler.readAhead.counts.read).toBe(6);
  });

  it('a file not read ahead gets room in the gate: reads ahead of files not taken yet give theirs back, the newest first', async () => {
    f.close();
    f = stageFixture(200, { heldBytes: 64 * 1024 });
    for (let i = 0; i < 3; i++) writeFileSync(join(f.root, `r-${i}.bin`), Buffer.alloc(20 * 1024, i));
    await found();
    await readAhead();
    const gate = f.core.uploader.held;
    expect(gate.used).toBe(60 * 1024);
    // A file of 20 KB that was not read ahead (it came later) is taken first: without room
    // given back it would wait for files queued behind it (a take queue of one place: forever).
    f.core.settler.readAhead.makeRoom(20 * 1024);
    expect(gate.tryAcquire(20 * 1024)).toBe(true);
    expect(f.core.settler.readAhead.counts.discarded).toBe(1);
    // One read ahead gave its room back; the two others are still there to be used.
    await settleAll();
    const kept = ['r-0.bin', 'r-1.bin', 'r-2.bin'].filter((rel) => f.core.settler.readAhead.take(rowOf(rel).id) !== undefined);
    expect(kept).toHaveLength(2);
  });

  it('a stop (or a pause) gives back every byte read ahead, and the files are then read once taken', async () => {
    writeFileSync(join(f.root, 'p.txt'), 'paused');
    await found();
    await readAhead();
    expect(f.core.uploader.held.used).toBe(6);
    f.core.settler.readAhead.stop();
    expect(f.core.uploader.held.used).toBe(0);
    await settleAll();
    const row = rowOf('p.txt');
    expect(await opensToDescribe(row)).toBe(1);
    expect(row).toMatchObject({ state: 'hashed', sha256: sha('paused') });
  });

  it('a settled file still waiting for its turn to be taken is read ahead too; one being taken is not', async () => {
    writeFileSync(join(f.root, 'queued.txt'), 'queued');
    writeFileSync(join(f.root, 'taken.txt'), 'taken');
    await found();
    await settleAll();
    const queued = rowOf('queued.txt');
    const taken = rowOf('taken.txt');
    expect(f.core.waitsToBeTaken(queued.id)).toBe(true);
    // Taken: a task is at work on it.
    let release = () => undefined as void;
    f.core.run(taken, () => new Promise<void>((resolve) => (release = resolve)), () => undefined);
    f.core.settler.readAhead.readPending();
    release();
    expect(f.core.settler.readAhead.counts).toMatchObject({ read: 1, late: 1 });
    expect(await opensToDescribe(queued)).toBe(0);
    expect(queued).toMatchObject({ state: 'hashed', sha256: sha('queued') });
  });
});

