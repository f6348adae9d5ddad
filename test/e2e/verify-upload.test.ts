/**
 * The browser bridge's multipart upload (what the page sends a drop of many proofs as) over real
 * HTTP on 127.0.0.1: per file a `path` field then the `file`; the files land byte-exact under
 * their relative paths, the answer names each file's top in order, and a bad path or a part
 * without its path refuses the whole request, writing nothing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeIpcError } from '../../common/errors.js';
import { createAppContext } from '../../main/app/app-context.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import { addPartner, makeTempDir, openEngine, type EngineFixture } from '../support/engine-fixture.js';

let fixture: EngineFixture;
let bridge: WebBridge;
const BATCH = '5d1c9b0e-7f42-4a11-9c3d-2b6e8f0a1c47';

beforeAll(async () => {
  fixture = openEngine();
  const partner = addPartner(fixture.engine, 'University A');
  const renderer = makeTempDir('proofdesk-renderer-');
  mkdirSync(renderer, { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<html><head></head><body></body></html>');
  bridge = await startWebBridge({ handlers: createIpcHandlers(createAppContext({ engine: fixture.engine, partner: { id: partner.id, name: partner.name } })), rendererDir: renderer });
});
afterAll(async () => {
  await bridge?.close();
  await fixture?.close();
});

function form(files: { path?: string; bytes: string | Buffer }[]): FormData {
  const body = new FormData();
  for (const f of files) {
    if (f.path !== undefined) body.append('path', f.path);
    body.append('file', new Blob([f.bytes]), 'file');
  }
  return body;
}

const post = (body: FormData, batch = BATCH) => fetch(new URL(`/upload/${batch}`, bridge.url), { method: 'POST', body });

describe('multipart upload', () => {
  it('writes each file under its relative path and answers the tops in order', async () => {
    const binary = Buffer.from([0, 1, 2, 255, 13, 10, 45, 45]);
    const response = await post(form([
      { path: 'proofs/a.proof.json', bytes: '{"a":1}' },
      { path: 'proofs/sub/b.proof.json', bytes: '{"b":2}' },
      { path: 'Zeugnis Müller "2026".pdf', bytes: binary },
      { path: 'proofs/empty.json', bytes: '' },
    ]));
    expect(response.status).toBe(200);
    const { tops } = (await response.json()) as { tops: string[] };
    expect(tops.map((t) => t.split('/').pop())).toEqual(['proofs', 'proofs', 'Zeugnis Müller "2026".pdf', 'proofs']);
    expect(readFileSync(join(tops[0]!, 'a.proof.json'), 'utf8')).toBe('{"a":1}');
    expect(readFileSync(join(tops[1]!, 'sub', 'b.proof.json'), 'utf8')).toBe('{"b":2}');
    expect(readFileSync(tops[2]!)).toEqual(binary);
    expect(readFileSync(join(tops[3]!, 'empty.json'), 'utf8')).toBe('');
  });

  it('refuses a path that leaves the upload folder, or a file without its path, writing nothing', async () => {
    const other = '9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4';
    const traversal = await post(form([{ path: 'ok/first.json', bytes: 'x' }, { path: '../escape.json', bytes: 'x' }]), other);
    expect(traversal.status).toBe(400);
    expect(decodeIpcError(await traversal.text()).id).toBe('invalid_value');
    const pathless = await post(form([{ path: 'ok/second.json', bytes: 'x' }, { bytes: 'x' }]), other);
    expect(decodeIpcError(await pathless.text()).id).toBe('invalid_value');
    // The good files of the refused requests were removed with them.
    const good = await post(form([{ path: 'probe.json', bytes: 'x' }]), other);
    const { tops } = (await good.json()) as { tops: string[] };
    const folder = join(tops[0]!, '..');
    expect(existsSync(join(folder, 'ok', 'first.json'))).toBe(false);
    expect(existsSync(join(folder, 'ok', 'second.json'))).toBe(false);
    expect(existsSync(join(folder, '..', 'escape.json'))).toBe(false);
  });
});
