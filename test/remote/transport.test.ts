/**
 * The remote client against a tiny local server that misbehaves on purpose: tokens (cached,
 * renewed, one retry after a 401), retries with backoff only where repeating is harmless,
 * timeouts, the response size cap, redirects never followed, every error body mapped back to
 * its ServiceError, the query and path encoding, and multipart uploads that stream.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_IDS, ERROR_STATUS, isServiceError, type ServiceError } from '../../common/errors.js';
import { RemoteService, type RemoteServiceOptions } from '../../main/remote/index.js';
import { META, TOKEN_PATH, sendError, sendJson, sendResult, startTinyServer, withTokens, type Handler, type SeenRequest, type TinyServer } from './tiny-server.js';

const PAGE = { page: 1, total_pages: 0, per_page: 20, total_items: 0, items: [] };

async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(isServiceError(error), `expected a ServiceError, got ${String(error)}`).toBe(true);
    return error as ServiceError;
  }
  throw new Error('Expected the call to fail');
}

/** Parses a multipart/form-data body (test-side, small bodies only). */
function parseMultipart(req: SeenRequest): { name: string; filename?: string; data: Buffer }[] {
  const boundary = /boundary=(.+)$/.exec(String(req.headers['content-type']))![1]!;
  const parts: { name: string; filename?: string; data: Buffer }[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = req.body.indexOf(delimiter);
  for (;;) {
    const next = req.body.indexOf(delimiter, at + delimiter.length);
    if (next < 0) break;
    const chunk = req.body.subarray(at + delimiter.length + 2, next - 2);
    const split = chunk.indexOf('\r\n\r\n');
    const head = chunk.subarray(0, split).toString('utf8');
    const name = /name="([^"]*)"/.exec(head)![1]!;
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    parts.push({ name, ...(filename !== undefined ? { filename } : {}), data: chunk.subarray(split + 4) });
    at = next;
  }
  expect(req.body.subarray(at).toString()).toBe(`--${boundary}--\r\n`);
  return parts;
}

