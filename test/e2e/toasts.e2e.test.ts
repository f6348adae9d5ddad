/**
 * Toasts that say what really happened, end to end in Debian's Chromium through the web bridge
 * on the embedded engine and its local chain: a create where some rows fail says "2 created, 2
 * failed" (an alert that stays) and its Review action takes the admin to the first failed row;
 * the status bar names the local chain instead of its id. Screenshots in both themes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropFiles } from './drop-files.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seriousA11yProblems, type Workspace } from './shell-harness.js';

let browser: Browser;
let workspace: Workspace;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer(), { name: 'Acme University' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

/** Screenshots of the page as it is, in the light and in the dark theme. */
async function bothThemes(page: Page, step: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, 'toasts', `${step}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'toasts', `${step}-dark`);
  expect(await seriousA11yProblems(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('toasts', () => {
  it('a partly failed create says how many were created and failed, stays, and Review shows the first failed row', async () => {
    const { page, problems } = await openPage(browser, workspace);
    const folder = join(workspace.workDir, 'term');
    mkdirSync(folder);
    for (const name of ['ada', 'ben', 'cy', 'dee']) writeFileSync(join(folder, `${name}.pdf`), `diploma of ${name}`);
    // Dee's sidecar is broken: staging refuses the row before sending it.
    writeFileSync(join(folder, 'dee.pdf.json'), '{"title": "Diploma of Dee", "expiry_date": "yesterday"}');
    await dropFiles(page, folder, true);
    const staging = page.getByRole('region', { name: 'Staging' });
    await staging.getByRole('textbox', { name: 'Title of dee.pdf' }).waitFor();
    // Ben's tag is refused by main (invalid_tag).
    await staging.getByRole('textbox', { name: 'Tags of ben.pdf' }).fill('no!');
    await staging.getByRole('button', { name: 'Create', exact: true }).click();

    const toast = page.getByRole('alert').filter({ hasText: '2 created, 2 failed' });
    await expect.poll(() => toast.count(), { timeout: 30_000 }).toBe(1);
    const created = (await workspace.engine.serviceFor(workspace.partner.id).listCredentials({ per_page: 0 })).items;
    expect(created.map((c) => c.title).sort()).toEqual(['Ada', 'Cy']);
    await bothThemes(page, '1-partly-failed');

    // Somewhere else meanwhile: the toast stays, and Review brings the admin back to the failed row.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    await page.getByRole('grid', { name: 'Jobs' }).or(page.getByRole('table', { name: 'Jobs' })).first().waitFor();
    expect(await toast.count()).toBe(1);
    await toast.getByRole('button', { name: 'Review' }).click();
    await expect.poll(() => page.evaluate("!!document.activeElement?.closest('.staging-row-failed')")).toBe(true);
    expect(await toast.count()).toBe(0);
    await screenshot(page, 'toasts', '2-reviewed');
    expect(problems).toEqual([]);
  }, 180_000);

  it('names the local chain in the status bar, with its ids in the tooltip', async () => {
    const { page, problems } = await openPage(browser, workspace);
    const item = page.getByRole('contentinfo', { name: 'Status' }).getByTestId('status-engine-local');
    await expect.poll(() => item.textContent(), { timeout: 20_000 }).toMatch(/^Local chain demo, chain /);
    expect(await item.getAttribute('title')).toMatch(/^Engine local, chain id/);
    expect(await item.locator('code').count()).toBe(0);
    await bothThemes(page, '3-status-bar');
    expect(problems).toEqual([]);
  }, 60_000);
});
