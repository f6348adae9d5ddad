/**
 * CSV import finished in the app, in Debian's Chromium through the web bridge on a real engine:
 * a file of 50 rows of which 3 are refused (a bad date, a missing title, a link to nothing), the
 * "Errors only" filter, two cells fixed in place with the keyboard (arrow keys move between cells,
 * Escape cancels an edit), the live count, Import in a footer that stays in view at 1280×800, 49
 * created and 1 still refused, the file on disk unchanged. Screenshots in both themes and in German; axe-core clean.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtRenderer, launchChromium, openWorkspace, ROOT, screenshot, seriousA11yProblems, type Workspace } from './shell-harness.js';

const de = JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/de.json'), 'utf8')) as Record<string, string>;

const UNKNOWN = '018f0000-0000-7000-8000-00000000dead';
/** 50 rows; row 7 has a date no one can read, row 23 no title, row 41 links to no credential. */
const ROWS = Array.from({ length: 50 }, (_, i) => {
  const n = i + 1;
  const title = n === 23 ? '' : `Transcript ${n}`;
  const expiry = n === 7 ? '31/12/2030' : '';
  const link = n === 41 ? UNKNOWN : '';
  return `${title},t${n},${expiry},${link},Student ${n},Mathematics`;
});
const TEXT = ['title,key,expiry_date,link,meta.student,meta.course', ...ROWS].join('\n') + '\n';

let browser: Browser;
let workspace: Workspace;
let csv: string;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
  csv = join(workspace.workDir, 'transcripts-2026.csv');
  writeFileSync(csv, TEXT);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

async function openDialog(locale: string, colorScheme: 'light' | 'dark'): Promise<{ page: Page; dialog: Locator; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale, colorScheme });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(workspace.bridge.url);
  await page.setInputFiles(`input[aria-label="${locale.startsWith('de') ? de['csvImport.input'] : 'CSV file to import'}"]`, csv);
  const dialog = page.getByRole('dialog', { name: locale.startsWith('de') ? de['csvImport.button'] : 'Import CSV' });
  await dialog.getByRole('table').getByRole('row').nth(3).waitFor();
  return { page, dialog, problems };
}

/** Whether the whole of an element is inside the 1280×800 window. */
async function inWindow(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= 800;
}

const credentialCount = async () => (await workspace.engine.serviceFor(workspace.partner.id).listCredentials({ per_page: 1 })).total_items;

