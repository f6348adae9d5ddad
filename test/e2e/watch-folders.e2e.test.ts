/**
 * Watch folders end to end in Chromium through the web bridge, on a real engine and the local
 * chain (anvil) issuing every second: a folder added in the UI issues files dropped into it, with
 * live counts; pause and resume; a failed file with its reason, fixed and put back with Retry;
 * the CLI's `watch` (a child process on the same data directory) refused on a folder the app
 * watches, and the app refusing one the CLI watches. Screenshots in build/screenshots/watch-*.png.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Partner } from '../../common/wire-types.js';
import { createAppContext } from '../../main/app/app-context.js';
import { stopWatchFolders } from '../../main/app/handlers/watch-folders.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import { Engine } from '../../main/engine/index.js';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import { cliArgs } from '../cli/cli-child.js';
import { ROOT, builtRenderer, launchChromium, screenshot, seriousA11yProblems } from './shell-harness.js';

const PASSPHRASE = 'watch e2e passphrase';
let workDir: string;
let dataDir: string;
let browser: Browser;
let engine: Engine;
let partner: Partner;
let bridge: WebBridge;
const children: ChildProcess[] = [];

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'proofdesk-watch-e2e-'));
  dataDir = join(workDir, 'data');
  const rendererDir = builtRenderer();
  browser = await launchChromium();
  // Keys in the encrypted file (not in memory): the CLI in a child process signs with the same ones.
  engine = Engine.open({ dataDir, sweepIntervalMs: false, secrets: await openSecretStore({ dataDir, env: { [PASSPHRASE_ENV]: PASSPHRASE } }), issuing: { scheduler: true, tickMs: 250, onError: () => undefined } });
  const added = await engine.addPartner({ name: 'Acme University', issuingIntervalSeconds: 1 });
  partner = { id: added.partner_id, name: added.name };
  const context = createAppContext({ engine, partner, keyStore: 'encrypted-file' });
  bridge = await startWebBridge({ handlers: createIpcHandlers(context), events: context.events, rendererDir });
}, 240_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await browser?.close();
  await bridge?.close();
  await stopWatchFolders();
  await engine?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(bridge.url);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Watch folders' }).click();
  return { page, problems };
}

function folder(name: string): string {
  const dir = join(workDir, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const proofsIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.proof.json')).length : 0);

/** `proofdesk watch DIR` on the app's data directory, in a child process. */
function cliWatch(dir: string): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...cliArgs(), 'watch', dir, '--data', dataDir], {
    cwd: ROOT,
    env: { ...process.env, PROOFDESK_DATA: dataDir, [PASSPHRASE_ENV]: PASSPHRASE },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout!.resume();
  return { child, stderr: () => err, exited: new Promise((done) => child.on('exit', (code) => done(code))) };
}

/** Fills the metadata key/value editor: a row per field (typed name, Enter, then its value). */
async function fillTemplate(page: Page, template: Record<string, string>): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Add watch folder' });
  for (const [key, value] of Object.entries(template)) {
    await dialog.getByRole('textbox', { name: "New metadata field of this folder's credentials" }).fill(key);
    await dialog.getByRole('textbox', { name: "New metadata field of this folder's credentials" }).press('Enter');
    await dialog.getByRole('textbox', { name: `Value of ${key}` }).fill(value);
  }
}

async function addFolder(page: Page, fields: { path: string; tags?: string; template?: Record<string, string>; outDir?: string }): Promise<void> {
  await page.getByRole('button', { name: 'Add watch folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add watch folder' });
  await dialog.getByRole('textbox', { name: 'Folder to watch' }).fill(fields.path);
  if (fields.tags) await dialog.getByRole('textbox', { name: 'Tags (comma-separated)' }).fill(fields.tags);
  if (fields.template) await fillTemplate(page, fields.template);
  if (fields.outDir) await dialog.getByRole('textbox', { name: /Output folder/ }).fill(fields.outDir);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
}

const card = (page: Page, path: string) => page.getByRole('article', { name: path });
const count = async (page: Page, path: string, label: string) => {
  const counts = card(page, path).getByRole('definition');
  const terms = await card(page, path).getByRole('term').allTextContents();
  return Number((await counts.nth(terms.indexOf(label)).textContent())?.replace(/,/g, ''));
};

