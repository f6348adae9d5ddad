/**
 * The Activity section end to end in Chromium through the web bridge, on a real engine: what
 * was done (credentials created, tagged, scheduled) is listed newest first with who did it,
 * filtered by kind and credential, and exported as CSV. Screenshot in
 * build/screenshots/activity-*.png; axe-core on the view.
 */
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';

let browser: Browser;
let workspace: Workspace;
let uids: string[];

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
  await seedCredentials(workspace, 3, (i) => ({ title: `Diploma ${i}`, metadata: { n: i } }));
  const service = workspace.engine.serviceFor(workspace.partner.id);
  uids = (await service.listCredentials({ per_page: 0 })).items.map((c) => c.uid);
  await service.addCredentialTags({ credentials: [{ credential_uid: uids[0]!, tags: ['spring'] }] });
  await service.scheduleCredentials({ engine: 'local', credentials: [uids[1]!] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

describe('activity view', () => {
  it('lists what was done newest first, filters it by kind and credential, and exports it as CSV', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Activity' }).click();
    const table = page.getByRole('table', { name: 'Activity' });
    const rows = table.getByRole('row');
    // A header row and five entries: three created, one tagged, one scheduled.
    await expect.poll(() => rows.count()).toBe(6);
    expect(await rows.nth(1).textContent()).toContain('scheduled');
    expect(await rows.nth(1).textContent()).toContain('local');
    expect(await rows.nth(2).textContent()).toContain('tagged +spring');
    expect(await rows.nth(2).textContent()).toContain(userInfo().username);
    await screenshot(page, 'activity', 'all');
    expect(await seriousA11yProblems(page)).toEqual([]);

    await page.getByRole('combobox', { name: 'Kind' }).selectOption('created');
    await expect.poll(() => rows.count()).toBe(4);
    await page.getByRole('textbox', { name: 'Credential' }).fill(uids[0]!);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(1).textContent()).toContain(uids[0]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('date,kind,actor,engine,credential_uid,job_uid,certificate_uid,transaction,detail');
    expect(csv.slice(1, -1).map((line) => line.split(',').slice(1, 5))).toEqual([['created', userInfo().username, '', uids[0]]]);

    await page.getByRole('textbox', { name: 'From', exact: true }).fill('01/01/2099');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.getByText('Nothing was done that matches these filters.').count()).toBe(1);
    expect(problems).toEqual([]);
  });
});
