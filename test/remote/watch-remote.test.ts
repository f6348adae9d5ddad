/**
 * `watch DIR --remote BASE_URL`: files dropped into a folder are issued through a remote
 * service — here `serve` in a process of its own, on 127.0.0.1, with its own data directory —
 * by `watch` running as a real child process with another data directory. The watch opens no
 * engine, chain or keychain (its data directory holds only the journal), the proofs come from
 * the remote service and verify there, a restart issues nothing twice, and a refused secret is
 * one sentence and exit code 1 with nothing moved.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential, Page } from '../../common/wire-types.js';
import { EXIT } from '../../main/cli/error-report.js';
import { PASSPHRASE_ENV } from '../../main/secrets/index.js';
import { filesUnder, removeTempDirs, tempDir, waitFor } from '../intake/helpers.js';
import { endedWithin as ended, startCliChild, type CliRun } from '../cli/cli-child.js';
import { SECRET_ENV, cliWithSecret as inProcess } from '../support/cli-in-process.js';

const PASSPHRASE = 'watch remote passphrase';

/** The real entry as a child process; `env` is added to a copy of ours without the passphrase or a client secret. */
function cli(args: string[], env: Record<string, string> = {}): CliRun {
  const base = { ...process.env };
  delete base[PASSPHRASE_ENV];
  delete base[SECRET_ENV];
  return startCliChild(args, { ...base, ...env });
}


