/**
 * One date format, and jobs that explain themselves, in Chromium through the web bridge:
 * a late-evening upload in New York shows its local day; the German date filter takes
 * 24.12.2026 typed or picked from its calendar; a job is named by its tags with its credential
 * count and when it is due, and `Issue now` is off with the reason while its chain is
 * unreachable. Screenshots in build/screenshots/dates-and-jobs-*.png, both themes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../main/app/app-context.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import { ENGINES_FILE, Engine, ManualClock } from '../../main/engine/index.js';
import { MemorySecretStore } from '../../main/secrets/index.js';
import { SECOND_ENGINE } from '../support/engine-fixture.js';
import { builtRenderer, launchChromium, ROOT, screenshot, seriousA11yProblems } from './shell-harness.js';
import { cellUnder } from './grid-cell.js';

const de = JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/de.json'), 'utf8')) as Record<string, string>;

/** 22:30 on Nov 26 in New York (UTC-5): already Nov 27 in UTC. */
const EVENING_IN_NEW_YORK = Date.parse('2026-11-27T03:30:00Z');
/** Noon on Christmas Eve in Berlin. */
const CHRISTMAS_EVE = Date.parse('2026-12-24T11:00:00Z');

let browser: Browser;
let engine: Engine;
let bridge: WebBridge;
let workDir: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'proofdesk-dates-jobs-'));
  const dataDir = join(workDir, 'data');
  const clock = new ManualClock(EVENING_IN_NEW_YORK);
  const options = { dataDir, clock, sweepIntervalMs: false as const, secrets: new MemorySecretStore(), issuing: { onError: () => undefined } };
  // Open once to lay out the data directory, then again with a second, unreachable engine.
  await Engine.open(options).close();
  writeFileSync(join(dataDir, ENGINES_FILE), JSON.stringify([SECOND_ENGINE]));
  engine = Engine.open(options);
  const added = await engine.addPartner({ name: 'Acme University', issuingIntervalSeconds: 3600 });
  const partner = { id: added.partner_id, name: added.name };
  const service = engine.serviceFor(partner.id);
  await service.createCredentials([{ title: 'Evening upload', metadata: { student: 'E' } }]);
  clock.set(CHRISTMAS_EVE);
  const diplomas = await service.createCredentials(
    Array.from({ length: 3 }, (_, i) => ({ title: `Christmas diploma ${i}`, metadata: { student: `C${i}` }, tags: ['diplomas-2026'] })),
  );
  const job = await service.scheduleCredentials({ engine: SECOND_ENGINE.id, credentials: diplomas.map((c) => c.uid) });
  await service.addJobTags({ jobs: [{ job_uid: job.uid, tags: ['diplomas-2026'] }] });
  const context = createAppContext({ engine, partner, keyStore: 'keychain', issuingOff: null });
  bridge = await startWebBridge({ handlers: createIpcHandlers(context, { chainProbeEveryMs: 500 }), events: context.events, rendererDir: builtRenderer() });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await engine?.close();
  rmSync(workDir, { recursive: true, force: true });
});

async function open(options: { timezoneId: string; locale: string; colorScheme: 'light' | 'dark' }): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  // An action that cannot happen fails in 15 s with what it waited for, not at the test's timeout.
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  return { page, problems };
}

