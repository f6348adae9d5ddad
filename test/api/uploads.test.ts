/**
 * Uploads over HTTP: streamed to disk while hashed (memory stays flat for a file of hundreds
 * of MiB, whether the file streams straight into the store or is spooled because its fields
 * come after it), explicit limits answered with 413 `payload_too_large` and nothing of the
 * upload kept, and the form's fields accepted before or after the file.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential, FileRecord, Page } from '../../common/wire-types.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectError, expectResult, formOf, startApiFixture, type Answer, type ApiFixture } from './api-fixture.js';

const MiB = 1024 * 1024;
const CHUNK = 256 * 1024;

const PATTERNS = Array.from({ length: 17 }, (_, i) => {
  const chunk = Buffer.allocUnsafe(CHUNK);
  for (let k = 0; k < CHUNK; k += 4) chunk.writeUInt32LE((i * 2654435761 + k * 40503) >>> 0, k);
  return chunk;
});

/** Deterministic bytes of chunk `i`. */
function chunkOf(i: number): Buffer {
  return PATTERNS[i % PATTERNS.length]!;
}

/**
 * A multipart body generated as it is sent (never whole in memory): the text fields and a file
 * of `size` bytes, the file first or last. Returns the body and the file's SHA-256.
 */
function streamingForm(fields: [string, string][], size: number, fileFirst: boolean, pace = false): { contentType: string; body: AsyncIterable<Buffer>; hash: string } {
  const boundary = 'proofdesk-test-boundary-7d1f';
  const hash = createHash('sha256');
  for (let i = 0, left = size; left > 0; i++, left -= CHUNK) hash.update(chunkOf(i).subarray(0, Math.min(CHUNK, left)));
  async function* body(): AsyncGenerator<Buffer> {
    const field = ([name, value]: [string, string]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    async function* file(): AsyncGenerator<Buffer> {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      for (let i = 0, left = size; left > 0; i++, left -= CHUNK) {
        // A client reading from disk sends the file a little after the form's head.
        if (pace) await new Promise((resolve) => setTimeout(resolve, 2));
        yield chunkOf(i).subarray(0, Math.min(CHUNK, left));
      }
      yield Buffer.from('\r\n');
    }
    if (fileFirst) yield* file();
    for (const f of fields) yield field(f);
    if (!fileFirst) yield* file();
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: body(), hash: hash.digest('hex') };
}

async function upload(api: ApiFixture, path: string, form: ReturnType<typeof streamingForm>): Promise<Answer> {
  const response = await request(`${api.server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.a.token}`, 'content-type': form.contentType },
    body: Readable.from(form.body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text, body: JSON.parse(text) };
}

/** Every file under a directory (recursively). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('streamed uploads', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false });
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  for (const [mode, fileFirst] of [
    ['straight into the store (field first)', false],
    ['spooled (file first)', true],
  ] as const) {
    it(`takes a 256 MiB file ${mode} with flat memory, hashing it on the way`, async () => {
      const size = 256 * MiB;
      const form = streamingForm([['ignore_duplicated', 'true']], size, fileFirst);
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      let answer: Answer;
      try {
        answer = await upload(api, '/files', form);
      } finally {
        clearInterval(sampler);
      }
      expect(expectResult<FileRecord>(answer, 201).file_hash).toBe(form.hash);
      expect((peak - before) / MiB, 'memory growth in MiB while uploading').toBeLessThan(96);
      expect(filesUnder(join(api.dataDir, 'tmp'))).toEqual([]);
    });
  }

  it('takes the form fields before or after the file', async () => {
    const first = expectResult<FileRecord>(await api.call('POST', '/files', { body: formOf([], { data: 'order matters not', name: 'a.txt' }) }), 201);
    expectError(await api.call('POST', '/files', { body: formOf([['ignore_duplicated', 'false']], { data: 'order matters not' }, true) }), 'file_already_exists');
    expect(expectResult(await api.call('POST', '/files', { body: formOf([['ignore_duplicated', 'true']], { data: 'order matters not' }, true) }), 201)).toEqual(first);
    expect(expectResult(await api.call('POST', '/files', { body: formOf([['ignore_duplicated', 'true']], { data: 'order matters not' }, false) }), 201)).toEqual(first);

    const details = JSON.stringify({ title: 'After the file', metadata: {}, ignore_duplicate: 'true' });
    const late = expectResult<Credential>(await api.call('POST', '/credentials/schedule/local', { body: formOf([['credential_details', details]], { data: 'order matters not' }, true) }), 201);
    expect(late.files).toEqual([first]);
    expect(filesUnder(join(api.dataDir, 'tmp'))).toEqual([]);
  });

  it('gets a refusal to the client even when the file was not read yet (the rest of the body is read and dropped)', async () => {
    const badTag = JSON.stringify({ title: 'Refused', metadata: {}, tags: ['no!'] });
    for (const size of [8 * 1024, 32 * 1024, 64 * 1024, 256 * 1024, 4 * MiB]) {
      let length = 0;
      for await (const chunk of streamingForm([['credential_details', badTag]], size, false).body) length += chunk.length;
      for (let i = 0; i < 10; i++) {
        // Sent as a client streaming from disk does: a known length, part by part.
        const form = streamingForm([['credential_details', badTag]], size, false, true);
        const answer = await api.call('POST', '/credentials/schedule/local', {
          headers: { 'content-type': form.contentType, 'content-length': String(length) },
          body: Readable.from(form.body),
        });
        expectError(answer, 'invalid_tag');
      }
    }
    // Refused before the body is even parsed: no token.
    for (let i = 0; i < 10; i++) {
      const form = streamingForm([], 64 * 1024, false, true);
      const response = await request(`${api.server.baseUrl}/files`, { method: 'POST', headers: { 'content-type': form.contentType }, body: Readable.from(form.body) });
      expect(response.statusCode).toBe(401);
      expect(((await response.body.json()) as { error: { id: string } }).error.id).toBe('unauthorized');
    }
    expect(expectResult<Page<Credential>>(await api.call('GET', '/credentials?and_tags=no'), 200).total_items).toBe(0);
  });

  it('refuses a field after a file that already streamed into the store, keeping nothing', async () => {
    const form = formOf([['ignore_duplicated', 'true']], { data: 'streamed then refused' });
    form.append('ignore_duplicated', 'false');
    expectError(await api.call('POST', '/files', { body: form }), 'invalid_value');
    const hash = createHash('sha256').update('streamed then refused').digest('hex');
    expectError(await api.call('GET', `/files/${hash}`), 'missing_file');
    expect(existsSync(join(api.dataDir, 'files', hash.slice(0, 2), hash))).toBe(false);
  });
});

describe('upload limits', () => {
  const LIMIT = 1 * MiB;
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false, limits: { upload: { fileSize: LIMIT } } });
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it('answers a file over the limit with 413 payload_too_large on every upload endpoint, and keeps nothing', async () => {
    const details = JSON.stringify({ title: 'Too big', metadata: { a: 1 } });
    const cases: [string, [string, string][], boolean][] = [
      ['/files', [], false],
      ['/files', [['ignore_duplicated', 'true']], false],
      ['/files', [['ignore_duplicated', 'true']], true],
      ['/credentials/schedule/local', [['credential_details', details]], false],
      ['/credentials/schedule/local', [['credential_details', details]], true],
      ['/verify/upload/file', [], false],
      ['/verify/upload/certificate', [], false],
    ];
    for (const [path, fields, fileFirst] of cases) {
      for (const size of [LIMIT + 1, 3 * LIMIT, 40 * LIMIT]) {
        // The rest of the file is read and thrown away, so even a client that sends all of it gets the answer.
        expectError(await upload(api, path, streamingForm(fields, size, fileFirst)), 'payload_too_large');
      }
    }
    // Exactly at the limit is fine.
    const atLimit = streamingForm([], LIMIT, false);
    expect(expectResult<FileRecord>(await upload(api, '/files', atLimit), 201).file_hash).toBe(atLimit.hash);

    expect(expectResult<Page<FileRecord>>(await api.call('GET', '/files'), 200).total_items).toBe(1);
    expect(expectResult<Page<Credential>>(await api.call('GET', '/credentials'), 200).total_items).toBe(0);
    expect(filesUnder(join(api.dataDir, 'files'))).toHaveLength(1);
    expect(filesUnder(join(api.dataDir, 'tmp'))).toEqual([]);
    expectResult(await api.call('GET', '/engines'), 200);
  });
});
