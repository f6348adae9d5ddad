/**
 * Words an admin understands, in Chromium through the web bridge with two engines (`local` on
 * anvil, `sepolia` never reached): staging's State cell says what went wrong in one plain
 * sentence (English and German), cut with "…" and readable in full on hover and under its
 * disclosure; engines are named by their chain ("Local chain", "Sepolia") in Jobs, the job
 * detail, the credential's Certificates table, the Schedule dialog and staging's split button;
 * the job detail leads with what the job holds, its uid under Details with Copy; a notification
 * names a job by what it holds. Screenshots in build/screenshots/plain-words-*.png.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueNowAndFinish } from '../support/issuing-fixture.js';
import { silentlyCutCells } from './cut-cells.js';
import { dropFiles } from './drop-files.js';
import { cellUnder } from './grid-cell.js';
import { builtRenderer, launchChromium, ROOT, screenshot, seriousA11yProblems } from './shell-harness.js';
import { openTwoEngineWorkspace, type TwoEngineWorkspace } from './two-engines.js';

const de = JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/de.json'), 'utf8')) as Record<string, string>;
const en = JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/en.json'), 'utf8')) as Record<string, string>;

let browser: Browser;
let workspace: TwoEngineWorkspace;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openTwoEngineWorkspace(builtRenderer());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

/** A page at 1280×800 in `locale`; `init` runs in the page before the app does. */
async function openIn(locale: string, init?: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(workspace.bridge.url);
  return { context, page, problems };
}

