/**
 * State the views keep from what they show, in Chromium through the web bridge on a real engine:
 * when what it came from changes elsewhere, it changes in the same frame, never a frame later.
 * Activity's filter bar takes a filter applied from a row's menu, Activity's selection empties
 * as the next page shows, and Settings › Partner's interval is the new Partner's as it appears.
 * Each is read at the moment the page changes (a MutationObserver in the page). Screenshots in
 * build/screenshots/fields-follow-*.png; axe-core on each view.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellUnder } from './grid-cell.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';
import { valueWhen } from './values-when.js';

let browser: Browser;
let workspace: Workspace;
/** A second Partner of the data directory, issuing daily (the first issues hourly). */
let bravoId: string;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
  // More than a page of activity (100 entries a page).
  await seedCredentials(workspace, 120, (i) => ({ title: `Diploma ${i}`, metadata: { n: i } }));
  bravoId = (await workspace.engine.addPartner({ name: 'Bravo Institute', issuingIntervalSeconds: 86_400 })).partner_id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

const grid = (page: Page) => page.getByRole('grid', { name: 'Activity' });
const dataRows = (page: Page) => grid(page).getByRole('row').filter({ has: page.getByRole('gridcell') });

async function openActivity(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Activity' }).click();
  await page.getByText('Page 1 of 2 · 120 entries').waitFor();
}

describe('activity', () => {
  it("shows a row menu's filter in the filter bar as the menu closes", async () => {
    const { page, problems } = await openPage(browser, workspace);
    await openActivity(page);
    const row = dataRows(page).first();
    // The cell shows the credential's title; its uid is in the tooltip.
    const uid = /\(([0-9a-f-]{36})\)$/.exec((await (await cellUnder(grid(page), row, 'Credential')).getAttribute('title'))!)?.[1];
    expect(uid).toMatch(/^[0-9a-f-]{36}$/);
    await row.click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Activity entry' });
    await menu.waitFor();
    const shown = await valueWhen<string>(page, `!document.querySelector('[role=menu]')`, `document.querySelector('form[role=search] input[placeholder="credential id"]').value`);
    await menu.getByRole('menuitem', { name: "Show this credential's activity" }).click();
    // The frame without the menu already shows the filter it applied.
    expect(await shown()).toBe(uid);
    await expect.poll(() => dataRows(page).count()).toBe(1);
    expect(await page.getByRole('textbox', { name: 'Credential' }).inputValue()).toBe(uid);
    await screenshot(page, 'fields-follow', 'activity-filtered');
    expect(await seriousA11yProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the next page with nothing of it selected', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await openActivity(page);
    await dataRows(page).nth(2).click();
    await expect.poll(() => grid(page).locator('[role=row][aria-selected=true]').count()).toBe(1);
    const selectedRows = await valueWhen<number>(
      page,
      `[...document.querySelectorAll('nav span')].some((s) => s.textContent.startsWith('Page 2 of 2'))`,
      `document.querySelectorAll('[role=grid] [role=row][aria-selected=true]').length`,
    );
    await page.getByRole('navigation', { name: 'Activity pages' }).getByRole('button', { name: 'Next page' }).click();
    // The frame that shows page 2 marks none of its rows as selected (the selection was page 1's third row).
    expect(await selectedRows()).toBe(0);
    await expect.poll(() => dataRows(page).count()).toBe(20);
    await screenshot(page, 'fields-follow', 'activity-page-2');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('Settings › Partner', () => {
  it("shows the new Partner's issuing interval as the Partner shows", async () => {
    const { page, problems } = await openPage(browser, workspace);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Partner' }).waitFor();
    const interval = page.getByRole('textbox', { name: 'Issuing interval' });
    await expect.poll(() => interval.inputValue()).toBe('1h');
    const shown = await valueWhen<string | null>(
      page,
      `[...document.querySelectorAll('code')].some((c) => c.textContent === ${JSON.stringify(bravoId)})`,
      `[...document.querySelectorAll('label')].find((l) => l.textContent === 'Issuing interval')?.control?.value ?? null`,
    );
    await page.getByRole('combobox', { name: 'Active Partner' }).selectOption({ label: 'Bravo Institute' });
    // The frame that names Bravo's id shows Bravo's interval (never Acme's, nor an empty field).
    expect(await shown()).toBe('1d');
    await expect.poll(() => interval.inputValue()).toBe('1d');
    await screenshot(page, 'fields-follow', 'partner-switched-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'fields-follow', 'partner-switched-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await seriousA11yProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
