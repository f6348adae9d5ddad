/**
 * The Activity section end to end in Chromium through the web bridge, on a real engine: what
 * was done (credentials created, tagged, scheduled) is listed newest first with who did it, in
 * local time, each credential by its title and each job by what the Jobs view calls it (the uids
 * on hover), filtered by kind and credential (from the filter bar and from a row's menu), and
 * exported as CSV; its grid's columns are resized, moved and hidden and stay so after a reload,
 * and the keyboard moves through its rows as in the other grids. Screenshots in both themes (and
 * in German, dark) in build/screenshots/activity-*.png; axe-core on the view.
 */
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentlyCutCells } from './cut-cells.js';
import { cellUnder, rowTextsLedBy } from './grid-cell.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';

/** What an admin knows the credentials by; the last is longer than any cell. */
const TITLES = ['Diploma — Ada Lovelace', 'Diploma — Grace Hopper', 'Bachelor of Science in Computer Science with First-Class Honours — Alan Mathison Turing'];

let browser: Browser;
let workspace: Workspace;
let uids: string[];
let titles: string[];
let jobUid: string;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
  await seedCredentials(workspace, 3, (i) => ({ title: TITLES[i]!, metadata: { n: i } }));
  const service = workspace.engine.serviceFor(workspace.partner.id);
  const credentials = (await service.listCredentials({ per_page: 0 })).items;
  uids = credentials.map((c) => c.uid);
  titles = credentials.map((c) => c.title);
  await service.addCredentialTags({ credentials: [{ credential_uid: uids[0]!, tags: ['spring'] }] });
  await service.scheduleCredentials({ engine: 'local', credentials: [uids[1]!] });
  jobUid = (await service.listJobs({})).items[0]!.uid;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

const grid = (page: Page) => page.getByRole('grid', { name: 'Activity' });
const dataRows = (page: Page) => grid(page).getByRole('row').filter({ has: page.getByRole('gridcell') });
const headers = (page: Page) => grid(page).getByRole('columnheader').evaluateAll((cells) => cells.map((c) => (c.textContent ?? '').trim()));
const headerWidth = async (page: Page, name: string) => (await grid(page).getByRole('columnheader', { name }).boundingBox())!.width;

async function openActivity(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Activity' }).click();
  // Five entries: three created, one tagged, one scheduled.
  await expect.poll(() => dataRows(page).count()).toBe(5);
}

