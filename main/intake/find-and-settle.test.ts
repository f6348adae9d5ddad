/** Stage 1, find and settle, driven step by step on a real folder and journal (core.fixture.ts). */
import { lstatSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stageFixture, type StageFixture } from './folder-intake-core.fixture.js';
import { countLooks } from '../../test/support/fs-calls.js';
import { SYMLINK_REASON } from './entries.js';

let f: StageFixture;
beforeEach(() => (f = stageFixture(50)));
afterEach(() => f.close());

function rowOf(rel: string) {
  return [...f.core.rows.values()].find((r) => r.rel_path === rel);
}

/** The paths the watcher and the walks hear of from now on (relative), as the settler is told them. */
function recordHeard(): { rels: () => string[]; until: (done: () => boolean) => Promise<void> } {
  const heard = new Set<string>();
  const waiters: { done: () => boolean; resolve: () => void }[] = [];
  const hear = f.core.settler.hear.bind(f.core.settler);
  f.core.settler.hear = (folder, rel, info) => {
    hear(folder, rel, info);
    heard.add(rel);
    for (const w of [...waiters]) {
      if (!w.done()) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  return {
    rels: () => [...heard].sort(),
    until: (done) => (done() ? Promise.resolve() : new Promise((resolve) => waiters.push({ done, resolve }))),
  };
}

describe('find and settle', () => {
  it('a round whose journal commit fails (a full disk) keeps nothing in memory, and the files are journaled by the next round', async () => {
    writeFileSync(join(f.root, 'a.txt'), 'a');
    writeFileSync(join(f.root, 'b.txt'), 'b');
    await f.core.settler.rescan();
    // The real journal, made to fail its next insert as SQLite does on a full disk.
    const insert = f.core.journal.insert.bind(f.core.journal);
    let inserts = 0;
    f.core.journal.insert = (row) => {
      if (++inserts === 2) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return insert(row);
    };
    await expect(f.core.settler.settleRound()).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    // The first insert was rolled back with the transaction: no row in memory the journal lacks.
    expect(f.core.rows.size).toBe(0);
    expect(f.core.counts.seen).toBe(0);
    await f.core.settler.settleRound();
    const journaled = f.core.journal.openRows([f.folder.id]).map((r) => [r.id, r.rel_path]);
    expect(journaled.map(([, rel]) => rel).sort()).toEqual(['a.txt', 'b.txt']);
    expect([...f.core.rows.values()].map((r) => [r.id, r.rel_path]).sort()).toEqual(journaled.sort());
  });

  it('a scan finds files and links but never looks into a linked folder; a name that is not UTF-8 is reported once', async () => {
    const outside = join(f.base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'c.txt'), 'outside');
    mkdirSync(join(f.root, 'sub'));
    writeFileSync(join(f.root, 'a.txt'), 'a');
    writeFileSync(join(f.root, 'sub', 'b.txt'), 'b');
    symlinkSync(outside, join(f.root, 'linked'));
    writeFileSync(Buffer.concat([Buffer.from(`${f.root}/x-`), Buffer.from([0xc3, 0x28]), Buffer.from('.txt')]), 'bad name');
    const heard = recordHeard();
    await f.core.settler.rescan();
    expect(heard.rels()).toEqual(['a.txt', 'linked', 'sub/b.txt']);
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
      f.clock.advance(30);
      writeFileSync(join(f.root, 'growing.txt'), `part ${i}`, { flag: 'a' });
      await f.core.settler.settleRound();
    }
    const taken = rowOf('done-writing.txt')!;
    expect(f.core.waitsToBeTaken(taken.id)).toBe(true);
    expect(f.core.waitsToBeTaken(rowOf('growing.txt')!.id)).toBe(false);
    expect(rowOf('link.txt')).toMatchObject({ state: 'failed', error_id: 'no_file_on_payload', error_message: SYMLINK_REASON });
  });

  it("a failure is dated by the intake's clock, not the system's", async () => {
    f.clock.advance(86_400_000);
    writeFileSync(Buffer.concat([Buffer.from(`${f.root}/x-`), Buffer.from([0xc3, 0x28]), Buffer.from('.txt')]), 'bad name');
    await f.core.settler.rescan();
    expect(f.core.failuresLeftInPlace()).toHaveLength(1);
    expect(Date.parse(f.core.failuresLeftInPlace()[0]!.when)).toBeGreaterThanOrEqual(Date.now() + 86_400_000 - 60_000);
  });

  it("a file the watcher looked at is stable a stable time after that look, not after the round that journaled it (up to a tick later)", async () => {
    // Time stands still but where the test moves it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const path = join(f.root, 'heard.txt');
      writeFileSync(path, 'heard of');
      const lookedAt = f.clock.now();
      f.core.settler.notice(f.folder, path, false, lstatSync(path));
      f.clock.advance(30); // the round comes up to a tick after the event
      await f.core.settler.settleRound();
      const row = rowOf('heard.txt')!;
      expect(f.core.settler.checkAt(row.id)).toBe(lookedAt + 50);
      f.clock.advance(20);
      await f.core.settler.settleRound();
      expect(f.core.waitsToBeTaken(row.id)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a file due between two ticks gets a round when it is due, not a tick later', async () => {
    // The stage's timer and its clock (the fake Date, moved by hand) move together.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      writeFileSync(join(f.root, 'due.txt'), 'due');
      await f.core.settler.rescan();
      await f.core.settler.settleRound();
      const row = rowOf('due.txt')!;
      const due = f.core.settler.checkAt(row.id)!;
      // A round less than a tick before it is due asks for one more round at that time.
      const asked: number[] = [];
      f.core.settler.settle = () => {
        asked.push(f.clock.now());
        return Promise.resolve();
      };
      f.core.paused = false;
      f.clock.advance(Math.max(0, due - f.core.settler.tickMs / 2 - f.clock.now()));
      await f.core.settler.settleRound();
      expect(asked).toHaveLength(0);
      vi.advanceTimersByTime(f.core.settler.tickMs / 2);
      expect(asked).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toBeGreaterThanOrEqual(due);
      expect(asked[0]).toBeLessThan(due + f.core.settler.tickMs);
    } finally {
      f.core.paused = true;
      vi.useRealTimers();
    }
  });
});


