/**
 * What an operator runs `serve` with: the health checks a load balancer asks, the JSON request
 * log (a request id that round-trips, and never a token, client secret, uid or query in it), and
 * a graceful SIGTERM: an upload still being sent finishes with its answer, new connections are
 * refused, the process exits 0. `serve` runs as a child process on 127.0.0.1.
 */
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSPHRASE_ENV } from '../../main/secrets/index.js';
import { endedWithin, startCliChild, type CliRun } from '../cli/cli-child.js';
import { removeTempDirs, tempDir, waitFor } from '../intake/helpers.js';
import { expectError, expectResult, requestToken, startApiFixture, type Json } from './api-fixture.js';

const PASSPHRASE = 'serve operations passphrase';

interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Resolves once a TCP connection to `port` is refused (the server stopped listening). */
async function connectionRefused(port: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (!accepted) return true;
  }
  return false;
}

describe('serve: health checks, request log, graceful shutdown', () => {
  let data: string;
  let serve: CliRun;
  let origin: string;
  let port: number;
  let client: { partner_id: string; client_id: string; client_secret: string };

  beforeAll(async () => {
    data = join(tempDir('proofdesk-serve-ops-'), 'data');
    const env = { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE };
    const added = await endedWithin(startCliChild(['partner', 'add', '--name', 'Ops University', '--data', data], env), 60_000);
    expect(added.code, added.stderr).toBe(0);
    client = JSON.parse(added.stdout);
    serve = startCliChild(['serve', '--port', '0', '--log', 'json', '--data', data], { ...env, PROOFDESK_NODE_NAME: 'ops-node' });
    const line = await waitFor('serve to listen', () => serve.stdout().split('\n').find((l) => l.includes('base_url')) ?? (serve.child.exitCode !== null ? `exit ${serve.stderr()}` : undefined), 60_000);
    origin = JSON.parse(line).auth_url;
    port = Number(new URL(origin).port);
  }, 120_000);

  afterAll(async () => {
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGKILL');
      await serve.ended;
    }
    removeTempDirs();
  });

  it('answers /healthz and /readyz without a token, whatever the Host (a load balancer probes by address)', async () => {
    const health = await get(`${origin}/healthz`, { host: '10.0.0.7:8443' });
    expect(health.status).toBe(200);
    expect(health.body.result).toEqual({ status: 'ok' });
    const ready = await get(`${origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.result).toEqual({ status: 'ready', database: 'ok', migrations: 'current', scheduler: 'here', leader: 'ops-node' });
    expect(ready.headers.get('cache-control')).toBe('no-store');
  });

  it('logs one JSON line per request with the route pattern, the request id it echoes, and the Partner, never a secret', async () => {
    const tokenAnswer = await requestToken(origin, client.client_id, client.client_secret);
    const token = tokenAnswer.body.access_token as string;
    const uid = '0192f4c4-9d5e-7c1a-8b2e-3f4a5b6c7d8e';
    const querySecret = 'q-secret-4711';
    const asked = await get(`${origin}/api/credentials/${uid}?note=${querySecret}`, { authorization: `Bearer ${token}`, 'x-request-id': 'trace-abc.123' });
    expect(asked.status).toBe(404);
    expect(asked.headers.get('x-request-id')).toBe('trace-abc.123');
    // A malformed id is replaced by one of ours, echoed the same way.
    const other = await get(`${origin}/healthz`, { 'x-request-id': 'not "a" good id' });
    const generated = other.headers.get('x-request-id')!;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);

    const lines = await waitFor('the log lines', () => {
      const parsed = serve
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Json);
      return parsed.some((l) => l.request_id === generated) ? parsed : undefined;
    });
    const line = lines.find((l) => l.request_id === 'trace-abc.123');
    expect(line).toMatchObject({ level: 'info', msg: 'request', method: 'GET', route: '/api/credentials/:uid', status: 404, partner_id: client.partner_id });
    expect(typeof line.duration_ms).toBe('number');
    const tokenLine = lines.find((l) => l.route === '/realms/proofdesk/protocol/openid-connect/token');
    expect(tokenLine).toMatchObject({ method: 'POST', status: 200, partner_id: null });
    const log = serve.stderr();
    for (const secret of [client.client_secret, token, uid, querySecret]) expect(log).not.toContain(secret);
  });

  it('on SIGTERM finishes an upload still being sent (201), refuses new connections, and exits 0', async () => {
    const { body: tokenBody } = await requestToken(origin, client.client_id, client.client_secret);
    const content = Buffer.alloc(512 * 1024, 'proofdesk graceful shutdown ');
    const boundary = 'proofdesk-boundary-7f3a';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, content, tail]);
    const socket: Socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // Expect: 100-continue: the server's "100 Continue" says the request is in, before SIGTERM.
    socket.write(
      `POST /api/files HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${tokenBody.access_token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await waitFor('100 Continue', () => received.includes('100 Continue') || undefined);
    socket.write(body.subarray(0, 100_000));

    const said = serve.stderr().length;
    serve.child.kill('SIGTERM');
    await waitFor('the SIGTERM line', () => serve.stderr().slice(said).includes('SIGTERM') || undefined);
    expect(await connectionRefused(port)).toBe(true);
    expect(serve.child.exitCode).toBeNull();

    // The rest of the body; the socket stays open for the answer (a half-closed request is abandoned by Node's server).
    socket.write(body.subarray(100_000));
    const answer = await waitFor('the answer', () => {
      const start = received.indexOf('HTTP/1.1 2', 10);
      const bodyStart = start < 0 ? -1 : received.indexOf('\r\n\r\n', start);
      if (bodyStart < 0) return undefined;
      try {
        return { statusLine: received.slice(start, received.indexOf('\r\n', start)), json: JSON.parse(received.slice(bodyStart + 4)) as Json };
      } catch {
        return undefined;
      }
    });
    expect(answer.statusLine).toBe('HTTP/1.1 201 Created');
    expect(answer.json.result.file_hash).toBe(createHash('sha256').update(content).digest('hex'));
    // Answered during shutdown, the connection is not kept alive: the server ends it.
    await closed;

    const ended = await endedWithin(serve, 30_000);
    expect(ended.code).toBe(0);
  }, 60_000);
});

describe('/readyz when the engine cannot serve', () => {
  it('is 503 try_again_later naming the database once it does not answer, while /healthz stays 200', async () => {
    const api = await startApiFixture();
    try {
      expectResult(await api.raw('GET', `${api.server.authUrl}/readyz`, { token: null }), 200);
      await api.engine.close();
      const answer = await api.raw('GET', `${api.server.authUrl}/readyz`, { token: null });
      expectError(answer, 'try_again_later');
      expect(answer.body.error.message).toMatch(/^Not ready: The database does not answer: /);
      expectResult(await api.raw('GET', `${api.server.authUrl}/healthz`, { token: null }), 200);
    } finally {
      await api.close();
    }
  });

  it('is 503 try_again_later with the reason when no process runs the scheduler', async () => {
    const api = await startApiFixture({ scheduler: false });
    try {
      const answer = await api.raw('GET', `${api.server.authUrl}/readyz`, { token: null });
      expectError(answer, 'try_again_later');
      expect(answer.body.error.message).toBe('Not ready: No process runs the issuing scheduler for this data directory');
      expectResult(await api.raw('GET', `${api.server.authUrl}/healthz`, { token: null }), 200);
    } finally {
      await api.close();
    }
  });
});