async function bothThemes(page: Page, step: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, 'activity', `${step}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'activity', `${step}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('activity view', () => {
  it('lists what was done newest first, filters it by kind and credential, and exports it as CSV', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openActivity(page);
    const byWhat = await rowTextsLedBy(grid(page), 'What');
    expect(byWhat[0]).toMatch(/^scheduled/);
    expect(byWhat[0]).toContain('local');
    expect(byWhat[1]).toMatch(/^tagged \+spring/);
    expect(await (await cellUnder(grid(page), dataRows(page).nth(1), 'By')).textContent()).toBe(userInfo().username);
    // The credential by its title, the job as the Jobs view names it (its one credential's title); the uids on hover.
    const credential = await cellUnder(grid(page), dataRows(page).first(), 'Credential');
    expect(await credential.textContent()).toBe(titles[1]);
    expect(await credential.getAttribute('title')).toBe(`${titles[1]} (${uids[1]})`);
    const job = await cellUnder(grid(page), dataRows(page).first(), 'Job');
    expect(await job.textContent()).toBe(titles[1]);
    expect(await job.getAttribute('title')).toBe(`${titles[1]} (${jobUid})`);
    expect(await grid(page).getByRole('row', { name: new RegExp(`tagged \\+spring.*${titles[0]}`) }).count()).toBe(1);
    // A title longer than its cell ends in "…" on the row's one line, whole on hover.
    const long = grid(page).getByRole('row', { name: /Alan Mathison Turing/ });
    const longCell = await cellUnder(grid(page), long, 'Credential');
    const cut = await longCell.evaluate((cell) => {
      const style = cell.ownerDocument.defaultView!.getComputedStyle(cell);
      return [cell.scrollWidth > cell.clientWidth, style.textOverflow, style.whiteSpace];
    });
    expect(cut).toEqual([true, 'ellipsis', 'nowrap']);
    expect(await longCell.getAttribute('title')).toBe(`${TITLES[2]} (${uids[2]})`);
    expect((await long.boundingBox())!.height).toBe((await dataRows(page).first().boundingBox())!.height);
    // When: the local day and time as the page's locale writes it, never the ISO instant.
    const when = await cellUnder(grid(page), dataRows(page).first(), 'When');
    const instant = (await when.locator('time').getAttribute('datetime'))!;
    expect(await when.textContent()).not.toContain('T');
    expect(await when.textContent()).toBe(await page.evaluate(`new Date(${JSON.stringify(instant)}).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })`));
    expect(await silentlyCutCells(page)).toEqual([]);
    await bothThemes(page, 'all');
    expect(await seriousA11yProblems(page)).toEqual([]);

    await page.getByRole('combobox', { name: 'Kind' }).selectOption('created');
    await expect.poll(() => dataRows(page).count()).toBe(3);
    await page.getByRole('textbox', { name: 'Credential' }).fill(uids[0]!);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => dataRows(page).count()).toBe(1);
    expect(await (await cellUnder(grid(page), dataRows(page).first(), 'Credential')).textContent()).toBe(titles[0]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('date,kind,actor,engine,credential_uid,credential_title,job_uid,certificate_uid,transaction,detail');
    expect(csv.slice(1, -1).map((line) => line.split(',').slice(1, 6))).toEqual([['created', userInfo().username, '', uids[0], titles[0]]]);

    await page.getByRole('textbox', { name: 'From', exact: true }).fill('01/01/2099');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.getByText('Nothing was done that matches these filters.').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('moves through its rows with the keyboard and narrows the log from a row menu', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openActivity(page);
    await grid(page).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => grid(page).locator('[role=row][aria-selected=true]').count()).toBe(1);
    const selected = grid(page).locator('[role=row][aria-selected=true]');
    expect(await (await cellUnder(grid(page), selected, 'What')).textContent()).toMatch(/^tagged/);
    // Shift+F10: the focused row's menu; its credential's activity only.
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: 'Activity entry' });
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').count()).toBeGreaterThanOrEqual(3);
    await menu.getByRole('menuitem', { name: "Show this credential's activity" }).click();
    // Its creation and its tagging; the uid shows in the filter bar.
    await expect.poll(() => dataRows(page).count()).toBe(2);
    expect(await page.getByRole('textbox', { name: 'Credential' }).inputValue()).toBe(uids[0]);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => dataRows(page).count()).toBe(5);
    // A right click on a row opens the same menu; Escape closes it.
    await dataRows(page).first().click({ button: 'right' });
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('resizes, moves and hides its columns and remembers them after a reload', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openActivity(page);
    expect(await headers(page)).toEqual(['When', 'What', 'By', 'Chain', 'Credential', 'Job']);

    // Drag the By column's edge 80 px wider.
    const by = await headerWidth(page, 'By');
    const handle = (await page.getByRole('separator', { name: 'Resize By' }).boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + 40, handle.y + handle.height / 2);
    await page.mouse.move(handle.x + handle.width / 2 + 80, handle.y + handle.height / 2);
    await page.mouse.up();
    await expect.poll(() => headerWidth(page, 'By')).toBeGreaterThan(by + 75);
    const widened = Math.round(await headerWidth(page, 'By'));

    // The header's menu: move Credential left, hide Chain.
    await grid(page).getByRole('columnheader', { name: 'Credential' }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Column Credential' }).getByRole('menuitem', { name: 'Move left' }).click();
    await expect.poll(() => headers(page)).toEqual(['When', 'What', 'By', 'Credential', 'Chain', 'Job']);
    await grid(page).getByRole('columnheader', { name: 'Chain' }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Column Chain' }).getByRole('menuitem', { name: 'Hide column' }).click();
    await expect.poll(() => headers(page)).toEqual(['When', 'What', 'By', 'Credential', 'Job']);
    // When names the entry: it cannot be hidden.
    await grid(page).getByRole('columnheader', { name: 'When' }).click({ button: 'right' });
    expect(await page.getByRole('menu', { name: 'Column When' }).getByRole('menuitem', { name: 'Hide column' }).getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');
    // Narrowed below its text, a title ends in "…" with the whole title and its uid on hover.
    await page.getByRole('separator', { name: 'Resize Credential' }).focus();
    await page.keyboard.press('Home');
    const credential = await cellUnder(grid(page), dataRows(page).first(), 'Credential');
    expect(await credential.getAttribute('title')).toBe(`${titles[1]} (${uids[1]})`);
    expect(await silentlyCutCells(page)).toEqual([]);
    await bothThemes(page, 'arranged');
    expect(await seriousA11yProblems(page)).toEqual([]);

    await page.reload();
    await openActivity(page);
    expect(await headers(page)).toEqual(['When', 'What', 'By', 'Credential', 'Job']);
    expect(Math.round(await headerWidth(page, 'By'))).toBe(widened);
    // The Columns dialog shows Chain again; Reset columns goes back to the grid's own.
    await page.getByRole('button', { name: 'Columns' }).click();
    const dialog = page.getByRole('dialog', { name: 'Columns' });
    await dialog.getByRole('checkbox', { name: 'Show Chain' }).check();
    await expect.poll(() => headers(page)).toContain('Chain');
    await dialog.getByRole('button', { name: 'Reset columns' }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => headers(page)).toEqual(['When', 'What', 'By', 'Chain', 'Credential', 'Job']);
    expect(problems).toEqual([]);
  });

  it('names credentials and jobs the same way in German, dark', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'de-DE', colorScheme: 'dark' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(workspace.bridge.url);
    await page.getByRole('navigation', { name: 'Bereiche' }).getByRole('button', { name: 'Aktivität' }).click();
    const german = page.getByRole('grid', { name: 'Aktivität' });
    await expect.poll(() => german.getByRole('row').filter({ has: page.getByRole('gridcell') }).count()).toBe(5);
    expect(await german.getByRole('row', { name: new RegExp(`eingeplant.*${titles[1]}`) }).count()).toBe(1);
    expect(await silentlyCutCells(page)).toEqual([]);
    await screenshot(page, 'activity', 'german-dark');
    expect(await seriousA11yProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
