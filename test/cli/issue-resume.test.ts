/**
 * `issue` killed with SIGKILL at exact points (real child processes, real anvil), then run again
 * as a user would, with the same command line: the re-run resumes — it takes the credentials the
 * first run created, waits for their job and writes the missing proofs — and nothing is issued
 * twice. Content this Partner already issued is not issued again unless --allow-duplicates.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../support/cli-in-process.js';
import { REPO_ROOT } from '../support/issuing-fixture.js';
import { cliArgs } from './cli-child.js';

const PASSPHRASE = 'issue resume passphrase';
process.env.PROOFDESK_PASSPHRASE = PASSPHRASE;
const COUNT = 4;

/** Runs the CLI as a child process (its own process group); resolves with how it ended. */
function child(argv: string[], env: Record<string, string> = {}): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...cliArgs(), ...argv], {
      cwd: REPO_ROOT,
      env: { ...process.env, PROOFDESK_PASSPHRASE: PASSPHRASE, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // A run still going after 90 s is killed and fails the test: our kill must never pass for a fault point's.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-p.pid!, 'SIGKILL');
    }, 90_000);
    p.on('exit', (code, signal) => {
      clearTimeout(timer);
      // Whatever the child left running (its anvil, when killed alone) goes with it.
      try {
        process.kill(-p.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
      if (timedOut) reject(new Error(`the CLI did not end within 90 s (killed); its stderr ends: ${err.slice(-1500)}`));
      else resolve({ code, signal, out, err });
    });
  });
}

let data: string;
let inputs: string;
let out: string;
let files: string[];
beforeEach(async () => {
  data = mkdtempSync(join(tmpdir(), 'proofdesk-issue-resume-'));
  inputs = join(data, 'in');
  out = join(data, 'out');
  mkdirSync(inputs);
  files = Array.from({ length: COUNT }, (_, i) => join(inputs, `diploma-${i + 1}.txt`));
  files.forEach((f, i) => writeFileSync(f, `Diploma number ${i + 1}`));
  expect((await cli('partner', 'add', '--name', 'Resume University', '--data', data)).code).toBe(0);
});
afterEach(() => rmSync(data, { recursive: true, force: true }));

/** Counts in the engine's database: credentials, certificates, issue transactions. */
function counts(): { credentials: number; certificates: number; issueTxs: number } {
  const db = new Database(join(data, 'proofdesk.sqlite'), { readonly: true });
  try {
    const n = (sql: string) => db.prepare(sql).pluck().get() as number;
    return {
      credentials: n('SELECT count(*) FROM credentials'),
      certificates: n('SELECT count(*) FROM certificates'),
      issueTxs: n("SELECT count(*) FROM chain_txs WHERE purpose = 'issue' AND state <> 'dropped'"),
    };
  } finally {
    db.close();
  }
}

const issueArgs = () => ['issue', ...files, '--now', '--out', out, '--data', data, '--title', 'Diploma', '--json'];

async function expectAllProofsOk(): Promise<void> {
  expect(readdirSync(out).filter((f) => f.endsWith('.proof.json')).sort()).toEqual(files.map((f) => `${f.split('/').pop()}.proof.json`).sort());
  expect(readdirSync(out).filter((f) => f.includes('.writing'))).toEqual([]);
  for (const f of files) {
    const verified = await cli('verify', join(out, `${f.split('/').pop()}.proof.json`), '--file', f, '--data', data);
    expect(verified.out, verified.err).toContain('Result: ok');
  }
}