describe('watch folders view', () => {
  it('adds a folder in the UI that issues files dropped into it, live; pause and resume; a failed file retried', async () => {
    const { page, problems } = await openPage();
    await expect.poll(() => page.getByText('No folder is watched yet').count()).toBe(1);
    await screenshot(page, 'watch', 'empty');
    expect(await seriousA11yProblems(page)).toEqual([]);

    const inbox = folder('inbox');
    const out = join(workDir, 'proofs-out');
    await page.getByRole('button', { name: 'Add watch folder' }).click();
    await screenshot(page, 'watch', 'add-dialog');
    expect(await seriousA11yProblems(page)).toEqual([]);
    // The metadata is a key/value editor: rows are added and removed, no JSON to type.
    await fillTemplate(page, { course: 'CS 2026', typo: 'x' });
    await page.getByRole('dialog', { name: 'Add watch folder' }).getByRole('button', { name: 'Remove field typo' }).click();
    expect(await page.getByRole('dialog', { name: 'Add watch folder' }).getByRole('textbox', { name: 'Value of typo' }).count()).toBe(0);
    await screenshot(page, 'watch', 'add-dialog-metadata');
    await page.getByRole('dialog', { name: 'Add watch folder' }).getByRole('button', { name: 'Cancel' }).click();
    await addFolder(page, { path: inbox, tags: 'cs2026', template: { course: 'CS 2026', term: 'Fall 2026' }, outDir: out });
    await expect.poll(() => card(page, inbox).count()).toBe(1);

    for (const name of ['alice', 'bob', 'carol']) writeFileSync(join(inbox, `${name}.pdf`), `${name} diploma`);
    await expect.poll(() => count(page, inbox, 'Issued'), { timeout: 60_000, interval: 500 }).toBe(3);
    expect(proofsIn(out)).toBe(3);
    expect(await count(page, inbox, 'Seen')).toBe(3);
    const credentials = (await engine.serviceFor(partner.id).listCredentials({ and_tags: 'cs2026', per_page: 0 })).items;
    expect(credentials.map((c) => c.metadata['course'])).toEqual(['CS 2026', 'CS 2026', 'CS 2026']);
    expect(credentials.map((c) => c.metadata['term'])).toEqual(['Fall 2026', 'Fall 2026', 'Fall 2026']);
    await screenshot(page, 'watch', 'issued');
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Pause: a file dropped meanwhile waits; Resume: it is issued.
    await card(page, inbox).getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => card(page, inbox).textContent()).toContain('paused');
    writeFileSync(join(inbox, 'dave.pdf'), 'dave diploma');
    await new Promise((r) => setTimeout(r, 3_000));
    expect(proofsIn(out)).toBe(3);
    expect(await count(page, inbox, 'Issued')).toBe(3);
    // The folder's metadata reads as the key/value pairs it was entered as, not as JSON.
    expect(await card(page, inbox).textContent()).toContain('metadata course: CS 2026, term: Fall 2026');
    await screenshot(page, 'watch', 'paused');
    await card(page, inbox).getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => count(page, inbox, 'Issued'), { timeout: 60_000, interval: 500 }).toBe(4);

    // A sidecar that is not JSON: the file fails with its reason; fixed, Retry puts it back and it is issued.
    writeFileSync(join(inbox, 'erin.pdf.json'), '{ not json');
    writeFileSync(join(inbox, 'erin.pdf'), 'erin diploma');
    await expect.poll(() => count(page, inbox, 'Failed'), { timeout: 30_000, interval: 500 }).toBe(1);
    await card(page, inbox).getByRole('button', { name: 'Failed files' }).click();
    const failed = card(page, inbox).getByRole('table', { name: 'Failed files' });
    await expect.poll(() => failed.getByRole('row').filter({ hasText: 'erin.pdf' }).count()).toBe(1);
    // One sentence an admin understands; main's text and the spec's id under the row's own Details.
    const reason = failed.getByRole('row').filter({ hasText: 'erin.pdf' }).getByRole('group');
    expect(await reason.locator('summary').textContent()).toBe('Its metadata file (sidecar or manifest) cannot be used.');
    expect(await reason.locator('.error-technical').first().isVisible()).toBe(false);
    await reason.locator('summary').click();
    expect(await reason.textContent()).toMatch(/not valid JSON.*Error id\s*no_json/s);
    await screenshot(page, 'watch', 'failed');
    expect(await seriousA11yProblems(page)).toEqual([]);
    writeFileSync(join(inbox, 'failed', 'erin.pdf.json'), '{"metadata": {"grade": "A"}}');
    await failed.getByRole('button', { name: 'Retry erin.pdf' }).click();
    await expect.poll(() => count(page, inbox, 'Issued'), { timeout: 60_000, interval: 500 }).toBe(5);
    expect(proofsIn(out)).toBe(5);

    // In the browser, "Open output folder" shows the path.
    await card(page, inbox).getByRole('button', { name: 'Open output folder' }).click();
    await expect.poll(() => card(page, inbox).textContent()).toContain(`Output folder: ${out}`);
    expect(problems).toEqual([]);
  }, 240_000);

  it('the CLI is refused on a folder the app watches, and the app on one the CLI watches', async () => {
    const { page } = await openPage();
    const inbox = join(workDir, 'inbox');
    await expect.poll(() => card(page, inbox).count()).toBe(1);
    const refused = cliWatch(inbox);
    expect(await refused.exited).not.toBe(0);
    expect(refused.stderr()).toMatch(/already watched by process \d+/);

    const cliFolder = folder('cli-inbox');
    const cli = cliWatch(cliFolder);
    await expect.poll(() => cli.stderr(), { timeout: 60_000, interval: 250 }).toContain('watching');
    await addFolder(page, { path: cliFolder });
    const alert = page.getByRole('dialog', { name: 'Add watch folder' }).getByRole('alert');
    await expect.poll(() => alert.textContent(), { timeout: 20_000 }).toMatch(/already watched by another Proofdesk process .*command line.*Stop watching it there first/);
    await screenshot(page, 'watch', 'refused');
    expect(await seriousA11yProblems(page)).toEqual([]);
    cli.child.kill('SIGTERM');
    await cli.exited;
    await page.getByRole('dialog', { name: 'Add watch folder' }).getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => card(page, cliFolder).count(), { timeout: 20_000 }).toBe(1);
  }, 180_000);
});
