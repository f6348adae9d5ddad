/**
 * A full disk is "try again later" (docs/intake.md): on real small file systems (tmpfs, mounted
 * here; the test needs root and fails, saying so, where mount is not permitted) the data
 * directory and then the output folder are filled while files are dropped. The files stay
 * where they are, nothing goes to failed/, no temporary file is left, the user is told once per
 * disk, and when space is freed every file is issued and every proof written.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../main/engine/index.js';
import type { FolderIntake, FolderIntakeEvent } from '../../main/intake/index.js';
import { DiskFullReporter } from '../../main/intake/disk-full.js';
import { PASSPHRASE_ENV } from '../../main/secrets/index.js';
import { cliArgs } from '../cli/cli-child.js';
import { REPO_ROOT, filesUnder, openPartner, removeTempDirs, sleep, tempDir, waitFor, watchInbox } from './helpers.js';

/**
 * Every time an intake of this process meets a full disk (the reporter still runs): the tries a
 * test waits through while the disk stays full.
 */
const fullDiskMet = vi.spyOn(DiskFullReporter.prototype, 'report');

/** Waits until the intake met the full disk `times` more times than it had so far. */
async function fullDiskMetAgain(times: number): Promise<void> {
  const before = fullDiskMet.mock.calls.length;
  await waitFor(`the full disk met ${times} more times`, () => fullDiskMet.mock.calls.length >= before + times, 30_000);
}

const mounted: string[] = [];
const engines: Engine[] = [];
const running: FolderIntake[] = [];

afterAll(async () => {
  try {
    for (const intake of running) await intake.stop();
    for (const engine of engines) await engine.close();
  } finally {
    // Unmounted whatever happened above (a failed test must not leave a full tmpfs behind).
    for (const dir of mounted) execFileSync('umount', ['-l', dir]);
    removeTempDirs();
  }
});

/** A small real file system at `dir` (tmpfs). Fails the test, saying why, where mount is not permitted. */
function mountSmallDisk(dir: string, size: string): void {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`The full-disk tests need a small real file system: \`mount -t tmpfs -o size=${size} tmpfs ${dir}\` is not permitted here (${stderr || (error as Error).message}). Run them as root.`);
  }
  mounted.push(dir);
}

