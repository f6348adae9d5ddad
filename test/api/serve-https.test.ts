/**
 * `serve --tls-cert --tls-key` as a child process on 127.0.0.1, with certificates made by
 * openssl in the test: HTTPS over HTTP/1.1 and HTTP/2, the pair reloaded on SIGHUP (new
 * connections get the new certificate, an open HTTP/2 session keeps working), a broken pair on
 * SIGHUP keeps the one in use, the remote client trusting the server's CA through
 * NODE_EXTRA_CA_CERTS, and plain HTTP refused beyond loopback.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { X509Certificate, createHash } from 'node:crypto';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSPHRASE_ENV } from '../../main/secrets/index.js';
import { endedWithin, startCliChild, type CliRun } from '../cli/cli-child.js';
import { removeTempDirs, tempDir, waitFor } from '../intake/helpers.js';

const PASSPHRASE = 'serve https passphrase';

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl: `{cert, key}` paths. */
function makeCertificate(dir: string, name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', `/CN=${name}`, '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { cert, key };
}

function fingerprintOf(certFile: string): string {
  return new X509Certificate(readFileSync(certFile)).fingerprint256;
}

/** The fingerprint of the certificate a new TLS connection to `port` is served. */
function servedFingerprint(port: number, ca: Buffer[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca, servername: 'localhost', ALPNProtocols: ['http/1.1'] }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

function h2Get(session: ClientHttp2Session, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path, ':method': 'GET' });
    let status = 0;
    let body = '';
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.on('data', (chunk: Buffer) => (body += chunk.toString()));
    stream.on('end', () => resolve({ status, body }));
    stream.on('error', reject);
  });
}

function cli(args: string[], env: Record<string, string> = {}): CliRun {
  return startCliChild(args, { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE, ...env });
}

