/**
 * The page's side of the browser bridge's file intake (main/app/handlers/upload-page-script.ts,
 * `window.proofdeskFiles.upload`) in Debian's Chromium against the real bridge on 127.0.0.1:
 * files read from disk by a file input, uploaded, and found where the bridge answers, byte for
 * byte and in the order given; a cancel or a refused file leaves nothing in the upload folder.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeIpcError } from '../../common/errors.js';
import { createAppContext } from '../../main/app/app-context.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import { addPartner, makeTempDir, openEngine, type EngineFixture } from '../support/engine-fixture.js';

const CHROMIUM = process.env['PROOFDESK_CHROMIUM'] ?? '/usr/bin/chromium';

let fixture: EngineFixture;
let bridge: WebBridge;
let browser: Browser;
let work: string;
let uploadsParent: string;

beforeAll(async () => {
  fixture = openEngine();
  const partner = addPartner(fixture.engine, 'University A');
  work = makeTempDir('proofdesk-upload-page-');
  const renderer = join(work, 'renderer');
  mkdirSync(renderer);
  writeFileSync(join(renderer, 'index.html'), '<html><head></head><body><main></main></body></html>');
  uploadsParent = join(work, 'uploads');
  mkdirSync(uploadsParent);
  const handlers = createIpcHandlers(createAppContext({ engine: fixture.engine, partner: { id: partner.id, name: partner.name } }));
  bridge = await startWebBridge({ handlers, rendererDir: renderer, uploadsParent });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
});
afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await fixture?.close();
});

/** A page of the bridge with the files of `folder` (walked) in `window.picked` as `{file, relPath}`. */
async function pageWith(folder: string, loose: boolean): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(bridge.url);
  await page.evaluate(`(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.setAttribute('webkitdirectory', '');
    input.id = 'source';
    document.body.append(input);
  })()`);
  await page.setInputFiles('#source', folder);
  await page.evaluate(`window.picked = [...document.getElementById('source').files].map((file) => ({ file, relPath: ${loose} ? file.name : file.webkitRelativePath }))`);
  return page;
}

/** Every file under the bridge's upload folder, relative to it. */
function uploaded(): string[] {
  if (!existsSync(uploadsParent)) return [];
  return readdirSync(uploadsParent, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

function proofLike(i: number): string {
  // About the size of a proof file (2-3 KB).
  return JSON.stringify({ n: i, proof: 'p'.repeat(2200 + (i % 500)) });
}

describe('the page uploads dropped files (window.proofdeskFiles)', () => {
  it('uploads 10,000 proof-sized files complete, byte for byte and in the order given, in at most 20 requests (not 40)', async () => {
    const folder = join(work, 'ten-thousand');
    mkdirSync(folder);
    for (let i = 0; i < 10_000; i++) writeFileSync(join(folder, `p-${String(i).padStart(5, '0')}.proof.json`), proofLike(i));
    const page = await pageWith(folder, true);
    let requests = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/upload/')) requests++;
    });
    // Given in reverse of the input's order: the answer follows the order given, not the folder's.
    const { given, paths, progress } = (await page.evaluate(`(async () => {
      const progress = [];
      const files = window.picked.reverse();
      const paths = await window.proofdeskFiles.upload(files, { onProgress: (done, total) => progress.push([done, total]) });
      return { given: files.map((f) => f.relPath), paths, progress };
    })()`)) as { given: string[]; paths: string[]; progress: [number, number][] };
    expect(given).toHaveLength(10_000);
    expect(paths.map((p) => p.split('/').pop())).toEqual(given);
    for (const path of paths) expect(readFileSync(path, 'utf8')).toBe(proofLike(Number(/p-(\d+)/.exec(path)![1])));
    expect(progress.at(-1)).toEqual([10_000, 10_000]);
    expect(requests).toBeLessThanOrEqual(20);
    await page.close();
  });

  it('keeps folders, an empty file and a file too large to frame, answering what was dropped in order', async () => {
    const folder = join(work, 'mixed');
    mkdirSync(join(folder, 'diplomas', 'sub'), { recursive: true });
    writeFileSync(join(folder, 'diplomas', 'a.pdf'), 'a');
    writeFileSync(join(folder, 'diplomas', 'sub', 'b.pdf'), 'b');
    writeFileSync(join(folder, 'diplomas', 'empty.txt'), '');
    writeFileSync(join(folder, 'diplomas', 'scan.pdf'), Buffer.alloc(3 * 1024 * 1024, 9));
    const page = await pageWith(folder, false);
    const tops = (await page.evaluate(`window.proofdeskFiles.upload(window.picked)`)) as string[];
    expect(tops).toHaveLength(1);
    expect(tops[0]!.endsWith('/mixed')).toBe(true);
    expect(readFileSync(join(tops[0]!, 'diplomas', 'sub', 'b.pdf'), 'utf8')).toBe('b');
    expect(readFileSync(join(tops[0]!, 'diplomas', 'empty.txt'), 'utf8')).toBe('');
    expect(readFileSync(join(tops[0]!, 'diplomas', 'scan.pdf')).equals(Buffer.alloc(3 * 1024 * 1024, 9))).toBe(true);
    await page.close();
  });

  it('refuses a name that leaves the folder with invalid_value, and removes what the upload had written', async () => {
    const before = uploaded();
    const folder = join(work, 'bad-name');
    mkdirSync(folder);
    for (let i = 0; i < 1_500; i++) writeFileSync(join(folder, `p-${String(i).padStart(5, '0')}.proof.json`), proofLike(i));
    const page = await pageWith(folder, true);
    // The first 1,000 files go (and are written) before the bad one's request is refused.
    const message = (await page.evaluate(`(async () => {
      const files = window.picked;
      files.splice(1_200, 0, { file: new File(['x'], 'escape.json'), relPath: 'a/../../escape.json' });
      try {
        await window.proofdeskFiles.upload(files);
        return 'uploaded';
      } catch (error) {
        return error.message;
      }
    })()`)) as string;
    expect(decodeIpcError(message).id).toBe('invalid_value');
    await expect.poll(() => uploaded().length, { timeout: 10_000 }).toBe(before.length);
    expect(uploaded()).toEqual(before);
    expect(existsSync(join(uploadsParent, 'escape.json'))).toBe(false);
    await page.close();
  });

  it('leaves nothing when cancelled mid-upload, or after it finished', async () => {
    const before = uploaded();
    const folder = join(work, 'cancelled');
    mkdirSync(folder);
    for (let i = 0; i < 3_000; i++) writeFileSync(join(folder, `p-${String(i).padStart(5, '0')}.proof.json`), proofLike(i));
    const page = await pageWith(folder, true);
    // Cancel as the first request's files are written (progress), while the rest are on their way.
    const outcome = (await page.evaluate(`(async () => {
      const controller = new AbortController();
      try {
        await window.proofdeskFiles.upload(window.picked, { signal: controller.signal, onProgress: () => controller.abort() });
        return 'uploaded';
      } catch (error) {
        return error.name;
      }
    })()`)) as string;
    expect(outcome).toBe('AbortError');
    await expect.poll(() => uploaded().length, { timeout: 10_000 }).toBe(before.length);

    const finished = (await page.evaluate(`(async () => {
      window.controller = new AbortController();
      return window.proofdeskFiles.upload(window.picked.slice(0, 10), { signal: window.controller.signal });
    })()`)) as string[];
    expect(finished).toHaveLength(10);
    expect(uploaded().length).toBe(before.length + 10);
    await page.evaluate('window.controller.abort()');
    await expect.poll(() => uploaded().length, { timeout: 10_000 }).toBe(before.length);
    await page.close();
  });
});