describe('the watcher', () => {
  it('a file added to a folder of 2,000 costs a few looks, not a look at every file already there', async () => {
    for (let i = 0; i < 2000; i++) writeFileSync(join(f.root, `old-${i}.txt`), `old ${i}`);
    await f.core.settler.startWatcher(f.folder);
    await f.core.settler.rescan();
    await f.core.settler.settleRound();
    expect(f.core.rows.size).toBe(2000);
    const counter = countLooks(f.root);
    const heardNew = recordHeard();
    try {
      const noticed = () => heardNew.rels().filter((rel) => rel.startsWith('new-')).length;
      // One change at a time, each heard of before the next: a watcher that re-reads the folder
      // after a change does so for every one of them.
      for (let i = 0; i < 20; i++) {
        const heard = heardNew.until(() => noticed() === i + 1);
        writeFileSync(join(f.root, `new-${i}.txt`), `new ${i}`);
        await heard;
      }
      expect(counter.count()).toBeLessThanOrEqual(20 * 5);
    } finally {
      counter.restore();
      await f.folder.watcher?.close();
    }
  });

  it('hints come from new subfolders (also one moved in whole), never from done/, failed/, the output folder, dot-folders or a linked folder', async () => {
    const outside = join(f.base, 'outside');
    mkdirSync(outside);
    mkdirSync(join(f.base, 'moved-in', 'deeper'), { recursive: true });
    writeFileSync(join(f.base, 'moved-in', 'deeper', 'inside.txt'), 'came with its folder');
    for (const dir of ['done', 'failed', 'proofs', '.hidden']) mkdirSync(join(f.root, dir));
    symlinkSync(outside, join(f.root, 'linked'));
    await f.core.settler.startWatcher(f.folder);
    await f.core.settler.rescan();
    const heard = recordHeard();
    try {
      const rels = heard.rels;
      // What must not be heard of is written first: events come in order, so by the time the
      // files after it are heard of, any hint it gave would have been too.
      for (const dir of ['done', 'failed', 'proofs', '.hidden']) writeFileSync(join(f.root, dir, 'x.txt'), 'not taken');
      writeFileSync(join(outside, 'secret.txt'), 'outside');
      const both = heard.until(() => rels().length >= 2);
      mkdirSync(join(f.root, 'sub'));
      writeFileSync(join(f.root, 'sub', 'a.txt'), 'a');
      renameSync(join(f.base, 'moved-in'), join(f.root, 'moved-in'));
      await both;
      expect(rels()).toEqual(['moved-in/deeper/inside.txt', 'sub/a.txt']);
      // A file written into the new subfolder after it was found is heard of as well.
      const later = heard.until(() => rels().length >= 3);
      writeFileSync(join(f.root, 'moved-in', 'deeper', 'later.txt'), 'later');
      await later;
      expect(rels()).toEqual(['moved-in/deeper/inside.txt', 'moved-in/deeper/later.txt', 'sub/a.txt']);
    } finally {
      await f.folder.watcher?.close();
    }
  });

  it('a flat folder (not recursive): files directly in it are heard of, nothing in its subfolders, which are not watched', async () => {
    f.folder.recursive = false;
    mkdirSync(join(f.root, 'old-sub'));
    await f.core.settler.startWatcher(f.folder);
    await f.core.settler.rescan();
    const recorded = recordHeard();
    try {
      const rels = recorded.rels;
      // The top file last: once it is heard of, so would the files written before it have been.
      const heard = recorded.until(() => rels().length >= 1);
      mkdirSync(join(f.root, 'sub'));
      writeFileSync(join(f.root, 'sub', 'deep.txt'), 'deep');
      writeFileSync(join(f.root, 'old-sub', 'deep.txt'), 'deep');
      writeFileSync(join(f.root, 'top.txt'), 'top');
      await heard;
      expect(rels()).toEqual(['top.txt']);
      expect(f.folder.watcher?.watchedDirs).toBe(1);
    } finally {
      await f.folder.watcher?.close();
    }
  });
});
