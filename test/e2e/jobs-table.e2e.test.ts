/**
 * The Jobs table in Chromium through the web bridge: with the job detail open it keeps every
 * column whole and scrolls sideways (the last column was cut to "Fin…"), and it sorts by the
 * columns GET /jobs can sort by, in the service. The Records table does the same beside the
 * credential detail. Screenshots in build/screenshots/jobs-table-*.png.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentlyCutCells } from './cut-cells.js';
import { columnTexts } from './grid-cell.js';
import { builtRenderer, launchChromium, screenshot, seriousA11yProblems } from './shell-harness.js';
import { SECOND_ENGINE, openTwoEngineWorkspace, type TwoEngineWorkspace } from './two-engines.js';

let browser: Browser;
let workspace: TwoEngineWorkspace;

beforeAll(async () => {
  const rendererDir = builtRenderer();
  browser = await launchChromium();
  workspace = await openTwoEngineWorkspace(rendererDir);
  const { service } = workspace;
  const [a, b] = await service.createCredentials([
    { title: 'Diploma A', metadata: { student: 'A' }, tags: ['2026'] },
    { title: 'Diploma B', metadata: { student: 'B' }, tags: ['2026'] },
  ]);
  await service.scheduleCredentials({ engine: 'local', credentials: [a!.uid] });
  await service.scheduleCredentials({ engine: SECOND_ENGINE.id, credentials: [b!.uid] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

/**
 * Scrolls the grid to its right end; then every header and every cell of the first row must be
 * whole: not truncated, inside the grid, and inside its row's box (a row narrower than its
 * cells clips the last columns, which is how "Fin…" and empty cells looked before).
 */
async function columnsCut(grid: Locator): Promise<string[]> {
  await grid.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  return grid.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const heads = [...el.querySelectorAll('[role=columnheader]')].filter((h) => h.scrollWidth > h.clientWidth + 1 || h.getBoundingClientRect().right > box.right + 1);
    const row = el.querySelector('.dt-body [role=row]');
    const rowRight = row?.getBoundingClientRect().right ?? 0;
    const cells = [...(row?.querySelectorAll('[role=gridcell]') ?? [])].filter((c) => c.getBoundingClientRect().right > Math.min(rowRight, box.right) + 1);
    return [...heads.map((h) => `header ${h.textContent}`), ...cells.map((c, i) => `cell ${i} ${c.textContent}`)];
  });
}

/** The Engine column top to bottom, as the table names the engines (by their chain). */
const engineColumn = (page: Page) => columnTexts(page.getByRole('grid', { name: 'Jobs' }), 'Engine');

describe('jobs table', () => {
  it('keeps its columns whole beside the job detail, scrolling sideways', async () => {
    const { page, problems } = await workspace.open(browser);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    const grid = page.getByRole('grid', { name: 'Jobs' });
    await expect.poll(() => grid.getByRole('row').count()).toBe(3);
    await grid.getByRole('row').nth(1).click();
    await page.getByRole('complementary', { name: 'Job detail' }).waitFor();
    expect(await grid.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await columnsCut(grid)).toEqual([]);
    await expect.poll(() => grid.getByRole('columnheader', { name: 'Failed' }).isVisible()).toBe(true);
    await screenshot(page, 'jobs-table', 'detail-scrolled');
    expect(await seriousA11yProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('sorts by engine and by status in the service, both ways', async () => {
    const { page, problems } = await workspace.open(browser);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    const grid = page.getByRole('grid', { name: 'Jobs' });
    await expect.poll(() => grid.getByRole('row').count()).toBe(3);
    const engine = grid.getByRole('columnheader', { name: /^Engine/ });
    await engine.getByRole('button').click();
    await expect.poll(() => engine.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => engineColumn(page)).toEqual(['Local chain', 'Sepolia']);
    await engine.getByRole('button').click();
    await expect.poll(() => engine.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => engineColumn(page)).toEqual(['Sepolia', 'Local chain']);
    const status = grid.getByRole('columnheader', { name: /^Status/ });
    await status.getByRole('button').click();
    await expect.poll(() => status.getAttribute('aria-sort')).toBe('ascending');
    await screenshot(page, 'jobs-table', 'sorted');
    expect(problems).toEqual([]);
  });

  it('lets the Records table scroll sideways beside the credential detail', async () => {
    const { page } = await workspace.open(browser);
    const grid = page.getByRole('grid', { name: 'Credentials' });
    await grid.getByRole('row').filter({ hasText: 'Diploma A' }).dblclick();
    await page.getByRole('complementary', { name: 'Credential detail' }).waitFor();
    expect(await columnsCut(grid)).toEqual([]);
    await expect.poll(() => grid.getByRole('columnheader', { name: SECOND_ENGINE.id }).isVisible()).toBe(true);
    await screenshot(page, 'jobs-table', 'records-beside-detail');
  });

  it('cuts no cell silently: long titles and tags end in "…" or "+N" and show their full text on hover', async () => {
    const title = 'Diploma of Advanced Studies in Comparative Literature and Translation, with Distinction — Ada Lovelace-Byron';
    const tags = ['class-2026', 'comparative-literature', 'honours-with-distinction', 'signed-by-the-dean', 'printed'];
    const [made] = await workspace.service.createCredentials([{ title, metadata: { student: 'Ada' }, tags }]);
    await workspace.service.scheduleCredentials({ engine: 'local', credentials: [made!.uid] });
    const { page, problems } = await workspace.open(browser);
    const grid = page.getByRole('grid', { name: 'Credentials' });
    const row = grid.getByRole('row').filter({ hasText: 'Comparative Literature' });
    await row.dblclick();
    await page.getByRole('complementary', { name: 'Credential detail' }).waitFor();
    // The hidden tags stay in the row's text for assistive technology; the chips show three and "+2".
    expect(await row.textContent()).toContain('printed');
    expect(await row.getByText('+2').isVisible()).toBe(true);
    const titleCell = row.getByRole('gridcell').first();
    expect(await titleCell.getAttribute('title')).toBe(title);
    expect(await titleCell.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await silentlyCutCells(page)).toEqual([]);
    // Scrolled sideways beside the detail, the Title column stays pinned at the table's left edge.
    await grid.evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await expect.poll(() => grid.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    const gridLeft = (await grid.boundingBox())!.x;
    expect(Math.abs((await titleCell.boundingBox())!.x - gridLeft)).toBeLessThan(3);
    expect(Math.abs((await grid.getByRole('columnheader', { name: /Title/ }).boundingBox())!.x - gridLeft)).toBeLessThan(3);
    await screenshot(page, 'jobs-table', 'records-cut-cells');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'jobs-table', 'records-cut-cells-dark');
    expect(await seriousA11yProblems(page)).toEqual([]);

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    const jobs = page.getByRole('grid', { name: 'Jobs' });
    await expect.poll(() => jobs.getByRole('row').count()).toBeGreaterThan(1);
    await jobs.getByRole('row').nth(1).click();
    await page.getByRole('complementary', { name: 'Job detail' }).waitFor();
    expect(await silentlyCutCells(page)).toEqual([]);
    await screenshot(page, 'jobs-table', 'jobs-cut-cells-dark');
    expect(problems).toEqual([]);
  });
});
