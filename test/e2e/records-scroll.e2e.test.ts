/**
 * How the Records table scrolls, in Chromium through the web bridge (the figures themselves
 * are in bench/ui.bench.ts): rows are fixed-height, contained boxes placed by transform; a row
 * whose page is still on its way already has all its cells, so its data arriving fills text
 * into nodes that exist (no row or cell is built while scrolling); the row nodes are reused.
 * Screenshot in build/screenshots/records-scroll-*.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seedCredentials, type Workspace } from './shell-harness.js';

let browser: Browser;
let workspace: Workspace;

beforeAll(async () => {
  const rendererDir = builtRenderer();
  browser = await launchChromium();
  workspace = await openWorkspace(rendererDir);
  await seedCredentials(workspace, 3_000, (i) => ({ title: `Diploma ${String(i).padStart(4, '0')}`, metadata: { n: i }, tags: ['class-2026'] }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

describe('records table scrolling', () => {
  it('builds no row or cell while scrolling: loading rows have their cells, loaded rows reuse the nodes', async () => {
    const { page, problems } = await openPage(browser, workspace);
    const grid = page.getByRole('grid', { name: 'Credentials' });
    await grid.getByRole('row').filter({ hasText: 'Diploma 0000' }).waitFor();
    const columns = await grid.getByRole('columnheader').count();

    // Hold the windows of rows back, so the rows scrolled to are seen while still loading.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/ipc/records%3Awindow', async (route) => {
      await held;
      await route.continue();
    });
    await page.evaluate(`(() => {
      const grid = document.querySelector('[role=grid][aria-label=Credentials]');
      window.__built = 0;
      // Rows and cells that exist now: one moved in the DOM (React reorders keyed rows) is
      // reported as added, but it was not built.
      const known = new WeakSet(grid.querySelectorAll('[role=row],[role=gridcell]'));
      new MutationObserver((changes) => {
        for (const change of changes) for (const node of change.addedNodes) {
          if (node.nodeType !== 1) continue;
          const built = [node, ...node.querySelectorAll('[role=row],[role=gridcell]')].filter((el) => el.matches('[role=row],[role=gridcell]') && !known.has(el));
          if (built.length > 0) window.__built++;
          for (const el of built) known.add(el);
        }
      }).observe(grid, { childList: true, subtree: true });
      grid.scrollTop = 2000 * 34;
    })()`);
    const loading = grid.getByRole('row').filter({ hasText: 'Loading…' });
    await expect.poll(() => loading.count()).toBeGreaterThan(5);
    expect(await loading.first().getByRole('gridcell').count()).toBe(columns);
    // The jump itself reuses the rows on screen: only the few rows of overscan above, which the
    // top of the table has not got, are new (row nodes, not one per row scrolled past).
    expect(await page.evaluate('window.__built')).toBeLessThanOrEqual(4);
    await screenshot(page, 'records-scroll', 'loading');
    await page.evaluate('window.__built = 0');
    release();
    await grid.getByRole('row').filter({ hasText: 'Diploma 2005' }).waitFor();
    await page.unroute('**/ipc/records%3Awindow');
    // The data arriving fills the cells that are there.
    expect(await page.evaluate('window.__built')).toBe(0);

    // Each row is a fixed-height, contained box placed by transform; a cut cell ends in "…".
    const style = (await page.evaluate(`(() => {
      const row = [...document.querySelectorAll('[role=grid][aria-label=Credentials] [role=row]')].find((r) => r.textContent.includes('Diploma 2005'));
      const s = getComputedStyle(row);
      const cell = getComputedStyle(row.querySelector('[role=gridcell]'));
      return { contain: s.contain, height: s.height, transform: s.transform !== 'none', boxShadow: s.boxShadow, textOverflow: cell.textOverflow };
    })()`)) as Record<string, unknown>;
    expect(style).toEqual({ contain: 'strict', height: '34px', transform: true, boxShadow: 'none', textOverflow: 'ellipsis' });
    await screenshot(page, 'records-scroll', 'loaded');
    expect(problems).toEqual([]);
  });
});
