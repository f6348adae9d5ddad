/**
 * The status list through the real CLI: `serve --public-url` (a child process on loopback whose
 * public URL is itself) publishes it, `certificate download --format vc` writes a credential
 * naming it, and `verify --network` reads it — before and after a revocation over REST — while
 * `verify` without the flag fetches nothing (`verify DIR --network` too). A public URL verifiers could not rely on stops
 * `serve` before it starts.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../main/chain/free-port.js';
import { runCli } from '../../main/cli/run.js';
import { requestToken } from '../api/api-fixture.js';
import { startCliChild, type CliRun } from '../cli/cli-child.js';

const PASSPHRASE = 'status list cli tests';
process.env.PROOFDESK_PASSPHRASE = PASSPHRASE;

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The revocation step's credential_status of `verify FILE --json` (and its exit code). */
async function verifyStatus(file: string, ...flags: string[]): Promise<{ code: number; result: string; status: Record<string, unknown> }> {
  // A data directory with no chain: the chain steps wait, so the list alone answers revocation.
  const verified = await cli('verify', file, '--json', '--data', join(tmpdir(), 'proofdesk-no-such-data-dir'), ...flags);
  const parsed = JSON.parse(verified.out) as { result: { status: string }; verification: { revocation: { description: { credential_status: Record<string, unknown> } } } };
  return { code: verified.code, result: parsed.result.status, status: parsed.verification.revocation.description.credential_status };
}

describe('serve --public-url and verify --network', () => {
  let data: string;
  let serve: CliRun;
  let baseUrl: string;
  let origin: string;
  let uid: string;
  let client: { client_id: string; client_secret: string };

  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'proofdesk-status-cli-'));
    const added = await cli('partner', 'add', '--name', 'University of Status', '--data', data);
    expect(added.code, added.err).toBe(0);
    client = JSON.parse(added.out) as { client_id: string; client_secret: string };
    const file = join(data, 'diploma.txt');
    writeFileSync(file, 'Ada Lovelace, BSc in Chemistry');
    const issued = await cli('issue', file, '--now', '--out', join(data, 'proofs'), '--json', '--data', data);
    expect(issued.code, issued.err).toBe(0);
    uid = (JSON.parse(issued.out) as { proofs: { certificate_uid: string }[] }).proofs[0]!.certificate_uid;

    const port = await findFreePort();
    origin = `http://127.0.0.1:${port}`;
    serve = startCliChild(['serve', '--port', String(port), '--public-url', origin, '--data', data], { ...process.env, PROOFDESK_PASSPHRASE: PASSPHRASE });
    const line = await new Promise<string>((resolve, reject) => {
      serve.child.stdout!.on('data', () => {
        if (serve.stdout().includes('\n')) resolve(serve.stdout().split('\n')[0]!);
      });
      void serve.ended.then(({ stderr }) => reject(new Error(`serve ended: ${stderr}`)));
    });
    baseUrl = (JSON.parse(line) as { base_url: string }).base_url;
  }, 120_000);

  afterAll(async () => {
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGTERM');
      await serve.ended;
    }
    rmSync(data, { recursive: true, force: true });
  });

  it('refuses a public URL that is not https (or http on loopback) before serving', async () => {
    const refused = await cli('serve', '--public-url', 'http://issuer.example', '--data', data);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/--public-url: .*must be https/);
  });

  it('a downloaded credential names the list serve publishes; verify reads it only with --network, and sees the revocation', async () => {
    const out = join(data, 'vcs');
    const downloaded = await cli('certificate', 'download', uid, '--out', out, '--format', 'vc', '--data', data);
    expect(downloaded.code, downloaded.err).toBe(0);
    const file = join(out, `${uid}.vc.json`);
    const credential = JSON.parse(readFileSync(file, 'utf8')) as { credentialStatus: { statusListCredential: string } };
    expect(credential.credentialStatus.statusListCredential).toMatch(new RegExp(`^${origin}/status/[0-9a-f-]+/1$`));

    const offline = await verifyStatus(file);
    expect(offline.status).toMatchObject({ checked: false, reason: expect.stringMatching(/network is off/) });
    const before = await verifyStatus(file, '--network');
    expect(before.status).toMatchObject({ checked: true, revoked: false });
    expect(before.result).toBe('pending');

    const token = (await requestToken(origin, client.client_id, client.client_secret)).body.access_token as string;
    const revoked = await request(`${baseUrl}/certificates/${uid}/revoke`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(revoked.statusCode).toBe(200);
    await revoked.body.dump();

    const after = await verifyStatus(file, '--network');
    expect(after).toMatchObject({ code: 1, result: 'revoked', status: { checked: true, revoked: true } });
    expect((await cli('verify', file, '--offline', '--network')).code).toBe(2);
    // Many at once (`verify DIR`): the run fetches the list once and every copy reads it.
    const many = join(data, 'many');
    mkdirSync(many);
    for (const name of ['a.vc.json', 'b.vc.json', 'c.vc.json']) copyFileSync(file, join(many, name));
    const batch = await cli('verify', many, '--network', '--json', '--data', join(tmpdir(), 'proofdesk-no-such-data-dir'));
    expect(JSON.parse(batch.out)).toMatchObject({ total: 3, counts: { revoked: 3 } });
  });
});
