/**
 * The browser bridge's upload route (main/app/handlers/staging-upload.ts) over real HTTP on
 * 127.0.0.1: files land where staging:addPaths can take them, and nothing can be written
 * outside the bridge's private upload folder, or by a page the bridge did not serve.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeIpcError } from '../../common/errors.js';
import { createAppContext } from '../../main/app/app-context.js';
import { createIpcHandlers, type IpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import { addPartner, makeTempDir, openEngine, type EngineFixture } from '../support/engine-fixture.js';

let fixture: EngineFixture;
let bridge: WebBridge;
let handlers: IpcHandlers;
let uploadsParent: string;
const BATCH = '0b7c2f1e-9a41-4c55-8a2e-6f1d2c3b4a5e';

beforeAll(async () => {
  fixture = openEngine();
  const partner = addPartner(fixture.engine, 'University A');
  const renderer = makeTempDir('proofdesk-renderer-');
  mkdirSync(renderer, { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<html><head></head><body></body></html>');
  handlers = createIpcHandlers(createAppContext({ engine: fixture.engine, partner: { id: partner.id, name: partner.name } }));
  uploadsParent = makeTempDir('proofdesk-uploads-parent-');
  mkdirSync(uploadsParent, { recursive: true });
  bridge = await startWebBridge({ handlers, rendererDir: renderer, uploadsParent });
});
afterAll(async () => {
  await bridge?.close();
  await fixture?.close();
});

const post = (path: string, body: string | Buffer, type: string, headers: Record<string, string> = {}) =>
  fetch(new URL(path, bridge.url), { method: 'POST', body, headers: { 'content-type': type, ...headers } });

function framed(files: { path: string; text: string }[]): Buffer {
  return Buffer.concat(files.flatMap((f) => [Buffer.from(`${JSON.stringify({ path: f.path, size: Buffer.byteLength(f.text) })}\n`), Buffer.from(f.text)]));
}

describe('upload route', () => {
  it('takes a folder of small files in one framed request and a large one streamed, ready to stage', async () => {
    const many = await post(
      `/upload/${BATCH}`,
      framed([
        { path: 'diplomas/alice.pdf', text: 'alice' },
        { path: 'diplomas/sub/bob.pdf', text: 'bób' },
      ]),
      'application/x-proofdesk-files',
    );
    expect(many.status).toBe(200);
    const { tops } = (await many.json()) as { tops: string[] };
    expect(new Set(tops).size).toBe(1);
    const one = await post(`/upload/${BATCH}/big.bin`, Buffer.alloc(3 * 1024 * 1024, 7), 'application/octet-stream');
    const { top, path } = (await one.json()) as { top: string; path: string };
    expect(top).toBe(path);
    expect(readFileSync(path).length).toBe(3 * 1024 * 1024);

    const intake = await handlers['staging:addPaths']([tops[0]!, top]);
    expect(intake.rows.map((r) => [r.file!.rel_path, r.file!.size])).toEqual([
      ['alice.pdf', 5],
      ['sub/bob.pdf', 4],
      ['big.bin', 3 * 1024 * 1024],
    ]);
  });

  it('refuses paths that leave the upload folder, bad frames and foreign pages, writing nothing', async () => {
    for (const path of [`/upload/${BATCH}/..%2F..%2Fescape.txt`, `/upload/${BATCH}/a/../../escape.txt`, `/upload/${BATCH}/%2E%2E/escape.txt`, '/upload/x/name.txt']) {
      const response = await post(path, 'x', 'application/octet-stream');
      expect(response.status, path).toBeGreaterThanOrEqual(400);
    }
    const traversal = await post(`/upload/${BATCH}`, framed([{ path: '../escape.txt', text: 'x' }]), 'application/x-proofdesk-files');
    expect(decodeIpcError(await traversal.text()).id).toBe('invalid_value');
    const short = await post(`/upload/${BATCH}`, Buffer.from('{"path":"a.txt","size":99}\nabc'), 'application/x-proofdesk-files');
    expect(decodeIpcError(await short.text()).id).toBe('invalid_value');
    const foreign = await post(`/upload/${BATCH}/a.txt`, 'x', 'application/octet-stream', { origin: 'https://evil.example' });
    expect(foreign.status).toBe(401);
    expect(existsSync(join(fixture.dataDir, '..', 'escape.txt'))).toBe(false);
  });

  it('stages uploaded files with the hash of the bytes received, not read back from disk', async () => {
    const batch = '5d3c1b2a-0f9e-4d8c-b7a6-9e8d7c6b5a41';
    const sent = await post(`/upload/${batch}`, framed([{ path: 'scans/one.pdf', text: 'the bytes sent' }]), 'application/x-proofdesk-files');
    const { tops } = (await sent.json()) as { tops: string[] };
    // Were the file read back to hash it, this change on disk would show in its hash.
    writeFileSync(join(tops[0]!, 'one.pdf'), 'changed on disk');
    const intake = await handlers['staging:addPaths'](tops);
    const { createHash } = await import('node:crypto');
    expect(intake.rows[0]!.file!.file_hash).toBe(createHash('sha256').update('the bytes sent').digest('hex'));
  });

  it('removes everything a cancelled batch wrote and refuses more of it (DELETE /upload/<batch>)', async () => {
    const batch = '7e6d5c4b-3a29-4187-9f6e-5d4c3b2a1908';
    const sent = await post(`/upload/${batch}`, framed([{ path: 'drop/a.pdf', text: 'a' }, { path: 'drop/sub/b.pdf', text: 'b' }]), 'application/x-proofdesk-files');
    expect(sent.status).toBe(200);
    const [root] = readdirSync(uploadsParent);
    expect(readdirSync(join(uploadsParent, root!))).toContain(batch);

    const cancel = await fetch(new URL(`/upload/${batch}`, bridge.url), { method: 'DELETE' });
    expect(cancel.status).toBe(200);
    expect(readdirSync(join(uploadsParent, root!))).not.toContain(batch);
    const late = await post(`/upload/${batch}`, framed([{ path: 'drop/c.pdf', text: 'c' }]), 'application/x-proofdesk-files');
    expect(decodeIpcError(await late.text()).id).toBe('not_found');
    const lateOne = await post(`/upload/${batch}/d.pdf`, 'd', 'application/octet-stream');
    expect(lateOne.status).toBe(404);
    expect(readdirSync(join(uploadsParent, root!))).not.toContain(batch);
  });
});