describe('issue after a crash resumes, and issues nothing twice (real anvil, SIGKILL at fault points)', () => {
  it.each([
    ['PROOFDESK_ISSUE_FAULT', 'after-uploading:3', 'the 3rd file journaled as uploading, its request not sent'],
    ['PROOFDESK_ISSUE_FAULT', 'after-create:2', 'the 2nd credential created and scheduled, the journal not told'],
    ['PROOFDESK_FAULT_POINT', 'after-broadcast-issue', 'the job started and its issue transaction broadcast'],
    ['PROOFDESK_ISSUE_FAULT', 'proofs-unrenamed', 'the job finished and a round of proofs written under temporary names'],
    ['PROOFDESK_ISSUE_FAULT', 'after-proof:2', 'the job finished and 2 proofs written'],
  ])('killed with %s=%s (%s): the same command again gives one credential, certificate and proof per file, one issue transaction', async (env, point) => {
    const crashed = await child(issueArgs(), { [env]: point });
    expect(crashed.signal, crashed.err).toBe('SIGKILL');

    const again = await child(issueArgs());
    expect(again.code, again.err).toBe(0);
    expect(again.err).not.toContain('try_again_later');
    expect(counts()).toEqual({ credentials: COUNT, certificates: COUNT, issueTxs: 1 });
    await expectAllProofsOk();
  });

  it('a run an older Proofdesk left unfinished in DATA/issue-journal.sqlite is resumed by the same command: nothing is sent again', async () => {
    const crashed = await child(issueArgs(), { PROOFDESK_ISSUE_FAULT: 'after-create:2' });
    expect(crashed.signal, crashed.err).toBe('SIGKILL');
    // The same run as the older journal kept it: the command line's fingerprint and each file's state, then no intake journal.
    const journal = new Database(join(data, 'ingest.sqlite'));
    const source = journal.prepare("SELECT id, path FROM folders WHERE path LIKE 'issue:%'").get() as { id: number; path: string };
    const rows = journal.prepare('SELECT rel_path, sha256, state, attempt_at, credential_uid FROM files WHERE folder_id = ?').all(source.id) as { rel_path: string; sha256: string; state: string; attempt_at: number; credential_uid: string | null }[];
    journal.close();
    expect(rows.map((r) => r.state)).toEqual(Array(COUNT).fill('uploading'));
    for (const name of ['ingest.sqlite', 'ingest.sqlite-wal', 'ingest.sqlite-shm']) rmSync(join(data, name), { force: true });
    const older = new Database(join(data, 'issue-journal.sqlite'));
    older.exec(`
      CREATE TABLE runs (id INTEGER PRIMARY KEY, run_key TEXT NOT NULL, target TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);
      CREATE TABLE items (run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, path TEXT NOT NULL, sha256 TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('uploading', 'created', 'done', 'skipped')), attempt_at INTEGER, credential_uid TEXT, proof TEXT, PRIMARY KEY (run_id, idx));`);
    older.prepare("INSERT INTO runs (id, run_key, target, created_at) VALUES (1, ?, 'older', 0)").run(source.path.slice('issue:'.length));
    for (const r of rows) older.prepare("INSERT INTO items (run_id, idx, path, sha256, state, attempt_at) VALUES (1, ?, ?, ?, 'uploading', ?)").run(Number(r.rel_path), files[Number(r.rel_path)], r.sha256, r.attempt_at);
    older.close();

    const again = await child(issueArgs());
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain('Resuming the earlier run of this command');
    expect(counts()).toEqual({ credentials: COUNT, certificates: COUNT, issueTxs: 1 });
    await expectAllProofsOk();
    const after = new Database(join(data, 'issue-journal.sqlite'), { readonly: true });
    expect(after.prepare('SELECT done FROM runs').pluck().get()).toBe(1);
    after.close();
  });

  it('content already issued is not issued again, unless --allow-duplicates; --title, --expiry and --link reach the credential', async () => {
    const first = await cli(...issueArgs());
    expect(first.code, first.err).toBe(0);
    const firstUids = (JSON.parse(first.out) as { proofs: { credential_uid: string }[] }).proofs.map((p) => p.credential_uid);

    rmSync(out, { recursive: true, force: true });
    const again = await cli(...issueArgs());
    expect(again.code, again.err).toBe(0);
    expect(counts()).toEqual({ credentials: COUNT, certificates: COUNT, issueTxs: 1 });
    expect((JSON.parse(again.out) as { proofs: { credential_uid: string }[] }).proofs.map((p) => p.credential_uid)).toEqual(firstUids);
    await expectAllProofsOk();

    const one = files[0]!;
    const dup = await cli('issue', one, '--now', '--out', join(data, 'dup'), '--data', data, '--allow-duplicates', '--title', 'Second copy', '--expiry', '2099-01-01T00:00:00Z', '--link', firstUids[1]!, '--json');
    expect(dup.code, dup.err).toBe(0);
    expect(counts()).toMatchObject({ credentials: COUNT + 1, issueTxs: 2 });
    const uid = (JSON.parse(dup.out) as { proofs: { credential_uid: string }[] }).proofs[0]!.credential_uid;
    const shown = JSON.parse((await cli('credential', 'show', uid, '--json', '--data', data)).out) as { title: string; expiry_date: string; credentials: { uid: string }[] };
    expect(shown.title).toBe('Second copy');
    expect(shown.expiry_date).toBe('2099-01-01T00:00:00.000Z');
    expect(shown.credentials.map((c) => c.uid)).toEqual([firstUids[1]]);
    expect(existsSync(join(data, 'dup', 'diploma-1.txt.proof.json'))).toBe(true);

    const past = await cli('issue', files[1]!, '--data', data, '--allow-duplicates', '--expiry', '2001-01-01T00:00:00Z');
    expect(past.code).toBe(1);
    expect(past.err).toMatch(/invalid_expiry_date/);
  });
});
