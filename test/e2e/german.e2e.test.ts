/**
 * The window in German: the browser's language picks it (the web bridge has no OS language),
 * Settings › Language overrides it and is remembered, and every view is screenshotted in both
 * themes at 1280×800 (build/screenshots/german-*.png), with no silently cut table cell and no
 * serious accessibility problem.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentlyCutCells } from './cut-cells.js';
import { builtRenderer, launchChromium, openWorkspace, ROOT, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';

const de = JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/de.json'), 'utf8')) as Record<string, string>;

let browser: Browser;
let workspace: Workspace;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer(), { name: 'Technische Hochschule Nürnberg' });
  await seedCredentials(workspace, 40, (i) => ({
    title: `Abschlusszeugnis Maschinenbau und Verfahrenstechnik ${i}`,
    metadata: { student: `S${i}` },
    tags: ['jahrgang-2026', i % 2 ? 'wintersemester' : 'sommersemester'],
  }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

/** A page in a browser whose language is `locale`, at 1280×800 in one theme. */
async function openIn(locale: string, colorScheme: 'light' | 'dark'): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale, colorScheme });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(workspace.bridge.url);
  return { page, problems };
}

const SECTIONS = [
  ['records', de['shell.section.records']],
  ['jobs', de['shell.section.jobs']],
  ['verify', de['shell.section.verify']],
  ['watch-folders', de['shell.section.watch']],
  ['settings', de['shell.section.settings']],
  ['activity', de['shell.section.activity']],
] as const;

describe('the window in German', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`shows every view in German in the ${theme} theme, with no cut cell and no serious accessibility problem`, async () => {
      const { page, problems } = await openIn('de-DE', theme);
      await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('de');
      const sections = page.getByRole('navigation', { name: de['shell.sidebar.label'] });
      await expect.poll(() => page.getByRole('grid', { name: de['records.table.label'] }).getByRole('row').count()).toBeGreaterThan(3);
      for (const [file, name] of SECTIONS) {
        await sections.getByRole('button', { name, exact: true }).click();
        await expect.poll(() => page.locator('main h1').count()).toBeGreaterThan(0);
        await screenshot(page, 'german', `${theme}-${file}`);
        expect(await silentlyCutCells(page), file).toEqual([]);
        expect(await seriousA11yProblems(page), file).toEqual([]);
      }
      // A German count: digit grouping and plural from the catalogue.
      await sections.getByRole('button', { name: de['shell.section.records'], exact: true }).click();
      await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('40 Nachweise');
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it('takes the language chosen in Settings over the browser’s, and remembers it', async () => {
    const { page } = await openIn('en-US', 'light');
    const sidebar = page.getByRole('navigation', { name: 'Sections' });
    await sidebar.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('de');
    await expect.poll(() => page.getByRole('navigation', { name: 'Bereiche' }).getByRole('button', { name: 'Datensätze' }).count()).toBe(1);

    await page.reload();
    await expect.poll(() => page.getByRole('navigation', { name: 'Bereiche' }).getByRole('button', { name: 'Einstellungen' }).count()).toBe(1);
    await page.getByRole('navigation', { name: 'Bereiche' }).getByRole('button', { name: 'Einstellungen' }).click();
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('system');
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('en');
    await expect.poll(() => sidebar.getByRole('button', { name: 'Records', exact: true }).count()).toBe(1);
    await page.context().close();
  });
});
