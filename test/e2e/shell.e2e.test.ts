/**
 * The app shell end to end, without the Electron binary (DESIGN.md): the built renderer in
 * Debian's Chromium, talking to the real main-process handlers through the web bridge over an
 * embedded engine on a temporary data directory. Sidebar, views, status bar, Partner
 * switcher, keyboard shortcuts, the one event channel (SSE), and the bridge's refusals.
 */
import { request } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeIpcError } from '../../common/errors.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';

let rendererDir: string;
let browser: Browser;
let workspace: Workspace;

beforeAll(async () => {
  rendererDir = builtRenderer();
  browser = await launchChromium();
  workspace = await openWorkspace(rendererDir);
  await seedCredentials(workspace, 3, (i) => ({ title: `Diploma of student ${i}`, metadata: { student: `S${i}` }, tags: ['class-2026'] }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

describe('app shell', () => {
  it('has the sidebar Sections, every view, and no serious accessibility problem on any view', async () => {
    const { page, problems } = await openPage(browser, workspace);
    const sections = page.getByRole('navigation', { name: 'Sections' });
    for (const name of ['Records', 'Jobs', 'Verify', 'Watch folders', 'Settings']) {
      await expect.poll(() => sections.getByRole('button', { name, exact: true }).count()).toBe(1);
    }
    await expect.poll(() => page.getByRole('grid', { name: 'Credentials' }).getByRole('row').count()).toBeGreaterThan(3);
    await screenshot(page, 'shell', 'records');
    expect(await seriousA11yProblems(page)).toEqual([]);

    for (const [name, text] of [
      ['Jobs', null],
      ['Verify', 'Drop proof files'],
      ['Watch folders', 'No folder is watched yet'],
      ['Settings', 'Partner'],
    ] as const) {
      await sections.getByRole('button', { name, exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toBe(name);
      if (text) await expect.poll(() => page.locator('main').textContent()).toContain(text); // polled: a view's content loads
      await screenshot(page, 'shell', name.toLowerCase().replace(' ', '-'));
      expect(await seriousA11yProblems(page), name).toEqual([]);
    }
    expect(problems).toEqual([]);
  });

  it('shows the Partner, each engine, where the keys are, and follows the keyboard shortcuts', async () => {
    const { page } = await openPage(browser, workspace);
    await expect.poll(() => page.getByTestId('status-partner').textContent()).toContain('Acme University');
    expect(await page.getByTestId('status-engine-local').textContent()).toContain('Local chain');
    // The local chain is asked, and the answer arrives as an event.
    await expect.poll(() => page.getByTestId('status-engine-local').textContent(), { timeout: 30_000 }).toContain('chain connected');
    expect(await page.getByTestId('status-keys').textContent()).toBe('Keys in the OS keychain');

    await page.getByRole('grid', { name: 'Credentials' }).focus();
    await page.keyboard.press('Control+2');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toBe('Jobs');
    await page.keyboard.press('Control+5');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toBe('Settings');
    await page.keyboard.press('Control+1');
    await page.keyboard.press('Control+f');
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Search records');
  });

  it('says why issuing is off, in the window and not on stderr only', async () => {
    const reason = 'No OS keychain answers (no Secret Service on the D-Bus session). Start one, or set PROOFDESK_PASSPHRASE to use the encrypted-file store.';
    const keyless = await openWorkspace(rendererDir, { keyStore: null, issuingOff: reason });
    try {
      const { page } = await openPage(browser, keyless);
      await expect.poll(() => page.getByTestId('status-issuing-off').textContent()).toBe(`Issuing is off: ${reason}`);
      expect(await page.getByTestId('status-keys').textContent()).toBe('No key store');
      await screenshot(page, 'shell', 'issuing-off');
    } finally {
      await keyless.close();
    }
  });

  it('switches between the Partners of the data directory', async () => {
    const second = await workspace.engine.addPartner({ name: 'Beta College' });
    await workspace.engine.serviceFor(second.partner_id).createCredential({ title: 'Beta transcript', metadata: { a: 1 } });
    const { page } = await openPage(browser, workspace);
    const switcher = page.getByRole('combobox', { name: 'Partner' });
    await expect.poll(() => switcher.count()).toBe(1);
    await switcher.selectOption({ label: 'Beta College' });
    await expect.poll(() => page.getByRole('grid', { name: 'Credentials' }).textContent()).toContain('Beta transcript');
    expect(await page.getByRole('grid', { name: 'Credentials' }).textContent()).not.toContain('Diploma of student');
    await screenshot(page, 'shell', 'partner-switched');
    await switcher.selectOption({ label: 'Acme University' });
    await expect.poll(() => page.getByRole('grid', { name: 'Credentials' }).textContent()).toContain('Diploma of student 0');
  });

  it('runs under a strict CSP, without Node, exposing only the contract and onEvent', async () => {
    const { page, problems } = await openPage(browser, workspace);
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(await page.evaluate('typeof window.require')).toBe('undefined');
    expect(await page.evaluate('typeof window.process')).toBe('undefined');
    const keys = (await page.evaluate('Object.keys(window.proofdesk)')) as string[];
    expect(keys).toContain('onEvent');
    expect(keys).toContain('recordsWindow');
    expect(keys).toContain('appStatus');
    await expect.poll(() => page.getByRole('grid', { name: 'Credentials' }).getByRole('row').count()).toBeGreaterThan(1);
    expect(problems).toEqual([]);
  });

  it('pushes task events over the one event channel (Server-Sent Events in the bridge)', async () => {
    const { page } = await openPage(browser, workspace);
    await page.evaluate('window.seen = []; window.proofdesk.onEvent((event) => window.seen.push(event))');
    // Let the EventSource connect before the work starts.
    await expect.poll(() => workspace.context.events.size).toBeGreaterThan(0);
    const started = workspace.context.tasks.start('tags-add', 'A test task', async (task) => {
      task.progress(1, 2);
      return 'ok';
    });
    await expect
      .poll(() => page.evaluate("window.seen.filter((e) => e.type === 'task').map((e) => e.task.id + ':' + e.task.state)"))
      .toContain(`${started.id}:done`);
  });

  it('refuses bad arguments, unknown channels and foreign origins, on calls and on events', async () => {
    const { page } = await openPage(browser, workspace);
    const message = await page.evaluate('window.proofdesk.recordsCount({ kind: "uids", uids: ["not-a-uid"] }).then(() => "resolved", (e) => e.message)');
    expect(decodeIpcError(String(message)).id).toBe('invalid_value');

    const url = (path: string) => new URL(path, workspace.bridge.url);
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(url(path), { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    expect((await post('/ipc/app:status', '{"a":1}')).status).toBe(400);
    expect((await post('/ipc/records:delete', '[]')).status).toBe(404);

    // The bridge now changes data: a page from anywhere else must not reach it.
    const foreign = await post('/ipc/records:editTags', '[]', { origin: 'https://evil.example' });
    expect(foreign.status).toBe(401);
    expect(decodeIpcError(await foreign.text()).id).toBe('unauthorized');
    const events = await fetch(url('/events'), { headers: { origin: 'https://evil.example' } });
    expect(events.status).toBe(401);
    // DNS rebinding: our address, someone else's name (fetch cannot set Host, node:http can).
    const rebinding = await new Promise<number>((done, fail) => {
      const target = url('/ipc/app:status');
      const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.end('[]');
    });
    expect(rebinding).toBe(401);
  });
});
