/**
 * A curl-like session following the spec against `npm run cli -- serve` as a child process:
 * token, upload, create, schedule, immediate issuing on the local chain, download, verify,
 * revoke — with plain fetch and FormData, as any client would. Then SIGTERM stops it cleanly.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/issuing-fixture.js';
import type { Json } from './api-fixture.js';

const ENV = { ...process.env, PROOFDESK_PASSPHRASE: 'api session test passphrase', PROOFDESK_SECRET_STORE: undefined };
const DIPLOMA = 'Grace Hopper — Doctor of Philosophy in Mathematics';

interface Envelope<T = Json> {
  result: T;
  meta: Record<string, string>;
  error?: { id: string; message: string };
}

describe('a curl-like session against `npm run cli -- serve`', () => {
  let data: string;
  let child: ChildProcess;
  let stdout = '';
  let stderr = '';
  let baseUrl: string;
  let authUrl: string;
  let client: { client_id: string; client_secret: string; realm: string };
  let token: string;

  async function call<T = Json>(method: string, path: string, body?: unknown): Promise<{ status: number; body: Envelope<T>; text: string; type: string | null }> {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, init);
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as Envelope<T>, text, type: response.headers.get('content-type') };
  }

  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'proofdesk-api-session-'));
    const added = await promisify(execFile)('npm', ['run', '-s', 'cli', '--', 'partner', 'add', '--name', 'Hopper University', '--data', data], { cwd: REPO_ROOT, env: ENV });
    client = JSON.parse(added.stdout);
    child = spawn('npm', ['run', '-s', 'cli', '--', 'serve', '--port', '0', '--data', data], { cwd: REPO_ROOT, env: ENV, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve printed nothing in 60 s; stderr: ${stderr}`)), 60_000);
      child.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
        const end = stdout.indexOf('\n');
        if (end >= 0) {
          clearTimeout(timer);
          resolve(stdout.slice(0, end));
        }
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}; stderr: ${stderr}`)));
    });
    const printed = JSON.parse(line) as { base_url: string; auth_url: string };
    expect(Object.keys(printed).sort()).toEqual(['auth_url', 'base_url']);
    ({ base_url: baseUrl, auth_url: authUrl } = printed);
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    rmSync(data, { recursive: true, force: true });
  });

  it('prints one JSON line with base_url and auth_url on loopback', () => {
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(authUrl).toBe(baseUrl.replace(/\/api$/, ''));
  });

  it('runs the spec from token to revocation', async () => {
    // 1. Token (client credentials, form-urlencoded).
    const tokenResponse = await fetch(`${authUrl}/realms/${client.realm}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }),
    });
    expect(tokenResponse.status).toBe(200);
    const tokenBody = (await tokenResponse.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(tokenBody).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    token = tokenBody.access_token;

    // 2. Upload (curl -F file=@diploma.txt).
    const form = new FormData();
    form.append('file', new Blob([DIPLOMA]), 'diploma.txt');
    const uploaded = await call('POST', '/files', form);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.result).toEqual({ file_hash: createHash('sha256').update(DIPLOMA).digest('hex'), file_type: 'text/plain' });
    expect(Object.keys(uploaded.body.meta).sort()).toEqual(['date', 'documentation', 'last_update', 'message', 'version']);

    // 3. Create a credential from the file and metadata.
    const created = await call('POST', '/credentials', { title: 'PhD Mathematics', metadata: { student: 'Grace Hopper', year: 1934 }, files: [uploaded.body.result.file_hash], tags: ['phd'] });
    expect(created.status).toBe(201);
    const credential = created.body.result;

    // 4. Schedule it; and create-and-schedule a second one in one multipart request.
    const scheduled = await call('POST', '/credentials/schedule', { engine: 'local', credentials: [credential.uid] });
    expect(scheduled.status).toBe(201);
    expect(scheduled.body.result).toMatchObject({ status: 'scheduled', chain: 'local' });
    const both = new FormData();
    both.append('credential_details', JSON.stringify({ title: 'Thesis', metadata: { pages: 120 } }));
    both.append('file', new Blob(['Thesis text']), 'thesis.txt');
    const second = await call('POST', '/credentials/schedule/local', both);
    expect(second.status).toBe(201);

    // 5. Issue now (demo) and wait until the job is finished.
    const issued = await call('POST', '/jobs/immediate', { engine: 'local' });
    expect(issued.status).toBe(201);
    const jobUid = issued.body.result.uid;
    expect(jobUid).toBe(scheduled.body.result.uid);
    let status = issued.body.result.status;
    for (let i = 0; i < 300 && status !== 'finished'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await call('GET', `/jobs/${jobUid}`)).body.result.status;
    }
    expect(status).toBe('finished');

    // 6. Certificates and the proof file.
    const certificates = await call('GET', `/certificates?credential_uid=${credential.uid}`);
    expect(certificates.body.result.total_items).toBe(1);
    const certificateUid = certificates.body.result.items[0].certificate.uid;
    const download = await fetch(`${baseUrl}/certificates/${certificateUid}/download`, { headers: { authorization: `Bearer ${token}` } });
    expect(download.status).toBe(200);
    const proof = await download.text();
    expect(JSON.parse(proof)).toMatchObject({ format: 'proofdesk-proof/1', certificate: { uid: certificateUid } });

    // 7. Verify: by uid, by the proof file, by the original file.
    expect((await call('GET', `/verify/${certificateUid}`)).body.result.result.status).toBe('ok');
    const proofForm = new FormData();
    proofForm.append('file', new Blob([proof]), 'diploma.proof.json');
    expect((await call('POST', '/verify/upload/certificate', proofForm)).body.result.result.status).toBe('ok');
    const originalForm = new FormData();
    originalForm.append('file', new Blob([DIPLOMA]), 'diploma.txt');
    const byFile = await call('POST', '/verify/upload/file', originalForm);
    expect(byFile.body.result.items.map((r: { result: { status: string } }) => r.result.status)).toEqual(['ok']);

    // 8. Revoke; verification says so from then on.
    const revoked = await call('POST', `/certificates/${certificateUid}/revoke`);
    expect(revoked.status).toBe(200);
    expect(Date.parse(revoked.body.result.revoked_date)).not.toBeNaN();
    expect((await call('GET', `/verify/${certificateUid}`)).body.result.result.status).toBe('revoked');
    const again = await call('POST', `/credentials/${credential.uid}/revoke/local`);
    expect({ status: again.status, id: again.body.error?.id }).toEqual({ status: 409, id: 'certificate_already_revoked' });
  });

  it('stops on SIGTERM, closing its port and leaving no temporary files, and never printed a secret or token', async () => {
    const port = Number(new URL(baseUrl).port);
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    process.kill(-child.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((_, reject) => setTimeout(() => reject(new Error(`serve did not stop; stderr: ${stderr}`)), 30_000))]);
    // The whole process group ends (npm, tsx and the server itself, once requests and the engine are closed).
    const groupAlive = () => {
      try {
        process.kill(-child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 300 && groupAlive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(groupAlive()).toBe(false);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(false);
      });
      socket.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    expect(stderr).toContain('SIGTERM');
    expect(stdout.trim().split('\n')).toHaveLength(1);
    for (const secret of [client.client_secret, token]) {
      expect(stdout).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }
    const staging = join(data, 'tmp');
    expect(existsSync(staging) ? readdirSync(staging).filter((name) => name.includes('-api-')) : []).toEqual([]);
  });
});
