/**
 * The web bridge (main/app/web-bridge.ts, bridge-uploads.ts) over real HTTP on 127.0.0.1: the
 * renderer's files under its strict headers, IPC calls, and multipart uploads streamed to its
 * private folder where staging:addPaths takes them. A 300 MB upload passes without the server
 * holding it; a file over the limit, a path leaving the folder, a cancelled batch and a page the
 * bridge did not serve write nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeIpcError } from '../../common/errors.js';
import { createAppContext } from '../../main/app/app-context.js';
import { createIpcHandlers, type IpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import { addPartner, makeTempDir, openEngine, type EngineFixture } from '../support/engine-fixture.js';

const MiB = 1024 * 1024;
/** The test bridge's upload limit, so that going past it costs a few MiB, not 2 GiB. */
const LIMIT = 4 * MiB;

let fixture: EngineFixture;
let bridge: WebBridge;
let handlers: IpcHandlers;
let uploadsParent: string;
let renderer: string;

beforeAll(async () => {
  fixture = openEngine();
  const partner = addPartner(fixture.engine, 'University A');
  renderer = makeTempDir('proofdesk-renderer-');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<html><head></head><body></body></html>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log("app")');
  handlers = createIpcHandlers(createAppContext({ engine: fixture.engine, partner: { id: partner.id, name: partner.name } }));
  uploadsParent = makeTempDir('proofdesk-uploads-parent-');
  mkdirSync(uploadsParent, { recursive: true });
  bridge = await startWebBridge({ handlers, rendererDir: renderer, uploadsParent, maxUploadBytes: LIMIT });
});
afterAll(async () => {
  await bridge?.close();
  await fixture?.close();
});

