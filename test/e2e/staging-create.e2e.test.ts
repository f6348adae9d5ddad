/**
 * Staging's Create split button and the outcome it reports, in Chromium through the web bridge
 * with two engines: the engine to schedule on is chosen from the split button's menu with the
 * keyboard, and a create where 2 of 4 rows fail says "2 created, 2 failed" in staging and in
 * the toast, keeping the failed rows marked. Screenshots in build/screenshots/staging-create-*.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropFiles } from './drop-files.js';
import { builtRenderer, launchChromium, screenshot, seriousA11yProblems } from './shell-harness.js';
import { openTwoEngineWorkspace, type TwoEngineWorkspace } from './two-engines.js';

let browser: Browser;
let workspace: TwoEngineWorkspace;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openTwoEngineWorkspace(builtRenderer());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

describe('Create split button', () => {
  it('schedules on the engine picked from its menu by keyboard, and reports 2 of 4 failed as such', async () => {
    const { page, problems } = await workspace.open(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const folder = join(workspace.engine.dataDir, '..', 'four');
    mkdirSync(folder, { recursive: true });
    for (const name of ['ann', 'ben', 'cai', 'dee']) writeFileSync(join(folder, `${name}.pdf`), `diploma of ${name}`);
    await page.getByRole('region', { name: 'Drop files to add' }).waitFor();
    await dropFiles(page, folder, true);
    const staging = page.getByRole('region', { name: 'Staging' });
    await staging.getByText('4 rows').waitFor({ timeout: 30_000 });

    // Tags for the four rows pasted as a column: two of them break the tag rules.
    const tagsOf = (name: string) => staging.getByRole('textbox', { name: `Tags of ${name}.pdf` });
    await tagsOf('ann').click();
    await page.evaluate(`navigator.clipboard.writeText('honours\\nbad!\\nhonours\\nno way\\n')`);
    await page.keyboard.press('Control+V');
    await staging.getByText('4 cells pasted').waitFor();

    // The split button: Create | Create and schedule on Local chain (the engine's chain by name) | ▾ (Engine to schedule on).
    const group = staging.getByRole('group', { name: 'Create credentials' });
    expect(await group.getByRole('button').allTextContents()).toEqual(['Create', 'Create and schedule on Local chain', '▾']);
    const toggle = group.getByRole('button', { name: 'Engine to schedule on' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const menu = group.getByRole('menu', { name: 'Engine to schedule on' });
    await menu.waitFor();
    await screenshot(page, 'staging-create', '1-engine-menu');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(`document.activeElement.getAttribute('aria-label')`)).toBe('Engine to schedule on');
    const schedule = group.getByRole('button', { name: 'Create and schedule on Sepolia' });
    await schedule.click();

    // The outcome as it is: in staging's count, in the toast, and on the failed rows.
    await staging.getByText('4 rows · 2 created, 2 failed').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.toasts').textContent()).toContain('Credentials from staging: 2 created, 2 failed');
    expect(await page.locator('.toasts').textContent()).not.toContain('done');
    const alerts = await staging.getByRole('alert').allTextContents();
    expect(alerts).toHaveLength(2);
    expect(alerts.join(' ')).toContain('invalid_tag');
    expect(await staging.getByRole('button', { name: 'Open' }).count()).toBe(2);
    await screenshot(page, 'staging-create', '2-two-failed');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'staging-create', '3-two-failed-dark');

    const jobs = (await workspace.service.listJobs({ status: 'scheduled' })).items;
    expect(jobs.map((j) => j.chain)).toEqual(['sepolia']);
    const scheduled = await workspace.service.listJobCredentials(jobs[0]!.uid, { per_page: 0 });
    expect(scheduled.items.map((c) => c.title).sort()).toEqual(['Ann', 'Cai']);
    expect(problems).toEqual([]);
  }, 180_000);
});
