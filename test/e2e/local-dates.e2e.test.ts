/**
 * Dates in the window are the browser's local day in its locale, not the UTC day: the same
 * upload shows on two different days in two time zones. In Chromium through the web bridge.
 * Screenshots in build/screenshots/local-dates-*.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtRenderer, launchChromium, screenshot } from './shell-harness.js';
import { openTwoEngineWorkspace, type TwoEngineWorkspace } from './two-engines.js';
import { cellUnder } from './grid-cell.js';

const TITLE = 'Master of Science in Environmental Engineering';

let browser: Browser;
let workspace: TwoEngineWorkspace;

beforeAll(async () => {
  const rendererDir = builtRenderer();
  browser = await launchChromium();
  workspace = await openTwoEngineWorkspace(rendererDir);
  await workspace.service.createCredentials([{ title: TITLE, metadata: { student: 'A' } }]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

describe('dates in the Records grid', () => {
  it('show the local day in the time zone and locale of the browser', async () => {
    // UTC+14 and UTC-10: the same instant falls on two different days, at any hour of a run.
    // The second in the dark theme, for its screenshot.
    const uploaded = (await workspace.service.listCredentials({})).items[0]!.upload_date;
    const shown: string[] = [];
    for (const [timezoneId, colorScheme] of [['Pacific/Kiritimati', 'light'], ['Pacific/Honolulu', 'dark']] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId, locale: 'en-US', colorScheme });
      const page = await context.newPage();
      await page.goto(workspace.bridge.url);
      const grid = page.getByRole('grid', { name: 'Credentials' });
      const row = grid.getByRole('row').filter({ hasText: TITLE });
      const expected = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: timezoneId }).format(new Date(uploaded));
      await row.waitFor();
      await expect.poll(async () => (await cellUnder(grid, row, 'Uploaded')).textContent()).toBe(expected);
      shown.push(expected);
      await screenshot(page, 'local-dates', `records-${colorScheme}`);
      await context.close();
    }
    expect(shown[0]).not.toBe(shown[1]);
  });
});