/** Every file under the bridge's upload folder. */
function uploaded(): string[] {
  return readdirSync(uploadsParent, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** A multipart form of files, each part named by its relative path, as the page sends it. */
function form(files: { path: string; bytes: string | Buffer }[]): FormData {
  const body = new FormData();
  for (const f of files) body.append(encodeURIComponent(f.path), new Blob([f.bytes]), f.path.split('/').pop());
  return body;
}

const upload = (batch: string, body: FormData, headers: Record<string, string> = {}) => fetch(new URL(`/upload/${batch}`, bridge.url), { method: 'POST', body, headers });

describe('the web bridge', () => {
  it('serves the renderer with its bridge script under the strict CSP, and answers IPC calls', async () => {
    const index = await fetch(bridge.url);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<script src="/bridge.js"></script>');
    expect(index.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    const asset = await fetch(new URL('/assets/app.js', bridge.url));
    expect(await asset.text()).toBe('console.log("app")');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await fetch(new URL('/bridge.js', bridge.url))).headers.get('content-type')).toMatch(/javascript/);
    // Nothing outside the renderer's folder.
    expect((await fetch(new URL('/assets/%2E%2E/%2E%2E/' + uploadsParent, bridge.url))).status).toBe(404);

    const call = await fetch(new URL('/ipc/app:status', bridge.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(call.status).toBe(200);
    expect(await call.json()).toMatchObject({ mode: 'embedded', nativeMenu: false });
    const unknown = await fetch(new URL('/ipc/constructor', bridge.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(decodeIpcError(await unknown.text()).id).toBe('not_found');
    const notArray = await fetch(new URL('/ipc/app:status', bridge.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(decodeIpcError(await notArray.text()).id).toBe('invalid_value');
    const notJson = await fetch(new URL('/ipc/app:status', bridge.url), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '[]' });
    expect([notJson.status, decodeIpcError(await notJson.text()).id]).toEqual([415, 'no_json']);
  });

  it('refuses every request from a page it did not serve, or to another host name, writing nothing', async () => {
    const foreign = { origin: 'https://evil.example' };
    const call = await fetch(new URL('/ipc/staging:clear', bridge.url), { method: 'POST', headers: { 'content-type': 'application/json', ...foreign }, body: '[]' });
    expect([call.status, decodeIpcError(await call.text()).id]).toEqual([401, 'unauthorized']);
    const sent = await upload('1a2b3c4d-0000-4000-8000-000000000001', form([{ path: 'a.pdf', bytes: 'a' }]), foreign);
    expect(sent.status).toBe(401);
    // DNS rebinding: the page's own origin, but reached by another name.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(bridge.url, { headers: { host: 'attacker.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject).end();
    });
    expect(rebound).toBe(401);
    expect(uploaded()).toEqual([]);
  });

  it('takes a dropped folder and a loose file in one request, ready to stage with the hashes of the bytes received', async () => {
    const sent = await upload(
      '0b7c2f1e-9a41-4c55-8a2e-6f1d2c3b4a5e',
      form([
        { path: 'diplomas/alice.pdf', bytes: 'alice' },
        { path: 'diplomas/sub/bób.pdf', bytes: 'bób' },
        { path: 'loose.pdf', bytes: 'the bytes sent' },
      ]),
    );
    expect(sent.status).toBe(200);
    const { tops } = (await sent.json()) as { tops: string[] };
    expect(tops.map((t) => t.split('/').pop())).toEqual(['diplomas', 'diplomas', 'loose.pdf']);
    // Were the file read back to hash it, this change on disk would show in its hash.
    writeFileSync(tops[2]!, 'changed on disk');
    const intake = await handlers['staging:addPaths']([tops[0]!, tops[2]!]);
    expect(intake.rows.map((r) => [r.file!.rel_path, r.file!.size])).toEqual([
      ['alice.pdf', 5],
      ['sub/bób.pdf', 4],
      ['loose.pdf', 14],
    ]);
    expect(intake.rows[2]!.file!.file_hash).toBe(createHash('sha256').update('the bytes sent').digest('hex'));
  });

  it('refuses paths that leave the upload folder with invalid_value, keeping nothing of the request', async () => {
    const before = uploaded();
    for (const path of ['../escape.txt', 'a/../../escape.txt', 'a//b.txt', 'a/./b.txt']) {
      const sent = await upload('5d3c1b2a-0f9e-4d8c-b7a6-9e8d7c6b5a41', form([{ path: 'first.pdf', bytes: 'written first' }, { path, bytes: 'x' }]));
      expect([sent.status, decodeIpcError(await sent.text()).id], path).toEqual([400, 'invalid_value']);
    }
    const badBatch = await upload('x', form([{ path: 'a.pdf', bytes: 'a' }]));
    expect(badBatch.status).toBe(400);
    expect(uploaded()).toEqual(before);
    expect(existsSync(join(uploadsParent, 'escape.txt'))).toBe(false);
  });

  it('refuses a file over the limit with payload_too_large (413) and keeps nothing of it', async () => {
    const before = uploaded();
    const sent = await upload('7f6e5d4c-1111-4222-8333-944455556666', form([{ path: 'ok.pdf', bytes: 'fine' }, { path: 'huge.bin', bytes: Buffer.alloc(LIMIT + 1, 1) }]));
    expect(sent.status).toBe(413);
    expect(decodeIpcError(await sent.text()).id).toBe('payload_too_large');
    expect(uploaded()).toEqual(before);
    const exactly = await upload('7f6e5d4c-1111-4222-8333-944455556667', form([{ path: 'at-limit.bin', bytes: Buffer.alloc(LIMIT, 2) }]));
    expect(exactly.status).toBe(200);
  });

  it('removes everything a cancelled batch wrote and refuses more of it', async () => {
    const batch = '7e6d5c4b-3a29-4187-9f6e-5d4c3b2a1908';
    const sent = await upload(batch, form([{ path: 'drop/a.pdf', bytes: 'a' }, { path: 'drop/sub/b.pdf', bytes: 'b' }]));
    expect(sent.status).toBe(200);
    expect(uploaded().some((p) => p.includes(batch))).toBe(true);
    const cancel = await fetch(new URL(`/upload/${batch}`, bridge.url), { method: 'DELETE' });
    expect(cancel.status).toBe(200);
    expect(uploaded().some((p) => p.includes(batch))).toBe(false);
    const late = await upload(batch, form([{ path: 'drop/c.pdf', bytes: 'c' }]));
    expect([late.status, decodeIpcError(await late.text()).id]).toEqual([404, 'not_found']);
    expect(uploaded().some((p) => p.includes(batch))).toBe(false);
  });
  it('keeps nothing of an upload the page aborts mid-file and then cancels', async () => {
    const batch = '3c2b1a09-8f7e-4d6c-9b5a-493827160504';
    const boundary = 'proofdesk-abort-boundary';
    async function* endless() {
      yield Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="scan.bin"; filename="scan.bin"\r\n\r\n`);
      for (;;) yield Buffer.alloc(64 * 1024, 1);
    }
    const req = httpRequest(new URL(`/upload/${batch}`, bridge.url), { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    req.on('error', () => undefined);
    const sending = pipeline(Readable.from(endless()), req).catch(() => undefined);
    // The file is on its way to disk: then the page gives up on it.
    await expect.poll(() => uploaded().some((p) => p.includes(batch)), { timeout: 10_000 }).toBe(true);
    req.destroy();
    await sending;
    const cancel = await fetch(new URL(`/upload/${batch}`, bridge.url), { method: 'DELETE' });
    expect(cancel.status).toBe(200);
    expect(uploaded().some((p) => p.includes(batch))).toBe(false);
  });
});

describe('a large upload', () => {
  it('streams 300 MB to disk while the server process grows by far less than that', async () => {
    const big = await startWebBridge({ handlers, rendererDir: renderer, uploadsParent });
    try {
      const size = 300 * MiB;
      const boundary = 'proofdesk-test-boundary';
      const chunk = Buffer.alloc(MiB, 0x5a);
      async function* body() {
        yield Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="scan.bin"; filename="scan.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`);
        for (let sent = 0; sent < size; sent += MiB) yield chunk;
        yield Buffer.from(`\r\n--${boundary}--\r\n`);
      }
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(new URL('/upload/9a8b7c6d-2222-4333-8444-955566667777', big.url), { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (d: string) => (text += d)).on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
        pipeline(Readable.from(body()), req).catch(reject);
      });
      clearInterval(sampler);
      expect(answer.status, answer.text).toBe(200);
      const [top] = (JSON.parse(answer.text) as { tops: string[] }).tops;
      expect(statSync(top!).size).toBe(size);
      // The server (this very process) held a few chunks at a time, never the file.
      expect(peak - baseline).toBeLessThan(100 * MiB);
    } finally {
      await big.close();
    }
  });
});