describe('serve over HTTPS', () => {
  let dir: string;
  let data: string;
  let first: { cert: string; key: string };
  let second: { cert: string; key: string };
  let serve: CliRun;
  let baseUrl: string;
  let port: number;
  let client: { client_id: string; client_secret: string };
  let ca: Buffer[];

  beforeAll(async () => {
    dir = tempDir('proofdesk-serve-https-');
    data = join(dir, 'data');
    first = makeCertificate(dir, 'first');
    second = makeCertificate(dir, 'second');
    ca = [readFileSync(first.cert), readFileSync(second.cert)];
    const added = await endedWithin(cli(['partner', 'add', '--name', 'TLS University', '--data', data]), 60_000);
    expect(added.code, added.stderr).toBe(0);
    client = JSON.parse(added.stdout);
    // The served files are copies, so that the test can swap what they hold.
    writeFileSync(join(dir, 'served.crt'), readFileSync(first.cert));
    writeFileSync(join(dir, 'served.key'), readFileSync(first.key));
    serve = cli(['serve', '--port', '0', '--tls-cert', join(dir, 'served.crt'), '--tls-key', join(dir, 'served.key'), '--data', data]);
    const line = await waitFor('serve to listen', () => serve.stdout().split('\n').find((l) => l.includes('base_url')) ?? (serve.child.exitCode !== null ? `exit ${serve.stderr()}` : undefined), 60_000);
    baseUrl = JSON.parse(line).base_url;
    port = Number(new URL(baseUrl).port);
  }, 120_000);

  afterAll(async () => {
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGTERM');
      await endedWithin(serve, 30_000);
    }
    removeTempDirs();
  });

  it('prints an https base URL and answers over HTTP/1.1', async () => {
    expect(baseUrl).toBe(`https://127.0.0.1:${port}/api`);
    const answer = await new Promise<{ status: number; version: string; body: string }>((resolve, reject) => {
      const req = httpsRequest(`${baseUrl}/openapi.json`, { ca, servername: 'localhost' }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, version: res.httpVersion, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect(answer.version).toBe('1.1');
    // The document names the server as it is reached: over https.
    expect(JSON.parse(answer.body).servers[0].url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api$/);
  });

  it('answers over HTTP/2, a token and an authenticated call included', async () => {
    const session = http2Connect(`https://127.0.0.1:${port}`, { ca, servername: 'localhost' });
    try {
      const token = await new Promise<string>((resolve, reject) => {
        const stream = session.request({ ':path': '/realms/proofdesk/protocol/openid-connect/token', ':method': 'POST', 'content-type': 'application/x-www-form-urlencoded' });
        let body = '';
        stream.on('data', (d: Buffer) => (body += d.toString()));
        stream.on('end', () => resolve(JSON.parse(body).access_token));
        stream.on('error', reject);
        stream.end(new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }).toString());
      });
      const listed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = session.request({ ':path': '/api/credentials', ':method': 'GET', authorization: `Bearer ${token}` });
        let status = 0;
        let body = '';
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.on('data', (d: Buffer) => (body += d.toString()));
        stream.on('end', () => resolve({ status, body }));
        stream.on('error', reject);
      });
      expect(listed.status).toBe(200);
      expect(JSON.parse(listed.body).result.total_items).toBe(0);
      // An upload streams over an HTTP/2 stream like over HTTP/1.1.
      const form = new FormData();
      form.append('file', new Blob(['uploaded over HTTP/2']), 'h2.txt');
      const encoded = new Response(form);
      const uploaded = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = session.request({ ':path': '/api/files', ':method': 'POST', authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type')! });
        let status = 0;
        let body = '';
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.on('data', (d: Buffer) => (body += d.toString()));
        stream.on('end', () => resolve({ status, body }));
        stream.on('error', reject);
        void encoded.arrayBuffer().then((bytes) => stream.end(Buffer.from(bytes)));
      });
      expect(uploaded.status).toBe(201);
      expect(JSON.parse(uploaded.body).result.file_hash).toBe(createHash('sha256').update('uploaded over HTTP/2').digest('hex'));
      // HTTP/2 names the host in :authority: another name is refused as a Host header would be.
      const elsewhere = await new Promise<number>((resolve, reject) => {
        const stream = session.request({ ':path': '/api/files', ':method': 'GET', ':authority': 'rebound.example', authorization: `Bearer ${token}` });
        stream.on('response', (h) => resolve(Number(h[':status'])));
        stream.on('error', reject);
        stream.resume();
      });
      expect(elsewhere).toBe(404);
    } finally {
      session.close();
    }
  });

  it('the CLI in remote mode talks to it when NODE_EXTRA_CA_CERTS names its CA', async () => {
    const env = { PROOFDESK_CLIENT_SECRET: client.client_secret, NODE_EXTRA_CA_CERTS: first.cert };
    const listed = await endedWithin(cli(['credential', 'list', '--remote', baseUrl, '--client-id', client.client_id, '--json'], env), 60_000);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).total_items).toBe(0);
    // Without it, the certificate is refused before anything is sent: one sentence naming why.
    const untrusted = await endedWithin(cli(['credential', 'list', '--remote', baseUrl, '--client-id', client.client_id, '--json'], { PROOFDESK_CLIENT_SECRET: client.client_secret }), 60_000);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr.trim()).toMatch(/^error internal_error \(500\): Request to https:\/\/127\.0\.0\.1:\d+\/realms\/proofdesk\/protocol\/openid-connect\/token failed: self-signed certificate$/);
  }, 120_000);

  it('reloads the certificate on SIGHUP: new connections get the new one, an open HTTP/2 session keeps working', async () => {
    expect(await servedFingerprint(port, ca)).toBe(fingerprintOf(first.cert));
    const session = http2Connect(`https://127.0.0.1:${port}`, { ca, servername: 'localhost' });
    try {
      expect((await h2Get(session, '/healthz')).status).toBe(200);
      writeFileSync(join(dir, 'served.crt'), readFileSync(second.cert));
      writeFileSync(join(dir, 'served.key'), readFileSync(second.key));
      const said = serve.stderr().length;
      serve.child.kill('SIGHUP');
      await waitFor('the reload', () => serve.stderr().slice(said).includes('SIGHUP') || undefined, 30_000);
      expect(serve.stderr().slice(said)).toContain('reloaded TLS certificate');
      expect(await servedFingerprint(port, ca)).toBe(fingerprintOf(second.cert));
      expect((await h2Get(session, '/healthz')).status).toBe(200);
    } finally {
      session.close();
    }
  });

  it('a broken pair on SIGHUP keeps the certificate in use and says why in one sentence', async () => {
    const before = await servedFingerprint(port, ca);
    // The first certificate with the second's key: not a pair.
    writeFileSync(join(dir, 'served.crt'), readFileSync(first.cert));
    writeFileSync(join(dir, 'served.key'), readFileSync(second.key));
    const said = serve.stderr().length;
    serve.child.kill('SIGHUP');
    const line = await waitFor('the refusal', () => serve.stderr().slice(said).split('\n').find((l) => l.includes('SIGHUP')), 30_000);
    expect(line).toMatch(/kept the TLS certificate in use, because the TLS certificate .* do not load as a pair/);
    expect(await servedFingerprint(port, ca)).toBe(before);
    expect(serve.child.exitCode).toBeNull();
  });

  it('stops on SIGTERM with exit 0 while an idle HTTP/2 session and an idle HTTP/1.1 keep-alive connection are open', async () => {
    const session = http2Connect(`https://127.0.0.1:${port}`, { ca, servername: 'localhost' });
    expect((await h2Get(session, '/healthz')).status).toBe(200);
    const agent = new Agent({ keepAlive: true, ca, servername: 'localhost' });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(`https://127.0.0.1:${port}/healthz`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    serve.child.kill('SIGTERM');
    const ended = await endedWithin(serve, 25_000);
    expect(ended.code).toBe(0);
    expect(ended.stderr).not.toContain('still in flight');
    agent.destroy();
    session.destroy();
  }, 30_000);
});

