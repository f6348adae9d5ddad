/**
 * The grids at a 1280×800 window, in English and in German (whose words run ~30 % longer),
 * end to end in Chromium through the web bridge: with their default columns every heading of
 * Records, Jobs, Verify and Activity lies inside the grid's visible box and is not cut, so
 * nothing needs a sideways scroll to be read; with the job detail open, a job's Status and its
 * name stay in view. Screenshots in build/screenshots/headings-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentlyCutCells } from './cut-cells.js';
import { cellUnder } from './grid-cell.js';
import { builtRenderer, launchChromium, openWorkspace, screenshot, seedCredentials, type Workspace } from './shell-harness.js';

let browser: Browser;
let workspace: Workspace;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
  await seedCredentials(workspace, 12, (i) => ({ title: `Diploma in Mechanical and Process Engineering ${i}`, metadata: { n: i }, tags: ['class-2026'] }));
  const service = workspace.engine.serviceFor(workspace.partner.id);
  const some = await service.listCredentials({ per_page: 4 });
  await service.scheduleCredentials({ engine: 'local', credentials: some.items.map((c) => c.uid) });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

/** A page whose browser speaks `locale`, at 1280×800. */
async function openIn(locale: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
  const page = await context.newPage();
  await page.goto(workspace.bridge.url);
  return page;
}

/**
 * The headings of a grid that are not wholly readable without scrolling: outside the grid's
 * visible box (its width less the scrollbar) or cut to an ellipsis.
 */
async function unreadableHeadings(page: Page, grid: string): Promise<string[]> {
  await page.getByRole('grid', { name: grid }).getByRole('columnheader').first().waitFor();
  // A string, not a function: the tests compile without the DOM's types.
  return page.evaluate(`(() => {
    const grid = document.querySelector('[role=grid][aria-label=${JSON.stringify(grid)}]');
    const frame = grid.getBoundingClientRect();
    const right = frame.left + grid.clientLeft + grid.clientWidth;
    const out = [];
    for (const head of grid.querySelectorAll('[role=columnheader]')) {
      const box = head.getBoundingClientRect();
      const name = head.textContent.trim();
      if (box.left < frame.left - 1 || box.right > right + 1) out.push(name + ' lies outside the grid (' + Math.round(box.left) + '..' + Math.round(box.right) + ' of ' + Math.round(frame.left) + '..' + Math.round(right) + ')');
      else {
        // The heading's words laid out whole (a sort button's, else the cell's own text) against the room inside its padding.
        const range = document.createRange();
        const label = head.querySelector('button') ?? [...head.childNodes].find((n) => n.nodeType === 3);
        if (label) range.selectNodeContents(label);
        const style = getComputedStyle(head);
        const room = head.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const needed = label ? range.getBoundingClientRect().width : 0;
        if (needed > room + 0.5) out.push(name + ' is cut (' + Math.ceil(needed) + ' px in ' + Math.floor(room) + ')');
      }
    }
    return out;
  })()`) as Promise<string[]>;
}

/** Whether an element lies wholly inside the grid's visible box. */
async function inView(page: Page, grid: string, element: Awaited<ReturnType<typeof cellUnder>>): Promise<boolean> {
  const box = await element.boundingBox();
  const frame = await page.getByRole('grid', { name: grid }).boundingBox();
  if (!box || !frame) return false;
  return box.x >= frame.x - 1 && box.x + box.width <= frame.x + frame.width + 1 && box.width > 20;
}

const SECTIONS = {
  en: { records: 'Records', jobs: 'Jobs', verify: 'Verify', activity: 'Activity', credentials: 'Credentials', results: 'Verification results', status: 'Status', job: 'Job' },
  de: { records: 'Datensätze', jobs: 'Aufträge', verify: 'Prüfen', activity: 'Aktivität', credentials: 'Nachweise', results: 'Prüfergebnisse', status: 'Status', job: 'Auftrag' },
} as const;

describe.each([
  ['en-US', SECTIONS.en],
  ['de-DE', SECTIONS.de],
] as const)('the grids at 1280×800 in %s', (locale, names) => {
  it('show every heading of their default columns without a sideways scroll', async () => {
    const page = await openIn(locale);
    const sections = page.getByRole('navigation').first();
    await expect.poll(() => page.getByRole('grid', { name: names.credentials }).getByRole('row').count()).toBeGreaterThan(1);
    expect(await unreadableHeadings(page, names.credentials)).toEqual([]);
    await screenshot(page, 'headings', `${locale}-records`);

    await sections.getByRole('button', { name: names.jobs, exact: true }).click();
    await expect.poll(() => page.getByRole('grid', { name: names.jobs }).getByRole('row').count()).toBeGreaterThan(1);
    expect(await unreadableHeadings(page, names.jobs)).toEqual([]);
    expect(await silentlyCutCells(page)).toEqual([]);
    await screenshot(page, 'headings', `${locale}-jobs`);

    // The detail panel open: the row's Status and its name stay in view, scrolled or not.
    const jobs = page.getByRole('grid', { name: names.jobs });
    const first = jobs.getByRole('row').nth(1);
    await first.click();
    await page.getByRole('complementary').last().waitFor();
    await jobs.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    expect(await inView(page, names.jobs, await cellUnder(jobs, first, names.status))).toBe(true);
    const name = await cellUnder(jobs, first, names.job);
    expect(await inView(page, names.jobs, name)).toBe(true);
    expect(await name.textContent()).not.toBe('');
    expect(await silentlyCutCells(page)).toEqual([]);
    await screenshot(page, 'headings', `${locale}-jobs-detail`);

    await sections.getByRole('button', { name: names.verify, exact: true }).click();
    expect(await unreadableHeadings(page, names.results)).toEqual([]);
    await screenshot(page, 'headings', `${locale}-verify`);

    await sections.getByRole('button', { name: names.activity, exact: true }).click();
    expect(await unreadableHeadings(page, names.activity)).toEqual([]);
    await page.close();
  });
});
