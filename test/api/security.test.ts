/**
 * The security list over HTTP: Partner B's token on every one of Partner A's objects and
 * operations is answered exactly as if the object did not exist, and changes nothing; broken
 * bodies, wrong content types, oversized bodies, unknown fields, prototype keys, path
 * traversal in names and paths, garbage in every query parameter, and foreign Host headers
 * each get a 4xx with a spec id — never a 5xx — and the server keeps serving.
 */
import { createConnection } from 'node:net';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorId } from '../../common/errors.js';
import type { Certificate, Credential, FileRecord, Job, Page } from '../../common/wire-types.js';
import { certificateRoutes } from '../../main/api/routes/certificates.js';
import { credentialRoutes } from '../../main/api/routes/credentials.js';
import { fileRoutes } from '../../main/api/routes/files.js';
import { jobRoutes } from '../../main/api/routes/jobs.js';
import type { RouteSchema } from '../../main/api/routes/route.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectError, expectNoContent, expectResult, formOf, startApiFixture, type Answer, type ApiFixture, type CallOptions } from './api-fixture.js';

const ORIGINAL = 'Original diploma of Partner A';
const UNKNOWN_UUID = '01a20000-0000-7000-8000-000000000000';
const UNKNOWN_HASH = 'f'.repeat(64);

/** Asserts a 4xx answer carrying an id of the error table (never a 5xx). */
function expectClientError(answer: Answer, what: string): void {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  expect(isErrorId(answer.body?.error?.id), `${what}: ${answer.text.slice(0, 300)}`).toBe(true);
}

/** Asserts a 2xx envelope or a 4xx spec error. */
function expectHandled(answer: Answer, what: string): void {
  if (answer.status < 300) expect(Object.keys(answer.body ?? {}).sort(), what).toEqual(['meta', 'result']);
  else expectClientError(answer, what);
}