/** How many files a journal has rows for. */
function rowsIn(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM files').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** Files dropped at the top of the inbox that are still there (not filed away). */
function waiting(inbox: string): string[] {
  return readdirSync(inbox, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
}

describe('watch --remote against serve in another process', () => {
  let serveData: string;
  let watchData: string;
  let inbox: string;
  let serve: CliRun | undefined;
  let baseUrl: string;
  let clientId: string;
  let secret: string;
  let remote: string[];

  beforeAll(async () => {
    const base = tempDir('proofdesk-watch-remote-');
    serveData = join(base, 'serve-data');
    watchData = join(base, 'watch-data');
    inbox = join(base, 'inbox');
    mkdirSync(inbox);
    const added = await ended(cli(['partner', 'add', '--name', 'Remote Watch College', '--issuing-interval', '1s', '--data', serveData], { [PASSPHRASE_ENV]: PASSPHRASE }), 60_000);
    expect(added.code, added.stderr).toBe(0);
    ({ client_id: clientId, client_secret: secret } = JSON.parse(added.stdout) as { client_id: string; client_secret: string });

    serve = cli(['serve', '--port', '0', '--data', serveData], { [PASSPHRASE_ENV]: PASSPHRASE });
    const line = await waitFor('serve to listen', () => serve!.stdout().split('\n').find((l) => l.includes('base_url')) ?? (serve!.child.exitCode !== null ? `exit ${serve!.stderr()}` : undefined), 60_000);
    expect(line, serve.stderr()).toContain('base_url');
    baseUrl = (JSON.parse(line) as { base_url: string }).base_url;
    expect(new URL(baseUrl).hostname).toBe('127.0.0.1');
    remote = ['--remote', baseUrl, '--client-id', clientId];
  }, 120_000);

  afterAll(async () => {
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGTERM');
      await ended(serve, 30_000);
    }
    if (!process.env.PROOFDESK_KEEP_TEST_DIRS) removeTempDirs();
  });

  it('issues three dropped files through the remote service, exactly once across a restart; a wrong secret moves nothing', async () => {
    const watchArgs = ['watch', inbox, ...remote, '--data', watchData, '--stable', '200ms', '--tag', 'remote-watch'];
    const watch = cli(watchArgs, { [SECRET_ENV]: secret });
    await waitFor('watch to start', () => watch.stderr().includes('watching ') || watch.child.exitCode !== null, 60_000);
    expect(watch.child.exitCode, watch.stderr()).toBeNull();
    for (const name of ['one.txt', 'two.txt', 'three.txt']) writeFileSync(join(inbox, name), `remote watch ${name}\n`);

    const proofsDir = join(inbox, 'proofs');
    try {
      await waitFor('three proofs and three originals in done/', () => filesUnder(proofsDir).length === 3 && filesUnder(join(inbox, 'done')).length === 3, 90_000, 250);
    } finally {
      watch.child.kill('SIGTERM');
    }
    const first = await ended(watch, 30_000);
    expect(first.code, first.stderr).toBe(0);
    const proofs = filesUnder(proofsDir).map((p) => join(proofsDir, p));
    expect(first.stdout.trim().split('\n').sort()).toEqual([...proofs].sort());

    // No engine, chain or keychain was opened here: the data directory holds the journal only,
    // its rows in the file of this service and client; ingest.sqlite holds the folder claim alone.
    expect(filesUnder(watchData).every((f) => /^ingest(-remote-[0-9a-f]{16})?\.sqlite(-wal|-shm)?$/.test(f)), filesUnder(watchData).join(', ')).toBe(true);
    const journalFile = filesUnder(watchData).find((f) => /^ingest-remote-[0-9a-f]{16}\.sqlite$/.test(f));
    expect(journalFile).toBeDefined();
    expect(rowsIn(join(watchData, journalFile!))).toBe(3);
    expect(rowsIn(join(watchData, 'ingest.sqlite'))).toBe(0);
    // Private, as the engine keeps its data directory: the folder 0700, the journals 0600.
    expect(statSync(watchData).mode & 0o777).toBe(0o700);
    for (const file of ['ingest.sqlite', journalFile!]) expect(statSync(join(watchData, file)).mode & 0o777, file).toBe(0o600);

    // The credentials are the remote service's, three of them, with the folder's tag.
    const listed = await inProcess(['credential', 'list', ...remote, '--and-tags', 'remote-watch', '--json'], secret);
    expect(listed.code, listed.err).toBe(0);
    expect((JSON.parse(listed.out) as Page<Credential>).total_items).toBe(3);

    // Restarted: nothing is issued twice.
    const again = cli(watchArgs, { [SECRET_ENV]: secret });
    await waitFor('watch to start again', () => again.stderr().includes('watching ') || again.child.exitCode !== null, 60_000);
    expect(again.child.exitCode, again.stderr()).toBeNull();
    // Long enough for a settle pass, the start-up rescan and a few job polls.
    await new Promise((r) => setTimeout(r, 3_000));
    again.child.kill('SIGTERM');
    const second = await ended(again, 30_000);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout.trim()).toBe('');
    expect(filesUnder(proofsDir)).toHaveLength(3);
    const relisted = await inProcess(['credential', 'list', ...remote, '--json'], secret);
    expect((JSON.parse(relisted.out) as Page<Credential>).total_items).toBe(3);

    // A wrong secret: one sentence, exit 1, the dropped file stays where it is.
    writeFileSync(join(inbox, 'four.txt'), 'remote watch four\n');
    const refused = await ended(cli(watchArgs, { [SECRET_ENV]: 'not-the-secret' }), 60_000);
    expect(refused.code).toBe(1);
    const said = refused.stderr.trim();
    expect(said.split('\n')).toHaveLength(1);
    expect(said).toMatch(/^error unauthorized \(401\): .*refused the client credentials/);
    expect(said).not.toContain('not-the-secret');
    expect(waiting(inbox)).toEqual(['four.txt']);
    expect(filesUnder(join(inbox, 'done'))).toHaveLength(3);

    // Each proof verifies with the serving data directory (serve stopped: its engine is free).
    serve!.child.kill('SIGTERM');
    expect((await ended(serve!, 30_000)).code).toBe(0);
    for (const proof of proofs) {
      const verified = await inProcess(['verify', proof, '--data', serveData]);
      expect(verified.out, `${proof}: ${verified.err}`).toContain('Result: ok');
      expect(verified.code).toBe(0);
    }
  }, 300_000);

  it('an unreachable service is one sentence and an exit code; nothing is moved', async () => {
    const lonely = tempDir('proofdesk-watch-unreachable-');
    writeFileSync(join(lonely, 'five.txt'), 'five\n');
    const data = tempDir('proofdesk-watch-unreachable-data-');
    const result = await inProcess(['watch', lonely, '--remote', 'http://127.0.0.1:9/api', '--client-id', clientId, '--data', data], secret);
    // Exit 3: something around the command (a server that does not answer), not a refusal.
    expect(result.code).toBe(EXIT.environment);
    expect(result.err.trim().split('\n')).toHaveLength(1);
    expect(result.err).toMatch(/cannot be reached/);
    expect(waiting(lonely)).toEqual(['five.txt']);
  }, 60_000);

  it('usage: the secret only from the environment, no --partner with --remote, no auth flags without it', async () => {
    // A folder not made yet: bad usage makes nothing.
    const inbox2 = join(tempDir('proofdesk-watch-usage-'), 'inbox');
    const data = tempDir('proofdesk-watch-usage-data-');
    const noSecret = await inProcess(['watch', inbox2, '--remote', 'http://127.0.0.1:9/api', '--client-id', 'pd-x', '--data', data]);
    expect(noSecret.code).toBe(EXIT.usage);
    expect(noSecret.err).toContain(SECRET_ENV);
    const withPartner = await inProcess(['watch', inbox2, '--remote', 'http://127.0.0.1:9/api', '--client-id', 'pd-x', '--partner', 'x', '--data', data], 'y');
    expect(withPartner.code).toBe(EXIT.usage);
    expect(withPartner.err).toContain('--client-id');
    const stray = await inProcess(['watch', inbox2, '--client-id', 'pd-x', '--data', data]);
    expect(stray.code).toBe(EXIT.usage);
    expect(stray.err).toContain('--client-id applies only with --remote');
    expect(filesUnder(data)).toEqual([]);
    expect(existsSync(inbox2)).toBe(false);
  });
});