describe('CSV import', () => {
  it('fixes refused cells in place, imports what then passes and shows the one still refused', async () => {
    const { page, dialog, problems } = await openDialog('en-US', 'light');
    const table = dialog.getByRole('table', { name: 'Preview' });
    const summary = dialog.getByRole('status').first();
    expect(await summary.textContent()).toBe('transcripts-2026.csv: 50 rows, 47 to import, 3 to fix.');
    const importButton = dialog.getByRole('button', { name: 'Import 47 rows' });
    expect(await inWindow(importButton)).toBe(true);
    // However far the table is scrolled, Import stays in view.
    await table.getByRole('row').last().scrollIntoViewIfNeeded();
    expect(await inWindow(importButton)).toBe(true);
    await screenshot(page, 'csv-import', 'light-1-preview');

    await dialog.getByRole('checkbox', { name: 'Errors only (3)' }).check();
    const rows = table.getByRole('row');
    await expect.poll(() => rows.count()).toBe(4);
    expect(await rows.allTextContents()).toEqual([
      expect.stringContaining('Check'),
      expect.stringContaining('expiry_date: Needs a date in the future, written like 2030-06-30.'),
      expect.stringContaining('title: A title is needed.'),
      expect.stringContaining('link: Links to nothing: no row has this key and no credential has this id.'),
    ]);
    // The spec's id is under Details, not in the sentence.
    const dateRow = rows.filter({ hasText: 'Needs a date' });
    expect(await dateRow.textContent()).not.toMatch(/^.*invalid_expiry_date.*Needs/);
    await dateRow.getByText('Details').click();
    expect(await dateRow.locator('details').textContent()).toContain('invalid_expiry_date');
    // The wrong cell says why to a screen reader too.
    const dateCell = dateRow.getByRole('button', { name: '31/12/2030' });
    const describedBy = (await dateCell.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain('Needs a date in the future');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await screenshot(page, 'csv-import', 'light-2-errors-only');

    // F2 edits the date; Enter keeps it; the row is checked again and stays in view, fixed.
    await dateCell.focus();
    await page.keyboard.press('F2');
    const dateInput = dateRow.getByRole('textbox', { name: 'expiry_date in row 7' });
    await dateInput.fill('2030-12-31');
    await page.keyboard.press('Enter');
    await expect.poll(() => summary.textContent()).toBe('transcripts-2026.csv: 50 rows, 48 to import, 2 to fix.');
    await expect.poll(() => rows.nth(1).textContent()).toContain('Fixed, ready');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('2030-12-31');

    // Arrow keys move between cells as in a spreadsheet: from row 7's date to row 23's, then to its title.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await page.evaluate('document.activeElement?.id')).toBe('csv-cell-23-title');
    // Escape cancels an edit (and leaves the dialog open); Enter starts one.
    const titleRow = rows.filter({ hasText: 'A title is needed' });
    await page.keyboard.press('Enter');
    await page.keyboard.type('Oops');
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    expect(await titleRow.getByRole('textbox').count()).toBe(0);
    expect(await summary.textContent()).toContain('48 to import, 2 to fix');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Transcript 23');
    await page.keyboard.press('Enter');
    await expect.poll(() => summary.textContent()).toBe('transcripts-2026.csv: 50 rows, 49 to import, 1 to fix.');
    expect(await rows.count()).toBe(4);
    await screenshot(page, 'csv-import', 'light-3-fixed');

    const before = await credentialCount();
    await dialog.getByRole('button', { name: 'Import 49 rows' }).click();
    const result = dialog.getByRole('region', { name: 'Import result' });
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toBe('Created 49, refused 1.');
    expect(await credentialCount()).toBe(before + 49);
    const service = workspace.engine.serviceFor(workspace.partner.id);
    const titles = (await service.listCredentials({ per_page: 0 })).items.map((c) => c.title);
    expect(titles).toContain('Transcript 23');
    expect(titles).not.toContain('Transcript 41');
    // Shown truly: the two fixed rows created, the one link to nothing still refused, nothing left to import.
    await expect.poll(() => summary.textContent()).toBe('transcripts-2026.csv: 50 rows, 0 to import, 1 to fix, 49 created.');
    expect(await rows.nth(1).textContent()).toContain('Created');
    expect(await rows.nth(2).textContent()).toContain('Created');
    expect(await rows.nth(3).textContent()).toContain('Links to nothing');
    expect(await dialog.getByRole('button', { name: 'Import 0 rows' }).isDisabled()).toBe(true);
    // The file on disk was never written.
    expect(readFileSync(csv, 'utf8')).toBe(TEXT);
    expect(await seriousA11yProblems(page)).toEqual([]);
    await screenshot(page, 'csv-import', 'light-4-imported');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    expect(await dialog.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('reads the same in the dark theme and in German, with the footer in view', async () => {
    for (const [locale, theme] of [
      ['en-US', 'dark'],
      ['de-DE', 'light'],
    ] as const) {
      const { page, dialog, problems } = await openDialog(locale, theme);
      const german = locale === 'de-DE';
      await dialog.getByRole('checkbox', { name: german ? 'Nur Fehler (3)' : 'Errors only (3)' }).check();
      await expect.poll(() => dialog.getByRole('table').getByRole('row').count()).toBe(4);
      const importButton = dialog.getByRole('button', { name: german ? '47 Zeilen importieren' : 'Import 47 rows' });
      expect(await inWindow(importButton)).toBe(true);
      if (german) expect(await dialog.textContent()).toContain('Ein Titel fehlt.');
      await dialog.getByRole('table').getByRole('row').nth(1).locator('summary').click();
      expect(await seriousA11yProblems(page)).toEqual([]);
      await screenshot(page, 'csv-import', german ? 'german-errors-only' : 'dark-errors-only');
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });
});