describe('one date format', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows a late-evening upload in New York on its local day, not the UTC day (${colorScheme})`, async () => {
      const { page, problems } = await open({ timezoneId: 'America/New_York', locale: 'en-US', colorScheme });
      const row = page.getByRole('grid', { name: 'Credentials' }).getByRole('row').filter({ hasText: 'Evening upload' });
      await expect.poll(() => row.textContent()).toContain('Nov 26, 2026');
      expect(await row.textContent()).not.toContain('Nov 27');
      await row.dblclick();
      // The detail panel: the local day and time, no ISO timestamp.
      const detail = page.getByRole('complementary', { name: 'Credential detail' });
      await expect.poll(() => detail.textContent()).toContain('Nov 26, 2026, 10:30 PM');
      expect(await detail.textContent()).not.toContain('2026-11-27T03:30');
      await screenshot(page, 'dates-and-jobs', `new-york-${colorScheme}`);
      // A dialog in the one layout (title, body, footer with Cancel then the primary action): its dates local too.
      await page.getByRole('button', { name: 'Schedule', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Schedule' });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await dialog.textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      expect(await seriousA11yProblems(page)).toEqual([]);
      await screenshot(page, 'dates-and-jobs', `dialog-${colorScheme}`);
      await page.keyboard.press('Escape');
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`takes 24.12.2026 in the German date filter, typed or picked from its calendar (${colorScheme})`, async () => {
      const { page, problems } = await open({ timezoneId: 'Europe/Berlin', locale: 'de-DE', colorScheme });
      const grid = page.getByRole('grid', { name: de['records.table.label'] });
      await expect.poll(() => grid.getByRole('row').count()).toBe(5); // the header row and four credentials
      const from = page.getByRole('textbox', { name: de['records.filter.uploadedFrom'] });
      expect(await from.getAttribute('placeholder')).toBe('TT.MM.JJJJ');
      await from.fill('24.12.2026');
      await from.press('Enter');
      await expect.poll(() => grid.getByRole('row').count()).toBe(4); // the evening upload is left out
      expect(await from.inputValue()).toBe('24.12.2026');

      // A day that is not one is refused with the expected form and changes nothing.
      const to = page.getByRole('textbox', { name: de['records.filter.uploadedTo'] });
      await to.fill('31.02.2026');
      await to.press('Enter');
      expect(await to.getAttribute('aria-invalid')).toBe('true');
      expect(await grid.getByRole('row').count()).toBe(4);

      // The calendar: in German, on the month of the range's start; picking the 24th sets its end.
      await to.fill('');
      await to.press('Enter');
      await page.getByRole('button', { name: `${de['records.filter.uploadedTo']} wählen` }).click();
      const calendar = page.getByRole('dialog', { name: `Kalender für ${de['records.filter.uploadedTo']}` });
      await expect.poll(() => calendar.textContent()).toContain('Dezember 2026');
      expect(await seriousA11yProblems(page)).toEqual([]);
      await screenshot(page, 'dates-and-jobs', `german-calendar-${colorScheme}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => calendar.count()).toBe(0);
      await page.getByRole('button', { name: `${de['records.filter.uploadedTo']} wählen` }).click();
      await calendar.getByRole('button', { name: /24\. Dezember 2026/ }).click();
      await expect.poll(() => to.inputValue()).toBe('24.12.2026');
      await expect.poll(() => grid.getByRole('row').count()).toBe(4);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});

describe('jobs that explain themselves', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`names a job by its tags with its count and due time, and turns Issue now off while its chain is unreachable (${colorScheme})`, async () => {
      const { page, problems } = await open({ timezoneId: 'Europe/Berlin', locale: 'en-US', colorScheme });
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs', exact: true }).click();
      const grid = page.getByRole('grid', { name: 'Jobs' });
      const row = grid.getByRole('row').filter({ hasText: 'diplomas-2026' });
      await expect.poll(() => row.count()).toBe(1);
      // Its name, its count in the Credentials column, where it stands.
      await expect.poll(async () => (await cellUnder(grid, row, 'Job')).textContent()).toBe('diplomas-2026');
      expect(await (await cellUnder(grid, row, 'Credentials')).textContent()).toBe('3');
      // Due an hour after Christmas Eve noon, Berlin time: weeks away, so its day.
      expect(await row.textContent()).toContain('scheduled for Dec 24, 2026');
      await expect.poll(() => page.getByRole('contentinfo').textContent(), { timeout: 20_000 }).toMatch(/sepolia[^]*unreachable|unreachable[^]*sepolia/i);
      await row.click();
      const detail = page.getByRole('complementary', { name: 'Job detail' });
      await expect.poll(() => detail.getByRole('heading', { level: 2 }).textContent()).toBe('diplomas-2026 (3 credentials)');
      const issueNow = detail.getByRole('button', { name: 'Issue now' });
      await expect.poll(() => issueNow.isDisabled()).toBe(true);
      expect(await detail.getByTestId('issue-now-blocked').textContent()).toMatch(/chain cannot be reached/);
      expect(await issueNow.getAttribute('aria-describedby')).toBe(await detail.getByTestId('issue-now-blocked').getAttribute('id'));
      expect(await seriousA11yProblems(page)).toEqual([]);
      await screenshot(page, 'dates-and-jobs', `jobs-${colorScheme}`);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