describe('remote client transport', () => {
  let server: TinyServer;
  const clients: RemoteService[] = [];
  const dirs: string[] = [];

  function client(options: Partial<RemoteServiceOptions> = {}): RemoteService {
    const c = new RemoteService({
      baseUrl: `${server.origin}/api`,
      authUrl: server.origin,
      realm: 'proofdesk',
      clientId: 'client',
      clientSecret: 'secret',
      retryBaseDelayMs: 5,
      ...options,
    });
    clients.push(c);
    return c;
  }

  function tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'proofdesk-remote-'));
    dirs.push(dir);
    return dir;
  }

  function api(handler: Handler, options?: Parameters<typeof withTokens>[1]): ReturnType<typeof withTokens> {
    const h = withTokens(handler, options);
    server.handle(h);
    return h;
  }

  beforeAll(async () => {
    server = await startTinyServer(() => undefined);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    server.requests.length = 0;
  });
  afterAll(async () => {
    await server.close();
  });

  describe('tokens', () => {
    it('one token serves many calls, also concurrent ones; it goes in the Authorization header and the form as the spec says', async () => {
      const h = api((_req, res) => sendResult(res, PAGE));
      const c = client();
      await Promise.all(Array.from({ length: 10 }, () => c.listCredentials()));
      for (let i = 0; i < 5; i++) await c.listJobs();
      expect(server.seen(TOKEN_PATH)).toHaveLength(1);
      expect(server.seen('/api/')).toHaveLength(15);
      const tokenRequest = server.seen(TOKEN_PATH)[0]!;
      expect(tokenRequest.method).toBe('POST');
      expect(tokenRequest.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(Object.fromEntries(new URLSearchParams(tokenRequest.body.toString()))).toEqual({ grant_type: 'client_credentials', client_id: 'client', client_secret: 'secret' });
      for (const r of server.seen('/api/')) expect(r.headers.authorization).toBe(`Bearer ${h.issued[0]}`);
    });

    it('a token is renewed before it expires (the margin is at most half its lifetime)', async () => {
      const h = api((_req, res) => sendResult(res, PAGE), { expiresIn: 1 });
      const c = client();
      await c.listFiles();
      await c.listFiles();
      expect(server.seen(TOKEN_PATH)).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 600));
      await c.listFiles();
      expect(server.seen(TOKEN_PATH)).toHaveLength(2);
      expect(server.seen('/api/').at(-1)!.headers.authorization).toBe(`Bearer ${h.issued[1]}`);
    });

    it('a 401 is retried once with a fresh token (the service restarted and forgot the old one)', async () => {
      const revoked = new Set<string>();
      const h = api((_req, res) => sendResult(res, PAGE), { valid: (t) => !revoked.has(t) });
      const c = client();
      await c.listFiles();
      revoked.add(h.issued[0]!);
      expect(await c.listFiles()).toEqual(PAGE);
      expect(server.seen(TOKEN_PATH)).toHaveLength(2);
      expect(server.seen('/api/files').map((r) => r.headers.authorization)).toEqual([`Bearer ${h.issued[0]}`, `Bearer ${h.issued[0]}`, `Bearer ${h.issued[1]}`]);
      // A POST with a body is replayed too.
      revoked.add(h.issued[1]!);
      await c.createCredential({ title: 'T', metadata: { a: 1 } });
      const posts = server.seen('/api/credentials');
      expect(posts).toHaveLength(2);
      expect(JSON.parse(posts[1]!.body.toString())).toEqual({ title: 'T', metadata: { a: 1 } });
    });

    it('a second 401 in a row is unauthorized (401), not a loop', async () => {
      api((_req, res) => sendError(res, 401, 'unauthorized', 'Token not accepted', { 'www-authenticate': 'Bearer' }));
      const e = await failureOf(client().getJob(randomUUID()));
      expect({ id: e.id, status: e.status }).toEqual({ id: 'unauthorized', status: 401 });
      expect(server.seen('/api/')).toHaveLength(2);
      expect(server.seen(TOKEN_PATH)).toHaveLength(2);
    });

    it('a wrong secret is unauthorized (401) with the OAuth reason, and no API call is made', async () => {
      api((_req, res) => sendResult(res, PAGE));
      const e = await failureOf(client({ clientSecret: 'wrong' }).listFiles());
      expect({ id: e.id, status: e.status }).toEqual({ id: 'unauthorized', status: 401 });
      expect(e.message).toContain('invalid_client');
      expect(e.message).not.toContain('wrong');
      expect(server.seen('/api/')).toHaveLength(0);
    });

    it('the realm goes into the token path', async () => {
      api((_req, res) => sendResult(res, PAGE));
      const e = await failureOf(client({ realm: 'other realm' }).listFiles());
      expect(server.requests[0]!.url).toBe('/realms/other%20realm/protocol/openid-connect/token');
      expect(e.id).toBe('unauthorized');
    });
  });

  describe('retries', () => {
    it('a GET answered try_again_later is retried with backoff and then succeeds', async () => {
      let n = 0;
      api((_req, res) => (++n < 3 ? sendError(res, 503, 'try_again_later', 'Busy') : sendResult(res, PAGE)));
      expect(await client().listCredentials()).toEqual(PAGE);
      expect(server.seen('/api/')).toHaveLength(3);
    });

    it('a GET gives up after three tries with the last error', async () => {
      api((_req, res) => sendError(res, 503, 'try_again_later', 'Still busy'));
      const e = await failureOf(client().listCredentials());
      expect({ id: e.id, status: e.status, message: e.message }).toEqual({ id: 'try_again_later', status: 503, message: 'Still busy' });
      expect(server.seen('/api/')).toHaveLength(3);
    });

    it('a Retry-After header is honoured (up to the cap)', async () => {
      let n = 0;
      api((_req, res) => (++n < 2 ? sendError(res, 503, 'try_again_later', 'Busy', { 'retry-after': '1' }) : sendResult(res, PAGE)));
      const started = Date.now();
      await client().listCredentials();
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    });

    it('a POST answered try_again_later is retried (the service did nothing), with the same body', async () => {
      let n = 0;
      const job = { uid: randomUUID(), status: 'started' };
      api((_req, res) => (++n < 2 ? sendError(res, 503, 'try_again_later', 'Issuing already') : sendResult(res, job, 201)));
      expect(await client().issueJobNow({ engine: 'local' })).toEqual(job);
      const posts = server.seen('/api/jobs/immediate');
      expect(posts.map((p) => JSON.parse(p.body.toString()))).toEqual([{ engine: 'local' }, { engine: 'local' }]);
    });

    it('a POST that failed otherwise is never repeated: 500, 502, a dropped connection', async () => {
      api((_req, res) => sendError(res, 500, 'internal_error', 'Boom'));
      expect((await failureOf(client().createCredential({ title: 'X', metadata: { a: 1 } }))).id).toBe('internal_error');
      api((_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>Bad gateway</html>');
      });
      expect((await failureOf(client().scheduleCredentials({ engine: 'local', credentials: [randomUUID()] }))).id).toBe('internal_error');
      api((_req, res) => {
        res.socket?.destroy();
      });
      const dropped = await failureOf(client().revokeCertificate(randomUUID()));
      expect(dropped.id).toBe('try_again_later');
      expect(server.seen('/api/')).toHaveLength(3);
    });

    it('a bare 503 (a proxy\'s page) is retried for a GET, never for a POST', async () => {
      api((_req, res) => {
        res.writeHead(503, { 'content-type': 'text/html' });
        res.end('<html>Service Unavailable</html>');
      });
      expect((await failureOf(client().listJobs())).id).toBe('try_again_later');
      expect(server.seen('/api/jobs')).toHaveLength(3);
      expect((await failureOf(client().issueJobNow({ engine: 'local' }))).id).toBe('try_again_later');
      expect(server.seen('/api/jobs/immediate')).toHaveLength(1);
    });

    it('insufficient_funds (503 too) is not retried', async () => {
      api((_req, res) => sendError(res, 503, 'insufficient_funds', 'Fund the account'));
      const e = await failureOf(client().listJobs());
      expect(e.id).toBe('insufficient_funds');
      expect(server.seen('/api/')).toHaveLength(1);
    });

    it('a GET through a failing gateway (502 HTML) is retried, then internal_error naming the status', async () => {
      api((_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html><body>Bad gateway</body></html>');
      });
      const e = await failureOf(client().getJob(randomUUID()));
      expect({ id: e.id, status: e.status }).toEqual({ id: 'internal_error', status: 500 });
      expect(e.message).toContain('HTTP 502');
      expect(e.message).toContain('Bad gateway');
      expect(server.seen('/api/')).toHaveLength(3);
    });

    it('a dropped connection on a GET is retried', async () => {
      let n = 0;
      api((_req, res) => {
        if (++n < 3) res.socket?.destroy();
        else sendResult(res, PAGE);
      });
      expect(await client().listFiles()).toEqual(PAGE);
      expect(server.seen('/api/')).toHaveLength(3);
    });
  });

  describe('errors', () => {
    it('every id of the table comes back as the same ServiceError id, status and message', async () => {
      const c = client({ tries: 1 });
      for (const id of ERROR_IDS) {
        api((_req, res) => sendError(res, ERROR_STATUS[id], id, `The ${id} message`, id === 'unauthorized' ? { 'www-authenticate': 'Bearer' } : {}));
        const e = await failureOf(c.createCredential({ title: 'X', metadata: { a: 1 } }));
        expect({ id: e.id, status: e.status, message: e.message }).toEqual({ id, status: ERROR_STATUS[id], message: `The ${id} message` });
      }
    });

    it('an unknown id, or no body, is mapped by status: internal_error unless the status has an id', async () => {
      const c = client({ tries: 1 });
      api((_req, res) => sendJson(res, 418, { error: { id: 'teapot', message: 'Short and stout' } }));
      const teapot = await failureOf(c.listFiles());
      expect({ id: teapot.id, status: teapot.status }).toEqual({ id: 'internal_error', status: 500 });
      expect(teapot.message).toContain('HTTP 418');
      api((_req, res) => {
        res.writeHead(413);
        res.end();
      });
      expect((await failureOf(c.uploadFile({ file: { data: new Uint8Array([1, 2, 3]) } }))).id).toBe('payload_too_large');
      api((_req, res) => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('Not here');
      });
      const missing = await failureOf(c.listFiles());
      expect({ id: missing.id, status: missing.status }).toEqual({ id: 'not_found', status: 404 });
    });

    it('a success that is not the envelope is internal_error', async () => {
      const c = client({ tries: 1 });
      api((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>login page</html>');
      });
      expect((await failureOf(c.listFiles())).id).toBe('internal_error');
      api((_req, res) => sendJson(res, 200, { items: [] }));
      expect((await failureOf(c.listFiles())).message).toContain('envelope');
    });

    it('"no content" answers ({result: null}) resolve to nothing', async () => {
      api((_req, res) => sendResult(res, null));
      await expect(client().addCredentialTags({ credentials: [{ credential_uid: randomUUID(), tags: ['abc'] }] })).resolves.toBeUndefined();
      api((_req, res) => {
        res.writeHead(204);
        res.end();
      });
      await expect(client().deleteCredentialTag(randomUUID(), 'abc')).resolves.toBeUndefined();
    });

    it('a service that cannot be reached is try_again_later (503) saying so, after the retries of a GET', async () => {
      const gone = await startTinyServer(() => undefined);
      const origin = gone.origin;
      await gone.close();
      const c = new RemoteService({ baseUrl: `${origin}/api`, authUrl: origin, realm: 'proofdesk', clientId: 'client', clientSecret: 'secret', retryBaseDelayMs: 5 });
      clients.push(c);
      const e = await failureOf(c.listFiles());
      expect({ id: e.id, status: e.status }).toEqual({ id: 'try_again_later', status: 503 });
      expect(e.message).toMatch(/cannot be reached.*ECONNREFUSED/);
    });
  });

  describe('timeouts and the size cap', () => {
    it('no headers within the timeout: try_again_later, and a GET is tried three times', async () => {
      api(() => undefined);
      const e = await failureOf(client({ timeoutMs: 150 }).listFiles());
      expect({ id: e.id, status: e.status }).toEqual({ id: 'try_again_later', status: 503 });
      expect(e.message).toContain('did not answer within 150 ms');
      expect(server.seen('/api/')).toHaveLength(3);
    });

    it('a body that stalls half way: try_again_later', async () => {
      api((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"result": {"page": 1, ');
      });
      const e = await failureOf(client({ timeoutMs: 150, tries: 1 }).listFiles());
      expect(e.id).toBe('try_again_later');
      expect(e.message).toContain('UND_ERR_BODY_TIMEOUT');
    });

    it('a POST that times out is not repeated', async () => {
      api(() => undefined);
      expect((await failureOf(client({ timeoutMs: 150 }).createCredential({ title: 'X', metadata: { a: 1 } }))).id).toBe('try_again_later');
      expect(server.seen('/api/')).toHaveLength(1);
    });

    it('an answer over the size cap is refused, with or without a content-length', async () => {
      const big = { result: { ...PAGE, items: Array.from({ length: 200 }, (_, i) => ({ file_hash: String(i).padStart(64, '0') })) }, meta: META };
      api((_req, res) => sendJson(res, 200, big));
      const c = client({ maxResponseBytes: 4096, tries: 1 });
      const e = await failureOf(c.listFiles());
      expect(e.id).toBe('internal_error');
      expect(e.message).toContain('larger than 4096 bytes');
      api((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(big));
      });
      expect((await failureOf(c.listFiles())).message).toContain('larger than 4096 bytes');
      // Within the cap it is fine.
      expect((await client({ maxResponseBytes: 1 << 20 }).listFiles()).items).toHaveLength(200);
    });
  });

  describe('redirects', () => {
    it('are never followed: neither to another host nor on the same one', async () => {
      const elsewhere = await startTinyServer((_req, res) => sendResult(res, PAGE));
      try {
        api((_req, res) => {
          res.writeHead(302, { location: `${elsewhere.origin}/api/files` });
          res.end();
        });
        const e = await failureOf(client().listFiles());
        expect(e.id).toBe('internal_error');
        expect(e.message).toContain(`redirect (HTTP 302 to ${elsewhere.origin}/api/files)`);
        expect(elsewhere.requests).toHaveLength(0);
        api((_req, res) => {
          res.writeHead(307, { location: '/api/elsewhere' });
          res.end();
        });
        expect((await failureOf(client().createCredential({ title: 'X', metadata: { a: 1 } }))).message).toContain('redirects are not followed');
        expect(server.seen('/api/elsewhere')).toHaveLength(0);
      } finally {
        await elsewhere.close();
      }
    });

    it('a token endpoint that redirects is refused too', async () => {
      server.handle((_req, res) => {
        res.writeHead(301, { location: 'http://127.0.0.1:9/steal' });
        res.end();
      });
      const e = await failureOf(client({ tries: 1 }).listFiles());
      expect(e.id).toBe('internal_error');
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('requests on the wire', () => {
    it('query parameters carry the spec names; tag lists are comma-joined; absent values are left out', async () => {
      api((_req, res) => sendResult(res, PAGE));
      const c = client();
      await c.listCredentials({ and_tags: ['alpha', 'beta'], or_tags: 'gamma,delta', per_page: 0, page: 2, upload_date_from: '2026-01-01T00:00:00+02:00', uid: undefined, sort_by: 'title', order: 'desc' });
      await c.listCertificates({ and_credential_tags: ['a1a', 'b2b'], or_job_tags: ['c3c'], verification_status: 'ok', issued_date_until: '2026-12-31' });
      await c.listJobs({ status: 'scheduled', start_date_from: '2026-01-01', created_date_until: '2026-02-01', uid: 'x' });
      await c.listJobCredentials('job-1', { or_tags: ['one', 'two'] });
      await c.verifyCredential('cred-1', { per_page: '5' });
      await c.listFiles({ per_page: ['1', '2'] as never, page: null as never });
      const urls = server.seen('/api/').map((r) => decodeURIComponent(r.url));
      expect(urls).toEqual([
        '/api/credentials?and_tags=alpha,beta&or_tags=gamma,delta&per_page=0&page=2&upload_date_from=2026-01-01T00:00:00+02:00&sort_by=title&order=desc',
        '/api/certificates?and_credential_tags=a1a,b2b&or_job_tags=c3c&verification_status=ok&issued_date_until=2026-12-31',
        '/api/jobs?status=scheduled&start_date_from=2026-01-01&created_date_until=2026-02-01&uid=x',
        '/api/jobs/job-1/credentials?or_tags=one,two',
        '/api/verify/credential/cred-1?per_page=5',
        // Not a tag list: an array is sent repeated (the service refuses it); null is absent.
        '/api/files?per_page=1&per_page=2',
      ]);
      // The + of the offset is escaped, so the server does not read a space.
      expect(server.seen('/api/credentials')[0]!.url).toContain('upload_date_from=2026-01-01T00%3A00%3A00%2B02%3A00');
    });

    it('every method goes to the spec path with the spec verb', async () => {
      api((req, res) => sendResult(res, req.method === 'GET' && req.url.endsWith('/download') ? { format: 'x' } : null));
      const c = client();
      const uid = randomUUID();
      await c.getFile('ab'.repeat(32));
      await c.getCredential(uid);
      await c.replaceCredentialTags({ credentials: [] });
      await c.deleteCredentialTag(uid, 'old-tag');
      await c.scheduleCredentials({ engine: 'local', credentials: [uid] });
      await c.unscheduleCredential(uid, 'local');
      await c.revokeCredential(uid, 'local');
      await c.getJob(uid);
      await c.addJobTags({ jobs: [] });
      await c.replaceJobTags({ jobs: [] });
      await c.listJobCertificates(uid);
      await c.revokeCertificate(uid);
      await c.verifyCertificate(uid);
      await c.listEngines();
      expect(server.seen('/api/').map((r) => `${r.method} ${r.url}`)).toEqual([
        `GET /api/files/${'ab'.repeat(32)}`,
        `GET /api/credentials/${uid}`,
        'PUT /api/credentials',
        `PATCH /api/credentials/${uid}/delete_tag?tag=old-tag`,
        'POST /api/credentials/schedule',
        `DELETE /api/credentials/${uid}/unschedule/local`,
        `POST /api/credentials/${uid}/revoke/local`,
        `GET /api/jobs/${uid}`,
        'PATCH /api/jobs',
        'PUT /api/jobs',
        `GET /api/jobs/${uid}/certificates`,
        `POST /api/certificates/${uid}/revoke`,
        `GET /api/verify/${uid}`,
        'GET /api/engines',
      ]);
      for (const r of server.seen('/api/').filter((r) => ['PUT', 'PATCH'].includes(r.method) && !r.url.includes('delete_tag'))) {
        expect(r.headers['content-type']).toBe('application/json');
      }
    });

    it('path identifiers are escaped; "." and ".." stay one segment; an empty one is the endpoint\'s missing id without a request', async () => {
      api((req, res) => sendError(res, 404, req.url.includes('/jobs/') ? 'missing_job' : 'missing_credential', 'No such thing'));
      const c = client();
      expect((await failureOf(c.getCredential('a/b?c#d'))).id).toBe('missing_credential');
      expect((await failureOf(c.getCredential('..'))).id).toBe('missing_credential');
      expect((await failureOf(c.getJob('.'))).id).toBe('missing_job');
      expect(server.seen('/api/').map((r) => r.url)).toEqual(['/api/credentials/a%2Fb%3Fc%23d', '/api/credentials/%2E%2E', '/api/jobs/%2E']);
      server.requests.length = 0;
      expect((await failureOf(c.getCredential(''))).id).toBe('missing_credential');
      expect((await failureOf(c.getFile(''))).id).toBe('missing_file');
      expect((await failureOf(c.unscheduleCredential(randomUUID(), ''))).id).toBe('wrong_blockchain_engine');
      expect((await failureOf(c.downloadCertificate(''))).id).toBe('missing_certificate');
      expect(server.seen('/api/')).toHaveLength(0);
    });

    it('bodies that are not objects still go as JSON (the service answers no_json); no request is an empty POST', async () => {
      api((_req, res) => sendError(res, 415, 'no_json', 'Expected a JSON object'));
      const c = client();
      for (const body of [null, 'title=X', [1]]) expect((await failureOf(c.createCredential(body as never))).id).toBe('no_json');
      expect((await failureOf(c.createAndScheduleCredential('local', undefined as never))).id).toBe('no_json');
      expect(server.seen('/api/').map((r) => r.body.toString())).toEqual(['null', '"title=X"', '[1]', '']);
      expect(server.seen('/api/').at(-1)!.headers['content-type']).toBeUndefined();
    });

    it('a body that is not plain JSON (BigInt, a cycle) is invalid_value, and nothing is sent', async () => {
      api((_req, res) => sendResult(res, null));
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      expect((await failureOf(client().createCredential({ title: 'X', metadata: { n: 1n } as never }))).id).toBe('invalid_value');
      expect((await failureOf(client().createCredential({ title: 'X', metadata: cyclic }))).id).toBe('invalid_value');
      expect(server.seen('/api/')).toHaveLength(0);
    });

    it('plain http to another host is refused; credentials in the URL too', () => {
      const base = { realm: 'proofdesk', clientId: 'client', clientSecret: 'secret' };
      expect(() => new RemoteService({ ...base, baseUrl: 'http://issuer.example/api', authUrl: 'https://auth.example' })).toThrow(/in clear/);
      expect(() => new RemoteService({ ...base, baseUrl: 'https://issuer.example/api', authUrl: 'http://auth.example' })).toThrow(/in clear/);
      expect(() => new RemoteService({ ...base, baseUrl: 'https://u:p@issuer.example/api', authUrl: 'https://auth.example' })).toThrow(/credentials/);
      expect(() => new RemoteService({ ...base, baseUrl: 'ftp://issuer.example', authUrl: 'https://auth.example' })).toThrow(/http/);
      const ok = new RemoteService({ ...base, baseUrl: 'https://issuer.example/api/', authUrl: 'http://localhost:8080' });
      clients.push(ok);
    });
  });

  describe('uploads', () => {
    it('a file from disk goes as multipart with its name and a content-length; fields come first', async () => {
      api((_req, res) => sendResult(res, { file_hash: 'x' }, 201));
      const dir = tempDir();
      const bytes = Buffer.from(`diploma ${randomUUID()}`);
      const path = join(dir, 'diploma "final".pdf');
      writeFileSync(path, bytes);
      await client().uploadFile({ file: { path }, ignore_duplicated: true });
      const req = server.seen('/api/files')[0]!;
      expect(req.method).toBe('POST');
      expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(Number(req.headers['content-length'])).toBe(req.body.length);
      expect(parseMultipart(req)).toEqual([
        { name: 'ignore_duplicated', data: Buffer.from('true') },
        { name: 'file', filename: 'diploma %22final%22.pdf', data: bytes },
      ]);
    });

    it('bytes and async streams go too; a stream of unknown length is sent chunked', async () => {
      api((_req, res) => sendResult(res, { uid: randomUUID() }, 201));
      const c = client();
      async function* stream(): AsyncGenerator<Uint8Array> {
        yield new TextEncoder().encode('part one, ');
        yield new TextEncoder().encode('part two');
      }
      await c.createAndScheduleCredential('sepolia', { file: { data: stream(), name: 'notes.txt' }, credential_details: { title: 'T', metadata: {}, ignore_duplicate: 'true' } });
      await c.uploadFile({ file: { data: new Uint8Array([0, 1, 2, 255]) } });
      await c.createAndScheduleCredential('local', { credential_details: '{"title": "Text", "metadata": {"a": 1}}' });
      const [scheduled, uploaded, textOnly] = server.seen('/api/');
      expect(scheduled!.url).toBe('/api/credentials/schedule/sepolia');
      expect(scheduled!.headers['transfer-encoding']).toBe('chunked');
      expect(parseMultipart(scheduled!)).toEqual([
        { name: 'credential_details', data: Buffer.from(JSON.stringify({ title: 'T', metadata: {}, ignore_duplicate: 'true' })) },
        { name: 'file', filename: 'notes.txt', data: Buffer.from('part one, part two') },
      ]);
      expect(parseMultipart(uploaded!)).toEqual([{ name: 'file', filename: 'upload', data: Buffer.from([0, 1, 2, 255]) }]);
      expect(parseMultipart(textOnly!)).toEqual([{ name: 'credential_details', data: Buffer.from('{"title": "Text", "metadata": {"a": 1}}') }]);
    });

    it('no file is a form without a file part (the service answers no_file_on_payload); an unreadable source fails here', async () => {
      api((_req, res) => sendError(res, 400, 'no_file_on_payload', 'No file in the request'));
      const c = client();
      expect((await failureOf(c.uploadFile({}))).id).toBe('no_file_on_payload');
      expect((await failureOf(c.verifyProofFile(undefined))).id).toBe('no_file_on_payload');
      expect(parseMultipart(server.seen('/api/files')[0]!)).toEqual([]);
      server.requests.length = 0;
      const missing = await failureOf(c.uploadFile({ file: { path: join(tmpdir(), `missing-${randomUUID()}`) } }));
      expect({ id: missing.id, message: missing.message }).toEqual({ id: 'no_file_on_payload', message: expect.stringContaining('No file at') });
      expect((await failureOf(c.verifyOriginalFile({ path: tmpdir() }))).id).toBe('no_file_on_payload');
      expect((await failureOf(c.uploadFile({ file: { data: null } as never }))).id).toBe('no_file_on_payload');
      expect(server.seen('/api/')).toHaveLength(0);
    });

    it('a streamed upload is not replayed after a 401: it fails unauthorized', async () => {
      const revoked = new Set<string>();
      const h = api((_req, res) => sendResult(res, { file_hash: 'x' }, 201), { valid: (t) => !revoked.has(t) });
      const c = client();
      await c.listFiles();
      revoked.add(h.issued[0]!);
      async function* stream(): AsyncGenerator<Uint8Array> {
        yield new Uint8Array([1, 2, 3]);
      }
      expect((await failureOf(c.uploadFile({ file: { data: stream() } }))).id).toBe('unauthorized');
      // The next call gets a new token and works.
      await c.uploadFile({ file: { data: new Uint8Array([1, 2, 3]) } });
      expect(server.seen(TOKEN_PATH)).toHaveLength(2);
    });

    it('a 256 MiB file streams from disk: memory stays flat', async () => {
      const big = await startTinyServer(
        withTokens((req, res) => sendResult(res, { size: req.size }, 201)),
        { keepBodies: false },
      );
      try {
        const dir = tempDir();
        const path = join(dir, 'big.bin');
        writeFileSync(path, '');
        truncateSync(path, 256 * 1024 * 1024);
        const c = new RemoteService({ baseUrl: `${big.origin}/api`, authUrl: big.origin, realm: 'proofdesk', clientId: 'client', clientSecret: 'secret' });
        clients.push(c);
        global.gc?.();
        const before = process.memoryUsage();
        let peak = 0;
        const sampler = setInterval(() => {
          const now = process.memoryUsage();
          peak = Math.max(peak, now.rss - before.rss);
        }, 20);
        const answer = (await c.uploadFile({ file: { path } })) as unknown as { size: number };
        clearInterval(sampler);
        expect(answer.size).toBeGreaterThan(256 * 1024 * 1024);
        expect(peak).toBeLessThan(96 * 1024 * 1024);
      } finally {
        await big.close();
      }
    });
  });

  describe('downloads', () => {
    const proof = { format: 'proofdesk-proof-v1', certificate: { uid: 'c' }, leaf: 'ab' };

    it('the proof text comes back byte for byte; a download that is not JSON is internal_error', async () => {
      const text = `${JSON.stringify(proof, null, 2)}\n`;
      api((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-disposition': 'attachment; filename="c.json"' });
        res.end(text);
      });
      const c = client();
      expect(await c.downloadCertificate('c')).toBe(text);
      api((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>Sign in</html>');
      });
      expect((await failureOf(c.downloadCertificate('c'))).message).toContain('not a JSON proof file');
      expect((await failureOf(c.downloadCertificateTo('c', join(tempDir(), 'x.json')))).message).toContain('not a JSON proof file');
    });

    it('downloadCertificateTo streams to the file; a failed download leaves nothing behind', async () => {
      const text = `${JSON.stringify(proof, null, 2)}\n`;
      api((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(text);
      });
      const dir = tempDir();
      const target = join(dir, 'proof.json');
      expect(await client().downloadCertificateTo('c', target)).toBe(Buffer.byteLength(text));
      expect(readFileSync(target, 'utf8')).toBe(text);
      api((_req, res) => sendError(res, 404, 'missing_certificate', 'No certificate'));
      const other = join(dir, 'other.json');
      expect((await failureOf(client().downloadCertificateTo('d', other))).id).toBe('missing_certificate');
      api((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('x'.repeat(10_000));
      });
      expect((await failureOf(client({ maxResponseBytes: 1000 }).downloadCertificateTo('d', other))).message).toContain('larger than 1000');
      expect(existsSync(other)).toBe(false);
      expect(readdirSync(dir)).toEqual(['proof.json']);
      expect(createHash('sha256').update(readFileSync(target)).digest('hex')).toBe(createHash('sha256').update(text).digest('hex'));
    });
  });
});