/** Fills the file system holding `dir` to the last byte with a ballast file; returns its path. */
function fill(dir: string): string {
  const ballast = join(dir, 'ballast.bin');
  const fd = openSync(ballast, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  // The last few bytes too.
  try {
    for (;;) writeSync(fd, Buffer.alloc(512, 1));
  } catch {
    // full
  }
  closeSync(fd);
  return ballast;
}

async function setup(dataDir: string, outDir?: string) {
  const { engine, service } = await openPartner(dataDir, 'Full Disk College');
  engines.push(engine);
  const { root, intake, events } = await watchInbox(running, { service, dataDir, tag: 'full-disk', folder: { outDir }, stableMs: 200 });
  return { service, intake, root, events };
}

function fullWarnings(events: FolderIntakeEvent[]): string[] {
  return events.filter((e) => e.type === 'warning' && e.message.includes('is full')).map((e) => (e as { message: string }).message);
}

const FILES = 12;

function drop(root: string): void {
  for (let i = 0; i < FILES; i++) writeFileSync(join(root, `record-${i}.txt`), `record ${i} ${'x'.repeat(20_000)}\n`);
}

describe('a full disk', () => {
  it('data directory full while files arrive: they wait, one message, nothing failed; all issued once space is back', async () => {
    const dataDir = join(tempDir(), 'data-disk');
    mountSmallDisk(dataDir, '48m');
    const { service, intake, root, events } = await setup(dataDir);
    const ballast = fill(dataDir);
    drop(root);
    await waitFor('the full disk to be told', () => fullWarnings(events).length > 0, 20_000);
    await fullDiskMetAgain(2 * FILES);
    expect(filesUnder(join(root, 'failed'))).toEqual([]);
    expect(events.filter((e) => e.type === 'failed')).toEqual([]);
    expect(fullWarnings(events), JSON.stringify(events, null, 1)).toHaveLength(1);
    expect(fullWarnings(events)[0]).toContain(dataDir);
    expect(fullWarnings(events)[0]).toMatch(/needed/);

    rmSync(ballast);
    await waitFor(`${FILES} files in done/`, () => filesUnder(join(root, 'done')).length === FILES, 60_000);
    await waitFor('the intake to finish', () => intake.pending() === 0, 30_000);
    expect(filesUnder(join(root, 'proofs'))).toHaveLength(FILES);
    expect((await service.listCertificates({ and_credential_tags: 'full-disk', per_page: 1 })).total_items).toBe(FILES);
    expect(filesUnder(root).filter((p) => p.includes('.writing'))).toEqual([]);
    expect(events.some((e) => e.type === 'warning' && e.message.includes('space'))).toBe(true);
  });

  it('output folder full: proofs wait (no 0-byte temporary files, a few lines, nothing failed) and are all written once space is back', async () => {
    const outDir = join(tempDir(), 'out-disk');
    mountSmallDisk(outDir, '2m');
    const ballast = fill(outDir);
    const { service, intake, root, events } = await setup(join(tempDir(), 'data'), outDir);
    drop(root);
    await waitFor('the full output folder to be told', () => fullWarnings(events).length > 0, 30_000);
    await fullDiskMetAgain(2 * FILES);
    expect(filesUnder(join(root, 'failed'))).toEqual([]);
    expect(events.filter((e) => e.type === 'failed')).toEqual([]);
    expect(fullWarnings(events)).toHaveLength(1);
    expect(fullWarnings(events)[0]).toContain(outDir);
    expect(events.filter((e) => e.type === 'warning').length).toBeLessThan(5);
    expect(filesUnder(outDir).filter((p) => p !== 'ballast.bin')).toEqual([]);
    expect(existsSync(join(root, 'done'))).toBe(false);

    rmSync(ballast);
    await waitFor(`${FILES} proofs`, () => filesUnder(outDir).length === FILES, 60_000);
    await waitFor('the intake to finish', () => intake.pending() === 0, 30_000);
    expect(filesUnder(join(root, 'done'))).toHaveLength(FILES);
    expect((await service.listCertificates({ and_credential_tags: 'full-disk', per_page: 1 })).total_items).toBe(FILES);
  });
});

/** The CLI as a child process (cliArgs), with its output kept. */
function cli(args: string[]) {
  const child = spawn(process.execPath, [...cliArgs(), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, [PASSPHRASE_ENV]: 'full disk passphrase', PROOFDESK_INGEST_FAULT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  void ended.then(() => clearTimeout(timer));
  return { child, out, ended };
}

describe('watch on a full disk (the command)', () => {
  it('never a stack trace: a few clear lines while the data directory is full, everything issued once space is back, and a clear exit when full at start', async () => {
    const dataDir = join(tempDir(), 'cli-data-disk');
    mountSmallDisk(dataDir, '48m');
    const added = cli(['partner', 'add', '--name', 'Full Disk CLI', '--issuing-interval', '1s', '--data', dataDir]);
    expect(await added.ended).toBe(0);
    const root = join(tempDir(), 'inbox');
    mkdirSync(root);
    const watch = cli(['watch', root, '--data', dataDir, '--stable', '200ms', '--tag', 'cli-full']);
    await waitFor('watch to start', () => watch.out.stderr.includes('watching'), 60_000);
    const ballast = fill(dataDir);
    drop(root);
    await waitFor('the full disk to be told', () => watch.out.stderr.includes('is full'), 30_000);
    await sleep(4_000);
    expect(watch.child.exitCode).toBeNull();
    expect(watch.out.stderr).not.toMatch(/^\s+at /m);
    expect(watch.out.stderr).not.toContain('SqliteError');
    expect(watch.out.stderr.split('\n').filter((l) => /full/i.test(l)).length).toBeLessThanOrEqual(3);
    expect(filesUnder(join(root, 'failed'))).toEqual([]);
    rmSync(ballast);
    await waitFor(`${FILES} files in done/`, () => filesUnder(join(root, 'done')).length === FILES, 90_000);
    expect(filesUnder(join(root, 'proofs'))).toHaveLength(FILES);
    watch.child.kill('SIGINT');
    expect(await watch.ended).toBe(0);
    expect(watch.out.stderr).not.toMatch(/^\s+at /m);

    // Full before it starts: one clear line or it waits, never a stack trace.
    const ballast2 = fill(dataDir);
    writeFileSync(join(root, 'late.txt'), 'dropped while the disk is full');
    const again = cli(['watch', root, '--data', dataDir, '--stable', '200ms', '--tag', 'cli-full']);
    await waitFor('watch to start or stop', () => again.child.exitCode !== null || again.out.stderr.includes('watching'), 60_000);
    if (again.child.exitCode === null) {
      await waitFor('the full disk to be told', () => again.out.stderr.includes('is full'), 30_000);
      rmSync(ballast2);
      await waitFor('late.txt in done/', () => existsSync(join(root, 'done', 'late.txt')), 60_000);
      again.child.kill('SIGINT');
      expect(await again.ended).toBe(0);
    } else {
      expect(again.child.exitCode, again.out.stderr).toBe(3);
      expect(again.out.stderr).toMatch(/is full/);
      rmSync(ballast2);
    }
    expect(again.out.stderr).not.toMatch(/^\s+at /m);
    expect(again.out.stderr).not.toContain('Unexpected error');
  });
});
