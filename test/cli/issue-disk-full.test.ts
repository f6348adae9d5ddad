/**
 * `issue` on a full disk (a real tmpfs mounted for the test; the tests run as root): the data
 * directory or the proof folder full is "try again later" — one clear message naming the full
 * place, no stack trace, no job left started, no half-written proof — and the same command run
 * again once space is back finishes, issuing nothing twice.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../support/cli-in-process.js';

process.env.PROOFDESK_PASSPHRASE = 'disk full passphrase';
const COUNT = 3;

let root: string;
let mounted: string[];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'proofdesk-disk-full-'));
  mounted = [];
});
afterEach(() => {
  for (const m of mounted) execFileSync('umount', ['-l', m]);
  rmSync(root, { recursive: true, force: true });
});

/** A small tmpfs at `dir`. */
function smallDisk(dir: string, size: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounted.push(dir);
}

/** Fills the file system of `dir` until only about `leaveKb` KB are free; returns the filler. */
function fill(dir: string, leaveKb: number): string {
  const s = statfsSync(dir);
  const filler = join(dir, 'filler');
  writeFileSync(filler, Buffer.alloc(Math.max(0, s.bavail * s.bsize - leaveKb * 1024)));
  return filler;
}

function counts(data: string): { credentials: number; issueTxs: number; statuses: string[] } {
  const db = new Database(join(data, 'proofdesk.sqlite'), { readonly: true });
  try {
    return {
      credentials: db.prepare('SELECT count(*) FROM credentials').pluck().get() as number,
      issueTxs: db.prepare("SELECT count(*) FROM chain_txs WHERE purpose = 'issue' AND state <> 'dropped'").pluck().get() as number,
      statuses: db.prepare('SELECT DISTINCT status FROM jobs ORDER BY status').pluck().all() as string[],
    };
  } finally {
    db.close();
  }
}

function inputs(size: number): string[] {
  const dir = join(root, 'in');
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: COUNT }, (_, i) => {
    const file = join(dir, `scan-${i + 1}.bin`);
    writeFileSync(file, randomBytes(size));
    return file;
  });
}

function expectOneClearMessage(err: string, place: string): void {
  expect(err).toContain(`error try_again_later (503): The disk holding ${place}`);
  expect(err).toMatch(/is full \(.* free; about .* more is needed\)/);
  expect(err).not.toContain('Unexpected error');
  expect(err).not.toMatch(/\n\s+at /);
  expect(err).not.toContain('no_file_on_payload');
}

describe('issue on a full disk (tmpfs)', () => {
  it('the proof folder is full: one message naming it, no half proof; with space back the same command writes the proofs and issues nothing again', async () => {
    const data = join(root, 'data');
    const out = join(root, 'out');
    smallDisk(out, '64k');
    expect((await cli('partner', 'add', '--name', 'Full Disk University', '--data', data)).code).toBe(0);
    const files = inputs(2000);
    const filler = fill(out, 2);

    const first = await cli('issue', ...files, '--now', '--out', out, '--data', data);
    expect(first.code).toBe(1);
    expectOneClearMessage(first.err, out);
    expect(readdirSync(out).filter((f) => f.includes('.writing-'))).toEqual([]);
    expect(counts(data)).toEqual({ credentials: COUNT, issueTxs: 1, statuses: ['finished'] });

    rmSync(filler);
    const again = await cli('issue', ...files, '--now', '--out', out, '--data', data);
    expect(again.code, again.err).toBe(0);
    expect(counts(data)).toEqual({ credentials: COUNT, issueTxs: 1, statuses: ['finished'] });
    for (const f of files) {
      const verified = await cli('verify', join(out, `${f.split('/').pop()}.proof.json`), '--file', f, '--data', data);
      expect(verified.out, verified.err).toContain('Result: ok');
    }
  });

  it('the data directory is full: one message naming it, not a rejected file, no job started; with space back the same command issues each file once', async () => {
    const data = join(root, 'data');
    const out = join(root, 'out');
    smallDisk(data, '8m');
    expect((await cli('partner', 'add', '--name', 'Full Data University', '--data', data)).code).toBe(0);
    const files = inputs(100_000);
    const filler = fill(data, 40);

    const first = await cli('issue', ...files, '--now', '--out', out, '--data', data);
    expect(first.code).toBe(1);
    expectOneClearMessage(first.err, data);
    expect(counts(data).statuses).not.toContain('started');

    rmSync(filler);
    const again = await cli('issue', ...files, '--now', '--out', out, '--data', data);
    expect(again.code, again.err).toBe(0);
    expect(counts(data)).toEqual({ credentials: COUNT, issueTxs: 1, statuses: ['finished'] });
    expect(readdirSync(out).sort()).toEqual(files.map((f) => `${f.split('/').pop()}.proof.json`).sort());
  });
});
