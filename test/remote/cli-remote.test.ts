/**
 * The CLI's credential and jobs commands with `--remote BASE_URL`: they run against a `serve`
 * (here on loopback) instead of the embedded engine, the client secret coming only from
 * PROOFDESK_CLIENT_SECRET.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential, Job, Page } from '../../common/wire-types.js';
import { cliArgs } from '../cli/cli-child.js';
import { SECRET_ENV, cliWithSecret as cli } from '../support/cli-in-process.js';
import { serveEngine, type ServedEngine, type ServedPartner } from './remote-fixture.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('CLI --remote against serve', () => {
  let served: ServedEngine;
  let partner: ServedPartner;
  let dir: string;
  let remote: string[];

  beforeAll(async () => {
    served = await serveEngine();
    partner = await served.addPartner('CLI Remote University');
    dir = mkdtempSync(join(tmpdir(), 'proofdesk-cli-remote-'));
    // `issue --remote` keeps its journal in the local data directory (the default one, or PROOFDESK_DATA).
    process.env.PROOFDESK_DATA = join(dir, 'local-data');
    remote = ['--remote', served.server.baseUrl, '--client-id', partner.clientId];
  });
  afterAll(async () => {
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('issue --remote issues a file on the remote service, waits for its job and writes a proof that verifies there', async () => {
    const file = join(dir, 'remote-issue.txt');
    writeFileSync(file, `remote issue ${randomUUID()}\n`);
    const out = join(dir, 'remote-proofs');
    // A Partner of its own, so the other tests' counts stay theirs.
    const issuer = await served.addPartner('CLI Remote Issuer');
    // The fixture's engine runs no scheduler (`serve` does): follow the job to finished here.
    const ticking = setInterval(() => void served.engine.issuing.tick(), 100);
    let issued: Awaited<ReturnType<typeof cli>>;
    try {
      issued = await cli(['issue', file, '--remote', served.server.baseUrl, '--client-id', issuer.clientId, '--now', '--out', out, '--json'], issuer.clientSecret);
    } finally {
      clearInterval(ticking);
    }
    expect(issued, issued.err).toMatchObject({ code: 0 });
    const result = JSON.parse(issued.out) as { proofs: { proof: string; certificate_uid: string }[] };
    expect(result.proofs).toHaveLength(1);
    const verified = await served.engine.serviceFor(issuer.partnerId).verifyCertificate(result.proofs[0]!.certificate_uid);
    expect(verified.result.status).toBe('ok');
  });

  it('credential create uploads the file to the remote service and prints the credential; list and jobs see it there', async () => {
    const file = join(dir, 'transcript.txt');
    writeFileSync(file, `transcript ${randomUUID()}\n`);
    const created = await cli(['credential', 'create', ...remote, '--title', 'Remote diploma', '--meta', 'grade=A', '--file', file, '--tag', 'remote-cli'], partner.clientSecret);
    expect(created, created.err).toMatchObject({ code: 0 });
    const credential = JSON.parse(created.out) as Credential;
    expect(credential).toMatchObject({ title: 'Remote diploma', metadata: { grade: 'A' }, tags: ['remote-cli'], files: [{ file_type: 'text/plain' }] });
    // It is in the served engine, for that Partner.
    expect(await served.engine.serviceFor(partner.partnerId).getCredential(credential.uid)).toEqual(credential);

    const listed = await cli(['credential', 'list', ...remote, '--and-tags', 'remote-cli', '--json'], partner.clientSecret);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.out) as Page<Credential>).items.map((c) => c.uid)).toEqual([credential.uid]);

    const scheduled = await cli(['credential', 'schedule', credential.uid, ...remote, '--json'], partner.clientSecret);
    expect(scheduled.code, scheduled.err).toBe(0);
    const job = JSON.parse(scheduled.out) as Job;
    const jobs = await cli(['jobs', 'list', ...remote, '--status', 'scheduled', '--json'], partner.clientSecret);
    expect((JSON.parse(jobs.out) as Page<Job>).items.map((j) => j.uid)).toEqual([job.uid]);
    const shown = await cli(['jobs', 'show', job.uid, ...remote], partner.clientSecret);
    expect(JSON.parse(shown.out)).toEqual(job);
  });

  it('the service\'s refusals keep their id and exit 1; a wrong secret is unauthorized', async () => {
    const missing = await cli(['credential', 'show', randomUUID(), ...remote], partner.clientSecret);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^error missing_credential \(404\)/);
    const wrong = await cli(['jobs', 'list', ...remote], 'not-the-secret');
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/^error unauthorized \(401\)/);
    expect(wrong.err).not.toContain('not-the-secret');
  });

  it('usage: the secret only from the environment, --client-id needed, no --data/--partner with --remote, no auth flags without it', async () => {
    const noSecret = await cli(['jobs', 'list', ...remote], undefined);
    expect(noSecret.code).toBe(2);
    expect(noSecret.err).toContain(SECRET_ENV);
    const secretFlag = await cli(['jobs', 'list', ...remote, '--client-secret', partner.clientSecret], partner.clientSecret);
    expect(secretFlag.code).toBe(2);
    const noClient = await cli(['jobs', 'list', '--remote', served.server.baseUrl], partner.clientSecret);
    expect(noClient.code).toBe(2);
    expect(noClient.err).toContain('--client-id');
    const withPartner = await cli(['credential', 'list', ...remote, '--partner', 'x'], partner.clientSecret);
    expect(withPartner.code).toBe(2);
    const stray = await cli(['jobs', 'list', '--client-id', partner.clientId, '--data', dir], partner.clientSecret);
    expect(stray.code).toBe(2);
    expect(stray.err).toContain('--client-id applies only with --remote');
    const notUrl = await cli(['jobs', 'list', '--remote', 'not a url', '--client-id', 'x'], 'y');
    expect(notUrl.code).toBe(2);
    const clear = await cli(['jobs', 'list', '--remote', 'http://issuer.example/api', '--client-id', 'x'], 'y');
    expect(clear.code).toBe(2);
    expect(clear.err).toContain('https');
  });

  it('the real entry (npm run cli) works with --remote, the secret from its environment', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolvePromise, reject) => {
      const child = spawn(process.execPath, [...cliArgs(), 'jobs', 'list', ...remote, '--json'], {
        cwd: REPO_ROOT,
        env: { ...process.env, [SECRET_ENV]: partner.clientSecret },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', reject);
      child.on('exit', (c) => resolvePromise({ code: c, stdout: out, stderr: err }));
    });
    expect(code, stderr).toBe(0);
    expect((JSON.parse(stdout) as Page<Job>).total_items).toBe(1);
  });
});