describe('the API under attack', () => {
  let api: ApiFixture;
  let file: FileRecord;
  let credential: Credential;
  let scheduled: Credential;
  let issuedJob: Job;
  let openJob: Job;
  let certificate: Certificate;
  let proof: string;

  /** Everything Partner A can see, to compare before and after B's attempts. */
  async function stateOfA(): Promise<unknown> {
    const read = async (path: string) => expectResult(await api.call('GET', path), 200);
    return {
      files: await read('/files?per_page=0'),
      credentials: await read('/credentials?per_page=0'),
      jobs: await read('/jobs?per_page=0'),
      certificates: await read('/certificates?per_page=0'),
    };
  }

  beforeAll(async () => {
    api = await startApiFixture();
    file = expectResult(await api.call('POST', '/files', { body: formOf([], { data: ORIGINAL, name: 'original.txt' }) }), 201);
    credential = expectResult(await api.call('POST', '/credentials', { json: { title: 'Issued', metadata: { a: 1 }, files: [file.file_hash], tags: ['secret-tag'] } }), 201);
    issuedJob = expectResult(await api.call('POST', '/credentials/schedule', { json: { engine: 'local', credentials: [credential.uid] } }), 201);
    expectResult(await api.call('POST', '/jobs/immediate', { json: { engine: 'local' } }), 201);
    for (let i = 0; i < 300; i++) {
      if (expectResult<Job>(await api.call('GET', `/jobs/${issuedJob.uid}`), 200).status === 'finished') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expectNoContent(await api.call('PATCH', '/jobs', { json: { jobs: [{ job_uid: issuedJob.uid, tags: ['job-tag'] }] } }));
    certificate = expectResult<Page<Certificate>>(await api.call('GET', `/jobs/${issuedJob.uid}/certificates`), 200).items[0]!;
    proof = (await api.call('GET', `/certificates/${certificate.certificate.uid}/download`)).text;
    scheduled = expectResult(await api.call('POST', '/credentials', { json: { title: 'Scheduled', metadata: { b: 2 }, tags: ['other-tag'] } }), 201);
    openJob = expectResult(await api.call('POST', '/credentials/schedule', { json: { engine: 'local', credentials: [scheduled.uid] } }), 201);
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it("answers Partner B on Partner A's objects exactly as on missing ones, and changes nothing", async () => {
    const before = await stateOfA();
    const b = { token: api.b.token };
    const certUid = certificate.certificate.uid;
    type Attempt = [string, string, string, CallOptions?, CallOptions?];
    /** [what, method, path for A's object, options, same call for a missing object] (path and options get `ID` replaced). */
    const attempts: Attempt[] = [
      ['read a file', 'GET', `/files/${file.file_hash}`],
      ['read a credential', 'GET', `/credentials/${credential.uid}`],
      ['add tags', 'PATCH', '/credentials', { json: { credentials: [{ credential_uid: credential.uid, tags: ['mine'] }] } }],
      ['replace tags', 'PUT', '/credentials', { json: { credentials: [{ credential_uid: credential.uid, tags: ['mine'] }] } }],
      ['delete a tag', 'PATCH', `/credentials/${credential.uid}/delete_tag?tag=secret-tag`],
      ['schedule', 'POST', '/credentials/schedule', { json: { engine: 'local', credentials: [credential.uid] } }],
      ['unschedule', 'DELETE', `/credentials/${scheduled.uid}/unschedule/local`],
      ['revoke by credential', 'POST', `/credentials/${credential.uid}/revoke/local`],
      ['link a credential', 'POST', '/credentials', { json: { title: 'Steal', metadata: { x: 1 }, credentials: [credential.uid] } }],
      ['use a file', 'POST', '/credentials', { json: { title: 'Steal', metadata: { x: 1 }, files: [file.file_hash] } }],
      ['read a job', 'GET', `/jobs/${issuedJob.uid}`],
      ['tag a job', 'PATCH', '/jobs', { json: { jobs: [{ job_uid: issuedJob.uid, tags: ['mine'] }] } }],
      ['retag a job', 'PUT', '/jobs', { json: { jobs: [{ job_uid: openJob.uid, tags: ['mine'] }] } }],
      ["list a job's credentials", 'GET', `/jobs/${issuedJob.uid}/credentials`],
      ["list a job's certificates", 'GET', `/jobs/${issuedJob.uid}/certificates`],
      ['download a proof', 'GET', `/certificates/${certUid}/download`],
      ['revoke a certificate', 'POST', `/certificates/${certUid}/revoke`],
      ['verify a certificate', 'GET', `/verify/${certUid}`],
      ['verify a credential', 'GET', `/verify/credential/${credential.uid}`],
    ];
    const ids = [file.file_hash, credential.uid, scheduled.uid, issuedJob.uid, openJob.uid, certUid];
    const missing = (text: string) => ids.reduce((t, id) => t.split(id).join(id.length === 64 ? UNKNOWN_HASH : UNKNOWN_UUID), text);
    const normal = (answer: Answer) => ({ status: answer.status, id: answer.body?.error?.id, message: missing(String(answer.body?.error?.message)) });
    for (const [what, method, path, options] of attempts) {
      const asB = await api.call(method, path, { ...options, ...b });
      expectClientError(asB, what);
      const missingOptions = options?.json === undefined ? options : { json: JSON.parse(missing(JSON.stringify(options.json))) };
      const onMissing = await api.call(method, missing(path), { ...missingOptions, ...b });
      expect(normal(asB), what).toEqual(normal(onMissing));
    }

    // Filters naming A's objects find nothing for B.
    for (const query of [`uid=${credential.uid}`, 'and_tags=secret-tag', `upload_date_from=2000-01-01`]) {
      expect(expectResult<Page<Credential>>(await api.call('GET', `/credentials?${query}`, b), 200).total_items).toBe(0);
    }
    expect(expectResult<Page<FileRecord>>(await api.call('GET', `/files?file_hash=${file.file_hash}`, b), 200).total_items).toBe(0);
    expect(expectResult<Page<Job>>(await api.call('GET', `/jobs?uid=${credential.uid}`, b), 200).total_items).toBe(0);
    for (const query of [`uid=${certUid}`, `job_uid=${issuedJob.uid}`, `credential_uid=${credential.uid}`, 'and_job_tags=job-tag', 'or_credential_tags=secret-tag']) {
      expect(expectResult<Page<Certificate>>(await api.call('GET', `/certificates?${query}`, b), 200).total_items).toBe(0);
    }

    // Uploads: A's proof file and A's original file are nothing B can verify.
    expectError(await api.call('POST', '/verify/upload/certificate', { ...b, body: formOf([], { data: proof, name: 'a.proof.json' }) }), 'missing_certificate');
    expectError(await api.call('POST', '/verify/upload/file', { ...b, body: formOf([], { data: ORIGINAL }) }), 'missing_certificate');
    // B's immediate issuing finds no job of B's, and leaves A's open job alone.
    expectError(await api.call('POST', '/jobs/immediate', { ...b, json: { engine: 'local' } }), 'missing_job');

    expect(await stateOfA()).toEqual(before);
    expect(expectResult<Job>(await api.call('GET', `/jobs/${openJob.uid}`), 200).status).toBe('scheduled');
  });

  const JSON_ENDPOINTS: [string, string, unknown][] = [
    ['POST', '/credentials', { title: 'T', metadata: { a: 1 } }],
    ['PATCH', '/credentials', { credentials: [] }],
    ['PUT', '/credentials', { credentials: [] }],
    ['POST', '/credentials/schedule', { engine: 'local', credentials: [] }],
    ['PATCH', '/jobs', { jobs: [] }],
    ['PUT', '/jobs', { jobs: [] }],
    ['POST', '/jobs/immediate', { engine: 'local' }],
  ];

  it('refuses broken bodies on every JSON endpoint with the spec ids', async () => {
    const json = { 'content-type': 'application/json' };
    for (const [method, path, good] of JSON_ENDPOINTS) {
      const at = `${method} ${path}`;
      expectError(await api.call(method, path, { headers: json, body: '{"title": "x", ' }), 'no_json');
      expectError(await api.call(method, path, { headers: json, body: '' }), 'no_json');
      expectError(await api.call(method, path), 'no_json');
      expectError(await api.call(method, path, { headers: json, body: '[1, 2]' }), 'no_json');
      expectError(await api.call(method, path, { headers: json, body: '"text"' }), 'no_json');
      expectError(await api.call(method, path, { headers: json, body: 'null' }), 'no_json');
      for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/octet-stream']) {
        expectError(await api.call(method, path, { headers: { 'content-type': type }, body: JSON.stringify(good) }), 'no_json');
      }
      expectError(await api.call(method, path, { body: formOf([['title', 'x']]) }), 'no_json');
      expectError(await api.call(method, path, { json: {} }), 'missing_field');
      expectError(await api.call(method, path, { json: { ...(good as object), unexpected: true } }), 'invalid_value');
      expectError(await api.call(method, path, { headers: json, body: `{"__proto__": {"polluted": true}, ${JSON.stringify(good).slice(1)}` }), 'invalid_value');
      expectError(await api.call(method, path, { headers: json, body: `{"constructor": {"prototype": {"polluted": true}}, ${JSON.stringify(good).slice(1)}` }), 'invalid_value');
      expectError(await api.call(method, path, { headers: json, body: `{"\\u005f_proto__": {"polluted": true}, ${JSON.stringify(good).slice(1)}` }), 'invalid_value');
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      expectClientError(await api.call(method, path, { headers: json, body: `{"x": ${deep}}` }), `${at} deep`);
      expectError(await api.call(method, path, { headers: json, body: `{"pad": "${'x'.repeat(17 * 1024 * 1024)}"}` }), 'payload_too_large');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expectError(
      await api.call('POST', '/credentials', { headers: json, body: '{"title": "T", "metadata": {"nested": {"__proto__": {"admin": true}}}}' }),
      'invalid_value',
    );
    expectResult(await api.call('GET', '/engines'), 200);
  });

  it('refuses broken forms on every upload endpoint with the spec ids', async () => {
    for (const path of ['/files', '/credentials/schedule/local', '/verify/upload/certificate', '/verify/upload/file']) {
      const details: [string, string][] = path.includes('schedule') ? [['credential_details', JSON.stringify({ title: 'T', metadata: {} })]] : [];
      const noFileId = path.includes('schedule') ? 'no_json' : 'no_file_on_payload';
      expectError(await api.call('POST', path), noFileId);
      expectError(await api.call('POST', path, { json: { file: 'x' } }), noFileId);
      expectError(await api.call('POST', path, { headers: { 'content-type': 'multipart/form-data' }, body: 'no boundary' }), 'invalid_value');
      expectError(await api.call('POST', path, { headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\ntruncated' }), 'invalid_value');
      expectError(await api.call('POST', path, { body: formOf([...details, ['surprise', 'x']], { data: 'x' }) }), 'invalid_value');
      expectError(await api.call('POST', path, { body: formOf([...details, ['__proto__', 'x']], { data: 'x' }) }), 'invalid_value');
      expectError(await api.call('POST', path, { body: formOf(details, { data: 'x', field: 'document' }) }), 'invalid_value');
      expectError(await api.call('POST', path, { body: formOf([...details, ['file', 'not a file part']]) }), 'no_file_on_payload');
      const two = formOf(details, { data: 'one' });
      two.append('file', new Blob(['two']), 'two.txt');
      expectError(await api.call('POST', path, { body: two }), 'payload_too_large');
      // Unknown fields are refused before the field and part limits are reached: either is a 4xx.
      const many = formOf([...details, ...Array.from({ length: 10 }, (_, i): [string, string] => [`f${i}`, 'x'])], { data: 'x' });
      expectClientError(await api.call('POST', path, { body: many }), `${path} many fields`);
    }
    expectError(await api.call('POST', '/credentials/schedule/local', { body: formOf([['credential_details', '{not json']], { data: 'x' }) }), 'no_json');
    expectError(await api.call('POST', '/credentials/schedule/local', { body: formOf([], { data: 'x' }) }), 'missing_field');
    for (const details of ['{"title": "T", "metadata": {"a": 1}, "__proto__": {"x": 1}}', '{"title": "T", "metadata": {"a": {"__proto__": {"x": 1}}}}']) {
      expectError(await api.call('POST', '/credentials/schedule/local', { body: formOf([['credential_details', details]]) }), 'invalid_value');
    }
    expectError(await api.call('POST', '/credentials/schedule/local', { body: formOf([['credential_details', 'x'.repeat(2 * 1024 * 1024)]], { data: 'x' }) }), 'payload_too_large');
    expectError(await api.call('POST', '/verify/upload/certificate', { body: formOf([], { data: 'not json' }) }), 'invalid_value');
    expectResult(await api.call('GET', '/engines'), 200);
  });

  it('keeps uploads inside the store whatever their names, and path parameters inside their resource', async () => {
    const names = ['../../../../../../tmp/proofdesk-evil.txt', '..\\..\\proofdesk-evil.txt', '/etc/passwd', 'a/../../proofdesk-evil.sh', '..', '.', '\u0000evil', 'x'.repeat(5000)];
    for (const [i, name] of names.entries()) {
      const uploaded = expectResult<FileRecord>(await api.call('POST', '/files', { body: formOf([], { data: `traversal ${i}`, name }) }), 201);
      expect(statSync(join(api.dataDir, 'files', uploaded.file_hash.slice(0, 2), uploaded.file_hash)).isFile()).toBe(true);
    }
    const everything = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? everything(join(dir, e.name)) : [e.name]));
    expect(everything(api.dataDir).filter((name) => name.includes('evil') || name === 'passwd')).toEqual([]);
    expect(readdirSync(join(api.dataDir, '..')).filter((name) => name.includes('evil'))).toEqual([]);

    for (const path of ['/files/..%2F..%2F..%2Fetc%2Fpasswd', '/credentials/..%2F..%2Fengines', '/jobs/%2e%2e', '/certificates/..%2F..%2Ffiles/download', '/verify/%00', '/files/../../../etc/passwd']) {
      expectClientError(await api.call('GET', path), path);
    }
    expectResult(await api.call('GET', '/engines'), 200);
  });

  it('answers garbage in every query parameter of every listing with a 4xx spec id or a page, never a 5xx', async () => {
    const GARBAGE = ['', 'garbage', '-1', '0', '1.5', '1e309', '99999999999999999999', 'NaN', '%00', '%FF%FE', "' OR 1=1 --", '{"$gt":""}', '[]', '..%2F..', '%E2%9C%93', 'x'.repeat(10_000), ',,,', 'a,b,' + 'c,'.repeat(100)];
    const schemaOf = (operationId: string): RouteSchema =>
      [...fileRoutes, ...credentialRoutes, ...jobRoutes, ...certificateRoutes].find((route) => route.schema.operationId === operationId)!.schema;
    const endpoints: [string, string, RouteSchema][] = [
      ['GET', '/files', schemaOf('listFiles')],
      ['GET', '/credentials', schemaOf('listCredentials')],
      ['GET', '/jobs', schemaOf('listJobs')],
      ['GET', `/jobs/${issuedJob.uid}/credentials`, schemaOf('listJobCredentials')],
      ['GET', `/jobs/${issuedJob.uid}/certificates`, schemaOf('listJobCertificates')],
      ['GET', '/certificates', schemaOf('listCertificates')],
      ['GET', `/verify/credential/${credential.uid}`, schemaOf('verifyCredential')],
      ['PATCH', `/credentials/${credential.uid}/delete_tag`, schemaOf('deleteCredentialTag')],
    ];
    let calls = 0;
    const failures: string[] = [];
    const check = (answer: Answer, what: string) => {
      try {
        expectHandled(answer, what);
      } catch (error) {
        failures.push((error as Error).message.split('\n')[0]!);
      }
    };
    for (const [method, path, schema] of endpoints) {
      const params = Object.keys((schema.querystring as { properties: object }).properties);
      expect(params.length).toBeGreaterThan(0);
      for (const param of params) {
        for (const value of GARBAGE) {
          const encoded = /%|[^\x20-\x7e]/.test(value) ? value : encodeURIComponent(value);
          check(await api.call(method, `${path}?${param}=${encoded}`), `${method} ${path}?${param}=${value.slice(0, 30)}`);
          calls += 1;
        }
        check(await api.call(method, `${path}?${param}=1&${param}=2`), `${path} ${param} twice`);
        check(await api.call(method, `${path}?${param}=${UNKNOWN_UUID}&${param}=${UNKNOWN_HASH}`), `${path} ${param} twice`);
        check(await api.call(method, `${path}?${param}[]=1&${param}[x]=2`), `${path} ${param}[]`);
      }
      check(await api.call(method, `${path}?__proto__=x&constructor=y&toString=z&hasOwnProperty=1`), `${path} prototype names`);
    }
    for (const param of Object.keys((schemaOf('verifyOriginalFile').querystring as { properties: object }).properties)) {
      for (const value of GARBAGE.slice(0, 8)) {
        check(await api.call('POST', `/verify/upload/file?${param}=${encodeURIComponent(value)}`, { body: formOf([], { data: ORIGINAL }) }), `verify file ${param}=${value}`);
      }
      check(await api.call('POST', `/verify/upload/file?${param}=1&${param}=2`, { body: formOf([], { data: ORIGINAL }) }), `verify file ${param} twice`);
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(500);
    // Still A's tag: delete_tag with garbage removed nothing real.
    expect(expectResult<Credential>(await api.call('GET', `/credentials/${credential.uid}`), 200).tags).toEqual(['secret-tag']);
    expectResult(await api.call('GET', '/engines'), 200);
  });

  it('answers unknown paths 404 not_found and known paths with another method 405 method_not_allowed', async () => {
    expectError(await api.call('GET', '/nothing/here'), 'not_found');
    expectError(await api.call('GET', '/nothing/here', { token: null }), 'not_found');
    expectError(await api.raw('GET', `${api.server.authUrl}/`), 'not_found');
    const wrong = await api.call('DELETE', '/files');
    expectError(wrong, 'method_not_allowed');
    expect(wrong.headers.allow).toContain('POST');
    expectError(await api.call('PUT', `/credentials/${credential.uid}/revoke/local`), 'method_not_allowed');
    expectError(await api.call('GET', '/jobs/immediate'), 'missing_job');
  });
});

describe('Host header check', () => {
  let api: ApiFixture;
  let port: number;
  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false, allowedHosts: ['proofdesk.example', 'proxy.example:8443'] });
    port = Number(new URL(api.server.baseUrl).port);
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it('answers only to its own names, refusing others with 404 not_found before anything else', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, 'proofdesk.example', `proofdesk.example:${port}`, 'proxy.example:8443']) {
      expectResult(await api.call('GET', '/engines', { headers: { host } }), 200);
    }
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, 'localhost', '127.0.0.1', 'proxy.example:443', `127.0.0.1.evil.example:${port}`, 'user@127.0.0.1']) {
      const answer = await api.call('GET', '/engines', { headers: { host } });
      expectError(answer, 'not_found');
      expectError(await api.call('GET', '/openapi.json', { token: null, headers: { host } }), 'not_found');
      expectError(await api.token(api.a.clientId, api.a.clientSecret).then(() => api.raw('POST', `${api.server.authUrl}/realms/proofdesk/protocol/openid-connect/token`, { token: null, headers: { host } })), 'not_found');
    }
  });

  it('refuses a request without a Host header', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => socket.end('GET /api/engines HTTP/1.0\r\n\r\n'));
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 404/);
    expect(answer).toContain('"id":"not_found"');
  });
});
