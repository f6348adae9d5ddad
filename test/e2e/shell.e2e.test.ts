/**
 * The overview screen end to end, without the Electron binary (DESIGN.md): the built renderer
 * runs in Debian's Chromium and talks to the real main-process handlers through the web bridge,
 * over an embedded engine on a temporary data directory.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError, decodeIpcError } from '../../common/errors.js';
import type { IssuingService } from '../../common/issuing-service.js';
import type { Partner } from '../../common/wire-types.js';
import { Engine } from '../../main/engine/index.js';
import { createIpcHandlers, type IpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = process.env['PROOFDESK_CHROMIUM'] ?? '/usr/bin/chromium';
const SCREENSHOT = '/tmp/proofdesk-overview.png';

let workDir: string;
let rendererDir: string;
let engine: Engine;
let partner: Partner;
let service: IssuingService;
let browser: Browser;
const bridges: WebBridge[] = [];

/** Opens the app through a bridge over the given handlers; fails the test on any page error. */
async function openApp(handlers: IpcHandlers): Promise<{ page: Page; bridge: WebBridge; problems: string[] }> {
  const bridge = await startWebBridge({ handlers, rendererDir });
  bridges.push(bridge);
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  // CSP violations and script errors show up here: the strict policy must not break the app.
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  return { page, bridge, problems };
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set PROOFDESK_CHROMIUM)`);
  }
  workDir = mkdtempSync(join(tmpdir(), 'proofdesk-e2e-'));
  // A fresh build of all three bundles (main and preload must build too), never a stale out/.
  const outDir = join(workDir, 'out');
  execFileSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build', '--outDir', outDir, '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  rendererDir = join(outDir, 'renderer');

  engine = Engine.open({ dataDir: join(workDir, 'data') });
  const added = engine.partners.add({ name: 'Acme University' });
  partner = { id: added.partner_id, name: added.name };
  service = engine.serviceFor(partner.id);
  for (const title of ['Diploma of Alice', 'Diploma of Bob']) {
    await service.createCredential({ title, metadata: { a: 1 }, tags: ['abc'] });
  }

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(bridges.map((b) => b.close()));
  await engine?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('overview screen', () => {
  it("shows the partner, its counts and engines, under a strict CSP and without Node", async () => {
    const { page, problems } = await openApp(createIpcHandlers({ partner, service }));

    await expect.poll(() => page.getByTestId('partner-name').textContent()).toBe('Acme University');
    expect(await page.getByTestId('count-credentials').textContent()).toBe('2');
    expect(await page.getByTestId('count-files').textContent()).toBe('0');
    expect(await page.getByTestId('count-jobs-scheduled').textContent()).toBe('0');
    for (const engineInfo of await service.listEngines()) {
      expect(await page.getByTestId('engines').textContent()).toContain(engineInfo.id);
    }

    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('unsafe-inline');

    expect(await page.evaluate('typeof window.require')).toBe('undefined');
    expect(await page.evaluate('typeof window.process')).toBe('undefined');
    expect(await page.evaluate('typeof window.module')).toBe('undefined');
    expect(await page.evaluate('Object.keys(window.proofdesk)')).toEqual(['overviewGet']);

    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(problems).toEqual([]);
  });

  it('refuses bad arguments, unknown channels and foreign origins', async () => {
    const { page, bridge } = await openApp(createIpcHandlers({ partner, service }));

    // Through the page's own bridge function, as a compromised renderer would try.
    const message = await page.evaluate('window.proofdesk.overviewGet(1).then(() => "resolved", (e) => e.message)');
    expect(decodeIpcError(String(message)).id).toBe('invalid_value');

    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(new URL(path, bridge.url), { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

    const notArray = await post('/ipc/overview:get', '{"a":1}');
    expect(notArray.status).toBe(400);
    expect(decodeIpcError(await notArray.text()).id).toBe('invalid_value');

    const unknown = await post('/ipc/credentials:delete', '[]');
    expect(unknown.status).toBe(404);
    expect(decodeIpcError(await unknown.text()).id).toBe('not_found');
    expect((await post('/ipc/constructor', '[]')).status).toBe(404);

    const foreign = await post('/ipc/overview:get', '[]', { origin: 'https://evil.example' });
    expect(foreign.status).toBe(401);

    const ok = await post('/ipc/overview:get', '[]');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { counts: { credentials: number } }).counts.credentials).toBe(2);
  });

  it('tells how to add a partner when there is none', async () => {
    const { page, problems } = await openApp(createIpcHandlers({ partner: null, service: null }));

    await expect.poll(() => page.getByTestId('no-partner').textContent()).toContain('npm run cli -- partner add --name NAME');
    expect(await page.getByTestId('count-credentials').textContent()).toBe('0');
    expect(problems).toEqual([]);
  });

  it("shows a failing call's error id and message", async () => {
    const failing: IpcHandlers = {
      ...createIpcHandlers({ partner: null, service: null }),
      'overview:get': () => Promise.reject(new ServiceError('try_again_later', 'The engine is busy')),
    };
    const { page } = await openApp(failing);

    await expect.poll(() => page.getByTestId('overview-error-id').textContent()).toBe('try_again_later');
    expect(await page.getByTestId('overview-error').textContent()).toContain('The engine is busy');
  });
});
