/**
 * The activity log across a crash: `issue --now` killed with SIGKILL at exact points (a real
 * child process, real anvil), then run again. Right after the crash the log holds an entry for
 * every change that was committed and none for one that was not; after the re-run it holds the
 * whole story once.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliArgs } from '../cli/cli-child.js';
import { cliInProcess as cli } from '../support/cli-in-process.js';
import { REPO_ROOT } from '../support/issuing-fixture.js';

const PASSPHRASE = 'activity crash passphrase';
process.env.PROOFDESK_PASSPHRASE = PASSPHRASE;
const COUNT = 4;
const ME = userInfo().username;

/** Runs the CLI as a child process leading its own process group; resolves with how it ended. */
function child(argv: string[], env: Record<string, string> = {}): Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...cliArgs(), ...argv], {
      cwd: REPO_ROOT,
      env: { ...process.env, PROOFDESK_PASSPHRASE: PASSPHRASE, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // Read and dropped: a run whose stdout is /dev/null stalls in its resume (seen with 'ignore').
    p.stdout.resume();
    // A run still going after 90 s is killed and fails the test: our kill must never pass for a fault point's.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-p.pid!, 'SIGKILL');
    }, 90_000);
    p.on('exit', (code, signal) => {
      clearTimeout(timer);
      // Whatever the child left running (its anvil) goes with it.
      try {
        process.kill(-p.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
      if (timedOut) reject(new Error(`the CLI did not end within 90 s (killed); its stderr ends: ${err.slice(-1500)}`));
      else resolve({ code, signal, err });
    });
  });
}

let data: string;
let files: string[];
beforeEach(async () => {
  data = mkdtempSync(join(tmpdir(), 'proofdesk-activity-crash-'));
  mkdirSync(join(data, 'in'));
  files = Array.from({ length: COUNT }, (_, i) => join(data, 'in', `diploma-${i + 1}.txt`));
  files.forEach((f, i) => writeFileSync(f, `Diploma number ${i + 1}`));
  expect((await cli('partner', 'add', '--name', 'Crash University', '--data', data)).code).toBe(0);
});
afterEach(() => rmSync(data, { recursive: true, force: true }));

const issueArgs = () => ['issue', ...files, '--now', '--out', join(data, 'out'), '--data', data, '--title', 'Diploma'];

/**
 * Compares the log with the records it describes: one `created` per credential, one `scheduled`
 * per credential in a job, one `issued` per certificate of a mined job (with its transaction),
 * and nothing else.
 */
function expectLogMatchesRecords(dir = data): { created: number; issued: number } {
  const db = new Database(join(dir, 'proofdesk.sqlite'), { readonly: true });
  try {
    const all = <T>(sql: string) => db.prepare(sql).all() as T[];
    const key = (...parts: unknown[]) => parts.join(' ');
    const sorted = (values: string[]) => [...values].sort();
    // The log keeps uids as their 16 bytes: both sides are compared as hex.
    const credentials = all<{ uid: string }>("SELECT replace(uid, '-', '') AS uid FROM credentials").map((r) => r.uid);
    const created = all<{ credential_uid: string; actor: string }>("SELECT lower(hex(credential_uid)) AS credential_uid, actor FROM activity WHERE kind = 'created'");
    expect(sorted(created.map((r) => r.credential_uid))).toEqual(sorted(credentials));
    expect(new Set(created.map((r) => r.actor))).toEqual(new Set(credentials.length ? [ME] : []));

    const inJobs = all<{ c: string; j: string; engine: string }>("SELECT replace(c.uid, '-', '') AS c, replace(j.uid, '-', '') AS j, jc.engine FROM job_credentials jc JOIN credentials c ON c.id = jc.credential_id JOIN jobs j ON j.id = jc.job_id");
    const scheduled = all<{ credential_uid: string; job_uid: string; engine: string }>("SELECT lower(hex(credential_uid)) AS credential_uid, lower(hex(job_uid)) AS job_uid, engine FROM activity WHERE kind = 'scheduled'");
    expect(sorted(scheduled.map((r) => key(r.credential_uid, r.job_uid, r.engine)))).toEqual(sorted(inJobs.map((r) => key(r.c, r.j, r.engine))));

    const certificates = all<{ cert: string; cred: string; job: string; tx: string }>(
      "SELECT replace(c.uid, '-', '') AS cert, replace(cr.uid, '-', '') AS cred, replace(j.uid, '-', '') AS job, t.hash AS tx FROM certificates c JOIN credentials cr ON cr.id = c.credential_id JOIN jobs j ON j.id = c.job_id JOIN chain_txs t ON t.id = j.issue_tx WHERE j.status IN ('unconfirmed', 'finished')",
    );
    const issued = all<{ certificate_uid: string; credential_uid: string; job_uid: string; detail: string }>(
      "SELECT lower(hex(certificate_uid)) AS certificate_uid, lower(hex(credential_uid)) AS credential_uid, lower(hex(job_uid)) AS job_uid, detail FROM activity WHERE kind = 'issued'",
    );
    expect(sorted(issued.map((r) => key(r.certificate_uid, r.credential_uid, r.job_uid, (JSON.parse(r.detail) as { transaction: string }).transaction)))).toEqual(
      sorted(certificates.map((r) => key(r.cert, r.cred, r.job, r.tx))),
    );
    expect(all("SELECT 1 FROM activity WHERE kind NOT IN ('created', 'scheduled', 'issued', 'exported')")).toEqual([]);
    return { created: created.length, issued: issued.length };
  } finally {
    db.close();
  }
}

describe('the activity log after `issue --now` is killed mid-job (real anvil, SIGKILL at fault points)', () => {
  it.each([
    ['PROOFDESK_ISSUE_FAULT', 'after-create:2', 'the 2nd credential created and scheduled'],
    ['PROOFDESK_FAULT_POINT', 'after-broadcast-issue', 'the job started and its transaction broadcast, not yet mined'],
    ['PROOFDESK_ISSUE_FAULT', 'after-proof:2', 'the job finished and 2 proofs written'],
  ])('killed with %s=%s (%s): no committed change lacks its entry, no entry lacks its change; the re-run completes the log once', async (env, point) => {
    const crashed = await child(issueArgs(), { [env]: point });
    expect(crashed.signal, crashed.err).toBe('SIGKILL');
    // Read from a copy (the database and its write-ahead log: what was committed), so the check
    // leaves the crashed data directory exactly as the re-run finds it.
    const copy = join(data, 'after-crash');
    mkdirSync(copy);
    for (const name of ['proofdesk.sqlite', 'proofdesk.sqlite-wal']) if (existsSync(join(data, name))) copyFileSync(join(data, name), join(copy, name));
    const afterCrash = expectLogMatchesRecords(copy);
    expect(afterCrash.created).toBeGreaterThan(0);

    const again = await child(issueArgs());
    expect(again.code, again.err).toBe(0);
    expect(expectLogMatchesRecords()).toEqual({ created: COUNT, issued: COUNT });
    const listed = await cli('activity', 'list', '--data', data, '--kind', 'exported', '--json', '--per-page', '0');
    const exported = (JSON.parse(listed.out) as { items: { credential_uid: string }[] }).items.map((e) => e.credential_uid);
    // Every file's proof was handed out by one of the two runs (the crashed one may have written some).
    const credentials = (JSON.parse((await cli('activity', 'list', '--data', data, '--kind', 'created', '--json', '--per-page', '0')).out) as { items: { credential_uid: string }[] }).items;
    expect(new Set(exported)).toEqual(new Set(credentials.map((e) => e.credential_uid)));
  });
});
