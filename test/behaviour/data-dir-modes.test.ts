/**
 * The data directory is private whatever existed before: a directory pre-created 0755 holding
 * 0644 files gets 0700 / 0600 at the engine's open, and everything the engine, SQLite (-wal,
 * -shm), the file store, the encrypted secrets file, the local chain (anvil's own dumps
 * included) and the watch journal create afterwards is 0700 / 0600 too. Real SQLite, real anvil,
 * the real `watch` command; this process keeps its usual 022 umask throughout.
 */
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../main/engine/index.js';
import { JOURNAL_FILE } from '../../main/intake/index.js';
import { PASSPHRASE_ENV, SECRETS_FILE, openSecretStore } from '../../main/secrets/index.js';
import { cliArgs } from '../cli/cli-child.js';
import { REPO_ROOT, addIssuingPartner, issueNowAndFinish, openIssuingEngine, type IssuingFixture } from '../support/issuing-fixture.js';

const PASSPHRASE = 'data dir modes';

let base: string;
let dataDir: string;
let fx: IssuingFixture | undefined;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'proofdesk-modes-'));
  dataDir = join(base, 'data');
  // As a user (or an older Proofdesk) may have left it: world-readable directory, files and subdirectory.
  mkdirSync(join(dataDir, 'old-notes'), { recursive: true });
  chmodSync(dataDir, 0o755);
  chmodSync(join(dataDir, 'old-notes'), 0o755);
  writeFileSync(join(dataDir, 'readme.txt'), 'left here before');
  writeFileSync(join(dataDir, 'old-notes', 'note.txt'), 'also before');
  chmodSync(join(dataDir, 'readme.txt'), 0o644);
  chmodSync(join(dataDir, 'old-notes', 'note.txt'), 0o644);
});

afterEach(async () => {
  await fx?.close();
  fx = undefined;
  rmSync(base, { recursive: true, force: true });
});

/** Every path under the data directory (and itself) whose mode is not 0700 (directories) / 0600 (files). */
function notPrivate(): string[] {
  const wrong: string[] = [];
  const check = (path: string): void => {
    const stat = lstatSync(path);
    const mode = stat.mode & 0o777;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    if (!stat.isSymbolicLink() && mode !== wanted) wrong.push(`${relative(dataDir, path) || '.'} ${mode.toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) check(join(path, name));
  };
  check(dataDir);
  return wrong;
}

/** Every file name under the data directory, relative to it. */
function allFiles(dir = dataDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? allFiles(join(dir, e.name)) : [relative(dataDir, join(dir, e.name))]));
}

describe('the data directory is 0700 and its files 0600', () => {
  it('pre-created 0755 with 0644 files: after opening, uploading and issuing on the local chain every path is private', async () => {
    expect(process.umask() & 0o077).not.toBe(0o077); // the guarantee must not come from this process's umask
    const secrets = await openSecretStore({ dataDir, env: { [PASSPHRASE_ENV]: PASSPHRASE } });
    fx = openIssuingEngine({ dataDir, secrets, keepDir: true });
    const partner = await addIssuingPartner(fx.engine, 'Private University');
    const file = await partner.service.uploadFile({ file: { data: new TextEncoder().encode('Diploma of Ada'), name: 'ada.txt' } });
    const streamed = join(base, 'grace.txt');
    writeFileSync(streamed, 'Diploma of Grace');
    const second = await partner.service.uploadFile({ file: { path: streamed } });
    const credential = await partner.service.createCredential({ title: 'Ada', metadata: { n: 1 }, files: [file.file_hash, second.file_hash] });
    await partner.service.scheduleCredentials({ engine: 'local', credentials: [credential.uid] });
    await issueNowAndFinish(fx.engine, partner.service, 'local');

    // While it all runs: SQLite's -wal and -shm, the stored files, anvil's state and log, the locks.
    const running = allFiles();
    for (const expected of ['proofdesk.sqlite-wal', 'proofdesk.sqlite-shm', SECRETS_FILE, `files/${file.file_hash.slice(0, 2)}/${file.file_hash}`, 'chain/local/anvil.log']) {
      expect(running).toContain(expected);
    }
    expect(notPrivate()).toEqual([]);

    // After a stop anvil has dumped its own state file; the snapshot is copied from it.
    await fx.close();
    fx = undefined;
    expect(allFiles()).toEqual(expect.arrayContaining(['chain/local/state.json', 'chain/local/state.snapshot.json', 'readme.txt', 'old-notes/note.txt']));
    expect(notPrivate()).toEqual([]);
  }, 120_000);

  it('opened up again (its top 0755), it is made private anew at the next open; below a private top nothing else is touched', async () => {
    const reopen = (): Promise<void> => Engine.open({ dataDir, sweepIntervalMs: false }).close();
    await reopen();
    expect(notPrivate()).toEqual([]);

    // A file put in later, under the private top: out of other users' reach, left as it is.
    writeFileSync(join(dataDir, 'old-notes', 'later.txt'), 'put in later');
    chmodSync(join(dataDir, 'old-notes', 'later.txt'), 0o644);
    await reopen();
    expect(notPrivate()).toEqual(['old-notes/later.txt 644']);

    // The top opened up: everything below is within reach again, so the whole tree is made private.
    chmodSync(dataDir, 0o755);
    await reopen();
    expect(notPrivate()).toEqual([]);
  });

  it('the watch command creates its journal (and -wal/-shm) 0600', async () => {
    const inbox = join(base, 'inbox');
    mkdirSync(inbox);
    const added = spawn(process.execPath, [...cliArgs(), 'partner', 'add', '--name', 'Watcher', '--data', dataDir], {
      cwd: REPO_ROOT,
      env: { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE },
      stdio: 'ignore',
    });
    expect(await new Promise((resolve) => added.on('exit', resolve))).toBe(0);

    const watch = spawn(process.execPath, [...cliArgs(), 'watch', inbox, '--data', dataDir], {
      cwd: REPO_ROOT,
      env: { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      watch.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('watching ')) resolve();
      });
      watch.on('exit', (code) => reject(new Error(`watch exited (${code}): ${stderr}`)));
    });
    expect(allFiles()).toContain(JOURNAL_FILE);
    expect(notPrivate()).toEqual([]);
    watch.kill('SIGKILL');
    await new Promise((resolve) => watch.on('exit', resolve));
  }, 120_000);
});
