/**
 * Staging's text fields in Chromium through the web bridge on a real engine: a row's long tag
 * list and long title end in "…" with the whole text on hover while the field is not being
 * edited (English and German, light and dark, at 1280×800: screenshots
 * build/screenshots/staging-fields-*.png), and expiry days pasted from a spreadsheet show in the
 * fields in the same frame as the status line that announces the paste.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentlyCutCells, silentlyCutFields } from './cut-cells.js';
import { dropFiles } from './drop-files.js';
import { ROOT, builtRenderer, launchChromium, openWorkspace, screenshot, seriousA11yProblems, type Workspace } from './shell-harness.js';
import { valuesWhenSaid } from './values-when.js';

type Catalogue = Record<string, string>;
const catalogues: Record<string, Catalogue> = {
  'en-US': JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/en.json'), 'utf8')) as Catalogue,
  'de-DE': JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/de.json'), 'utf8')) as Catalogue,
};

/** More tags than the Tags column holds at 1280 px. */
const MANY_TAGS = 'bachelor-of-science, computer-science, spring-term-2027, honours, exchange-programme, deans-list';
const LONG_TITLE = 'Bachelor of Science in Computer Science with Honours, Spring Term 2027';

let browser: Browser;
let workspace: Workspace;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

/** A page in `locale` and `theme` at 1280×800 with three files staged (ann.pdf, ben.pdf, cai.pdf) from the folder `name`. */
async function stageThree(locale: string, theme: 'light' | 'dark', name: string): Promise<{ page: Page; problems: string[]; field: (key: string, file: string) => ReturnType<Page['getByRole']> }> {
  const words = catalogues[locale]!;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale, colorScheme: theme });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(workspace.bridge.url);
  await page.getByRole('region', { name: words['staging.drop.region'] }).waitFor();
  const folder = join(workspace.workDir, name);
  mkdirSync(folder, { recursive: true });
  for (const file of ['ann', 'ben', 'cai']) writeFileSync(join(folder, `${file}.pdf`), `diploma of ${file} (${name})`);
  await dropFiles(page, folder, true);
  const staging = page.getByRole('region', { name: words['staging.region'] });
  const field = (key: string, file: string) => staging.getByRole('textbox', { name: words[key]!.replace('{name}', file), exact: true });
  await field('staging.row.title', 'cai.pdf').waitFor({ timeout: 30_000 });
  return { page, problems, field };
}

/** What the field named `label` says of itself: whether its text runs past its box, how it ends there, how far it is scrolled. (A string: the tests compile without the DOM's types.) */
function fieldBox(page: Page, label: string): Promise<{ overflows: boolean; textOverflow: string; scrollLeft: number }> {
  return page.evaluate(`(() => {
    const f = document.querySelector('[aria-label=${JSON.stringify(label)}]');
    return { overflows: f.scrollWidth > f.clientWidth + 1, textOverflow: getComputedStyle(f).textOverflow, scrollLeft: f.scrollLeft };
  })()`) as Promise<{ overflows: boolean; textOverflow: string; scrollLeft: number }>;
}

describe('staging fields with more text than they show', () => {
  for (const [locale, theme] of [
    ['en-US', 'light'],
    ['en-US', 'dark'],
    ['de-DE', 'light'],
    ['de-DE', 'dark'],
  ] as const) {
    it(`end in "…" with the whole text on hover once left (${locale}, ${theme})`, async () => {
      const words = catalogues[locale]!;
      const { page, problems, field } = await stageThree(locale, theme, `long-${locale}-${theme}`);
      const tags = field('staging.row.tags', 'ann.pdf');
      await tags.fill(MANY_TAGS);
      await field('staging.row.title', 'ben.pdf').fill(LONG_TITLE);
      // Left for another row's field: the list is no longer being edited.
      await field('staging.row.tags', 'cai.pdf').click();

      // The list is longer than its field, and says so: "…", every tag in the title.
      const tagsLabel = words['staging.row.tags']!.replace('{name}', 'ann.pdf');
      expect(await fieldBox(page, tagsLabel)).toMatchObject({ overflows: true, textOverflow: 'ellipsis' });
      expect(await tags.getAttribute('title')).toBe(MANY_TAGS);
      expect(await field('staging.row.title', 'ben.pdf').getAttribute('title')).toBe(LONG_TITLE);
      // An empty list's hint, cut too, reads whole on hover.
      expect(await field('staging.row.tags', 'ben.pdf').getAttribute('title')).toBe(words['staging.row.tagsPlaceholder']);
      expect(await silentlyCutFields(page)).toEqual([]);
      expect(await silentlyCutCells(page)).toEqual([]);
      // The list itself is as typed.
      expect(await tags.inputValue()).toBe(MANY_TAGS);
      await screenshot(page, 'staging-fields', `${locale}-${theme}`);

      // Focused again, the field is edited as ever: the caret at the end shows the last tag.
      await tags.click();
      await page.keyboard.press('End');
      expect((await fieldBox(page, tagsLabel)).scrollLeft).toBeGreaterThan(0);
      await screenshot(page, 'staging-fields', `${locale}-${theme}-editing`);
      expect(await seriousA11yProblems(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    }, 120_000);
  }
});

describe('expiry days pasted from a spreadsheet', () => {
  it('show in the fields in the frame whose status line says they were pasted', async () => {
    const words = catalogues['en-US']!;
    const { page, problems, field } = await stageThree('en-US', 'light', 'pasted-expiry');
    const expiry = (file: string) => words['staging.row.expiry']!.replace('{name}', file);
    await field('staging.row.expiry', 'ann.pdf').click();
    const pasted = await valuesWhenSaid(page, '3 cells pasted', [expiry('ann.pdf'), expiry('ben.pdf'), expiry('cai.pdf')]);
    await page.evaluate(`navigator.clipboard.writeText('12/24/2030\\n2031-01-15\\n03/01/2032\\n')`);
    await page.keyboard.press('Control+V');
    // At the moment the status line says it, each field shows its day (never the old, empty text).
    expect(await pasted()).toEqual(['12/24/2030', '01/15/2031', '03/01/2032']);
    await expect.poll(() => field('staging.row.expiry', 'cai.pdf').inputValue()).toBe('03/01/2032');
    await screenshot(page, 'staging-fields', 'expiry-pasted');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);
});
