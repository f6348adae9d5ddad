/**
 * List exports end to end in Chromium through the web bridge, on a real engine: Records'
 * `Export list` (the toolbar button) downloads a CSV of exactly the rows the search matches,
 * in the table's columns, while the dialog shows the rows written of the total; the command is
 * reachable from the application menu's template, the `Menu` button, the palette, its shortcut
 * and the toolbars of Records and Jobs. Screenshots in build/screenshots/list-export-*.png;
 * axe-core with the dialog open.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandById } from '../../common/commands.js';
import type { AppEvent } from '../../common/tasks.js';
import { buildMenuTemplate, menuItems } from '../../main/app/app-menu.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';

let browser: Browser;
let workspace: Workspace;
const COUNT = 2_500;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
  await seedCredentials(workspace, COUNT, (i) => ({ title: `Diploma ${i}`, metadata: { term: i % 2 === 0 ? 'spring' : 'autumn' }, tags: [i % 2 === 0 ? 'spring-term' : 'autumn-term'] }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

const grid = (page: Page) => page.getByRole('grid', { name: 'Credentials' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Export list' });

async function open(): Promise<Page> {
  const { page, problems } = await openPage(browser, workspace);
  await expect.poll(() => page.getByTestId('records-total').textContent()).toBe(`${COUNT.toLocaleString('en-US')} credentials`);
  expect(problems).toEqual([]);
  return page;
}

describe('list export', () => {
  it("downloads the searched Records as CSV from the toolbar's Export list, showing the rows written", async () => {
    const page = await open();
    await page.getByRole('searchbox', { name: 'Search records' }).fill('spring');
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('1,250 credentials');
    // The task events the page receives, to see progress arrive before the end.
    await page.evaluate(`window.__taskEvents = []; window.proofdesk.onEvent((event) => event.type === 'task' && window.__taskEvents.push(event))`);

    const button = page.getByRole('button', { name: 'Export list', exact: true });
    expect(await button.getAttribute('title')).toBe('Export list (Ctrl+E)');
    await button.click();
    await expect.poll(() => dialog(page).count()).toBe(1);
    expect(await dialog(page).textContent()).toContain("The 1,250 credentials the filter matches, with the table's columns");
    expect(await dialog(page).getByRole('radio', { name: 'CSV' }).isChecked()).toBe(true);
    await screenshot(page, 'list-export', 'dialog');
    expect(await seriousA11yProblems(page)).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), dialog(page).getByRole('button', { name: 'Export', exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(/^records-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parse(readFileSync((await download.path())!), { bom: true }) as string[][];
    expect(rows[0]).toEqual(['uid', 'title', 'tags', 'files', 'linked_uids', 'linked_from_count', 'upload_date', 'expiry_date', 'state_local']);
    expect(rows).toHaveLength(1_251);
    expect(rows.slice(1).every((r) => r[2] === 'spring-term' && Number(r[1]!.split(' ')[1]) % 2 === 0)).toBe(true);

    // The dialog showed the rows written of the total; progress arrived while the task ran.
    const progress = dialog(page).getByRole('progressbar', { name: 'Exporting 1,250 credentials to CSV' });
    await expect.poll(() => dialog(page).getByTestId('export-progress').textContent()).toMatch(/^1,250 of 1,250 rows written\. records-.*\.csv downloaded\.$/);
    expect(await progress.getAttribute('value')).toBe('1250');
    const events = (await page.evaluate('window.__taskEvents')) as Extract<AppEvent, { type: 'task' }>[];
    const running = events.filter((e) => e.task.kind === 'export-list' && e.task.state === 'running');
    expect(running.some((e) => e.task.done > 0 && e.task.done < 1_250 && e.task.total === 1_250)).toBe(true);
    await screenshot(page, 'list-export', 'done');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);

    // The export is in the activity log.
    const log = await workspace.engine.serviceFor(workspace.partner.id).listActivity!({ kind: 'exported', per_page: 10 });
    expect(log.items.map((e) => e.detail)).toContainEqual(expect.objectContaining({ list: 'records', format: 'csv', rows: 1_250 }));
  });

  it('reaches Export list from the application menu, the Menu button, the palette, Ctrl+E and the Jobs toolbar', async () => {
    // The Electron menu: File › Export list… with its shortcut.
    const items = menuItems(buildMenuTemplate({ mac: false, send: () => undefined, setTheme: () => undefined }));
    expect(items.find((i) => i.id === 'file.exportList')).toMatchObject({ label: 'Export list…', accelerator: commandById('file.exportList').accelerator });

    const page = await open();
    await grid(page).focus();
    await page.keyboard.press('Control+e');
    await expect.poll(() => dialog(page).count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);

    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('menu', { name: 'Menu' }).getByRole('group', { name: 'File' }).getByRole('menuitem', { name: 'Export list…' }).click();
    await expect.poll(() => dialog(page).count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);

    await grid(page).focus();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('Export list');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog(page).count()).toBe(1);
    await page.keyboard.press('Escape');

    // Jobs: nothing to export until a job exists; then the toolbar's Export list writes an Excel workbook.
    await page.keyboard.press('Control+2');
    const jobsButton = page.getByRole('button', { name: 'Export list', exact: true });
    await expect.poll(() => jobsButton.isDisabled()).toBe(true);
    const service = workspace.engine.serviceFor(workspace.partner.id);
    const [first] = (await service.listCredentials({ per_page: 1 })).items;
    await service.scheduleCredentials({ engine: 'local', credentials: [first!.uid] });
    await page.keyboard.press('Control+1');
    await page.keyboard.press('Control+2');
    await expect.poll(() => jobsButton.isDisabled()).toBe(false);
    await jobsButton.click();
    await dialog(page).getByRole('radio', { name: 'Excel workbook' }).check();
    const [download] = await Promise.all([page.waitForEvent('download'), dialog(page).getByRole('button', { name: 'Export', exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(/^jobs-\d{4}-\d{2}-\d{2}\.xlsx$/);
    // A zip container (an .xlsx), read back in test/app/list-export.test.ts.
    expect([...readFileSync((await download.path())!).subarray(0, 2)]).toEqual([0x50, 0x4b]);
    await expect.poll(() => dialog(page).getByTestId('export-progress').textContent()).toMatch(/^1 of 1 rows written/);
    await screenshot(page, 'list-export', 'jobs-done');
  });
});