/** Screenshots in the light and the dark theme, each checked for cut cells and serious accessibility problems. */
async function bothThemes(page: Page, step: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await screenshot(page, 'plain-words', `${step}-${theme}`);
    expect(await silentlyCutCells(page), `${step} ${theme}`).toEqual([]);
    expect(await seriousA11yProblems(page), `${step} ${theme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('plain words', () => {
  for (const [locale, words] of [
    ['en-US', en],
    ['de-DE', de],
  ] as const) {
    it(`staging's State cell says what failed in one ${locale} sentence, cut with "…", the whole text on hover and under its disclosure`, async () => {
      const { context, page, problems } = await openIn(locale);
      const folder = join(workspace.engine.dataDir, '..', `state-${locale}`);
      mkdirSync(folder, { recursive: true });
      for (const name of ['ann', 'ben', 'cai']) writeFileSync(join(folder, `${name}.pdf`), `diploma of ${name} (${locale})`);
      // Cai's sidecar is broken: the row says its metadata file cannot be used, not "the request was not understood".
      writeFileSync(join(folder, 'cai.pdf.json'), '{ not json');
      await page.getByRole('region', { name: words['staging.drop.region'] }).waitFor();
      await dropFiles(page, folder, true);
      const staging = page.getByRole('region', { name: words['staging.region'] });
      const grid = staging.getByRole('grid', { name: words['staging.table'] });
      const ann = grid.getByRole('row').filter({ hasText: 'ann.pdf' });
      await ann.waitFor({ timeout: 30_000 });

      // A tag the spec refuses: the state cell says so as the admin types, in words.
      await ann.getByRole('textbox', { name: words['staging.row.tags']!.replace('{name}', 'ann.pdf') }).fill('bad!');
      const headline = words['error.headline.invalid_tag']!;
      const state = await cellUnder(grid, ann, words['staging.column.state']!);
      await expect.poll(() => state.innerText()).toBe(headline);
      const sentence = state.locator('summary');
      const title = (await sentence.getAttribute('title')) ?? '';
      expect(title).toContain(headline);
      expect(title).toContain('invalid_tag');
      expect(title).toContain('"bad!"');
      // Too long for the cell: cut with "…", not sliced.
      // (The window's getComputedStyle, typed here: the tests compile without the DOM's types.)
      const cut = await sentence.evaluate((el) => [(globalThis as unknown as { getComputedStyle(e: unknown): { textOverflow: string } }).getComputedStyle(el).textOverflow, el.scrollWidth > el.clientWidth]);
      expect(cut).toEqual(['ellipsis', true]);
      const cai = grid.getByRole('row').filter({ hasText: 'cai.pdf' });
      const caiState = await cellUnder(grid, cai, words['staging.column.state']!);
      expect(await caiState.innerText()).toBe(words['staging.row.metadataFileProblem']);
      expect(await caiState.locator('summary').getAttribute('title')).toContain('no_json');
      await bothThemes(page, `${locale}-state-cut`);

      // Created: main refuses the row, and the cell says so the same way, announced.
      await staging.getByRole('group', { name: words['staging.createGroup'] }).getByRole('button', { name: words['staging.create'], exact: true }).click();
      await expect.poll(() => staging.getByRole('alert').count(), { timeout: 30_000 }).toBe(2);
      await expect.poll(() => state.innerText()).toBe(headline);

      // The disclosure, by keyboard: main's own text and the spec's id.
      await sentence.focus();
      await page.keyboard.press('Enter');
      const opened = await state.innerText();
      expect(opened).toContain(`${words['error.id']} invalid_tag`);
      expect(opened).toContain('"bad!"');
      await bothThemes(page, `${locale}-state-details`);
      expect(problems).toEqual([]);
      await context.close();
    }, 120_000);
  }

  it('names engines by their chain, leads the job detail with what the job holds, and notifies a job by its name', async () => {
    const service = workspace.service;
    const made = await service.createCredentials(
      ['Ada', 'Ben', 'Cai', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jon', 'Kim', 'Lou'].map((name) => ({ title: `Diploma of ${name}`, metadata: { student: name } })),
    );
    const uids = made.map((c) => c.uid);
    await service.scheduleCredentials({ engine: 'sepolia', credentials: uids.slice(0, 3) });
    await service.scheduleCredentials({ engine: 'local', credentials: uids });

    // Stand-ins: the browser's Notification API (leave given) and the window's focus (headless
    // Chromium has no other window to lose it to).
    const { context, page, problems } = await openIn(
      'en-US',
      `window.__notified = []; window.__standInFocus = true;
      class StandInNotification {
        static permission = 'granted';
        static async requestPermission() { return 'granted'; }
        constructor(title, options) { window.__notified.push({ title, body: options && options.body }); }
      }
      Object.defineProperty(window, 'Notification', { value: StandInNotification, configurable: true, writable: true });
      document.hasFocus = () => window.__standInFocus;`,
    );
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    const jobs = page.getByRole('grid', { name: 'Jobs' });
    await expect.poll(() => jobs.getByRole('row').count()).toBe(3);

    // Issued while the window is in the background: the notification names the job by what it holds.
    await page.evaluate('window.__standInFocus = false');
    await issueNowAndFinish(workspace.engine, service, 'local');
    await expect
      .poll(() => page.evaluate('window.__notified'), { timeout: 30_000 })
      .toContainEqual({ title: 'Diploma of Ada and 11 more: issued', body: 'Issued on Local chain: its proofs can be exported.' });
    await page.evaluate('window.__standInFocus = true');

    // The Engine column: the chain's name, the ids on hover.
    const finished = jobs.getByRole('row').filter({ hasText: /^finished/ });
    const scheduled = jobs.getByRole('row').filter({ hasText: /^scheduled/ });
    await expect.poll(async () => (await cellUnder(jobs, finished, 'Engine')).innerText(), { timeout: 20_000 }).toBe('Local chain');
    expect(await (await cellUnder(jobs, scheduled, 'Engine')).innerText()).toBe('Sepolia');

    // The job detail leads with what the job is; the uid is under Details, with Copy.
    await finished.click();
    const detail = page.getByRole('complementary', { name: 'Job detail' });
    await expect.poll(() => detail.getByRole('heading', { level: 2 }).innerText()).toBe('Diploma of Ada, Diploma of Ben … (12 credentials)');
    expect(await detail.getByTestId('job-status').innerText()).toBe('finished');
    expect(await detail.getByTestId('job-chain').innerText()).toBe('Local chain');
    expect(await detail.getByTestId('job-chain').getAttribute('title')).toBe('Engine local, chain id 31337');
    const [job] = (await service.listJobs({ status: 'finished' })).items;
    const shown = await detail.innerText();
    expect(shown).not.toContain(job!.uid);
    expect(shown).not.toMatch(/0x[0-9a-f]{64}/);
    expect(shown).toContain('Sent (this chain has no block explorer)');
    await bothThemes(page, 'job-detail');
    await detail.getByText('Details', { exact: true }).click();
    expect(await detail.getByTestId('job-uid').innerText()).toBe(job!.uid);
    expect(await detail.getByTestId('job-transaction').innerText()).toMatch(/^0x[0-9a-f]{64}$/);
    await detail.getByRole('button', { name: 'Copy job id' }).click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(job!.uid);
    await bothThemes(page, 'job-detail-details');

    // The credential's Certificates table and the Schedule dialog: chains by name; the checkbox keeps the engine id as its name.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Records' }).click();
    const records = page.getByRole('grid', { name: 'Credentials' });
    await records.getByRole('row').filter({ hasText: 'Diploma of Ada' }).dblclick();
    const certificates = page.getByRole('complementary', { name: 'Credential detail' }).getByRole('table', { name: 'Certificates' });
    await expect.poll(() => certificates.getByRole('rowheader').allInnerTexts()).toEqual(['Local chain', 'Sepolia']);
    // The credential's uid is under Details, with Copy: not the first thing the panel says.
    const credential = page.getByRole('complementary', { name: 'Credential detail' });
    expect(await credential.innerText()).not.toContain(uids[0]!);
    await credential.getByText('Details', { exact: true }).click();
    expect(await credential.getByTestId('credential-uid').innerText()).toBe(uids[0]);
    await credential.getByRole('button', { name: 'Copy credential id' }).click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(uids[0]);
    await bothThemes(page, 'certificates');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule' });
    await dialog.getByRole('checkbox', { name: 'local' }).waitFor();
    const labels = await dialog.locator('label').allInnerTexts();
    expect(labels.map((l) => l.trim())).toEqual(['Local chain (demo)', 'Sepolia (demo)']);
    await bothThemes(page, 'schedule-dialog');
    await page.keyboard.press('Escape');
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('names the chain and the job in German too, and words a refused call in German', async () => {
    const { context, page, problems } = await openIn('de-DE');
    await page.getByRole('navigation', { name: de['shell.sidebar.label'] }).getByRole('button', { name: de['shell.section.jobs'], exact: true }).click();
    const jobs = page.getByRole('grid', { name: de['jobs.table.label'] });
    const finished = jobs.getByRole('row').filter({ hasText: /^fertig/ });
    await expect.poll(async () => (await cellUnder(jobs, finished, de['jobs.column.engine']!)).innerText(), { timeout: 20_000 }).toBe('Lokale Chain');
    await finished.click();
    const detail = page.getByRole('complementary', { name: de['jobs.detail.label'] });
    await expect.poll(() => detail.getByTestId('job-chain').innerText()).toBe('Lokale Chain');
    await bothThemes(page, 'de-job-detail');

    // A refused call in Verify: the catalogue's German sentence for its id, not main's English with "(id)".
    await page.getByRole('navigation', { name: de['shell.sidebar.label'] }).getByRole('button', { name: de['shell.section.verify'], exact: true }).click();
    await page.getByText(de['verify.endpoints.summary']!.replace(/\{count.*\}\)$/, ''), { exact: false }).click();
    await page.getByRole('textbox', { name: de['verify.endpoints.engine'], exact: true }).fill('keine engine!');
    await page.getByRole('textbox', { name: de['verify.endpoints.rpc'], exact: true }).fill('http://127.0.0.1:9');
    await page.getByRole('button', { name: de['verify.endpoints.use'] }).click();
    const refused = page.locator('.error-panel[role=alert]');
    await refused.waitFor();
    const id = (await refused.getAttribute('data-error-id'))!;
    expect(await refused.locator('.error-headline').innerText()).toBe(de[`error.headline.${id}`]);
    expect(await refused.innerText()).not.toContain(`(${id})`);
    await bothThemes(page, 'de-verify-refused');
    // The browser logs the bridge's 400 for the refused call: that one is the point of the step.
    expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([]);
    await context.close();
  }, 120_000);
});