describe('serve with a broken pair', () => {
  it('does not start when the key is not the certificate\'s: one sentence, exit 1', async () => {
    const dir = tempDir('proofdesk-serve-badpair-');
    const one = makeCertificate(dir, 'one');
    const two = makeCertificate(dir, 'two');
    const run = await endedWithin(cli(['serve', '--port', '0', '--tls-cert', one.cert, '--tls-key', two.key, '--log', 'text', '--data', join(dir, 'data')]), 60_000);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toMatch(new RegExp(`^proofdesk serve: cannot start: the TLS certificate ${one.cert} and key ${two.key} do not load as a pair: .*key values mismatch$`));
  }, 60_000);
});

describe('serve without TLS', () => {
  it('refuses to bind beyond loopback in plain HTTP: one sentence, exit 2', async () => {
    const data = join(tempDir('proofdesk-serve-plain-'), 'data');
    const refused = await endedWithin(cli(['serve', '--host', '0.0.0.0', '--port', '0', '--data', data]), 60_000);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(
      'Binding 0.0.0.0 without TLS would send tokens and client secrets in clear: give --tls-cert and --tls-key, or --insecure-http when a TLS-terminating proxy is in front.',
    );
    expect(refused.stdout).toBe('');
  }, 60_000);

  it('binds beyond loopback with --insecure-http (a TLS proxy in front)', async () => {
    const data = join(tempDir('proofdesk-serve-insecure-'), 'data');
    const run = cli(['serve', '--host', '0.0.0.0', '--port', '0', '--insecure-http', '--data', data]);
    const line = await waitFor('serve to listen', () => run.stdout().split('\n').find((l) => l.includes('base_url')) ?? (run.child.exitCode !== null ? `exit ${run.stderr()}` : undefined), 60_000);
    expect(JSON.parse(line).base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    run.child.kill('SIGTERM');
    expect((await endedWithin(run, 30_000)).code).toBe(0);
  }, 90_000);
});
