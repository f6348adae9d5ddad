/**
 * Layouts that hold and columns the admin arranges, end to end in Chromium through the web
 * bridge at 1280×800: the credential detail panel beside the table (its title and state columns
 * still readable, the panel resizable by its edge and remembered), columns resized, moved,
 * hidden and pinned (mouse and keyboard alone) and remembered after a reload, metadata keys as
 * columns with the search's words marked, and Jobs the same. Screenshots in both themes in
 * build/screenshots/columns-*.png.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentlyCutCells } from './cut-cells.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';

const COUNT = 120;
const STUDENTS = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Edsger Dijkstra', 'Barbara Liskov'];

let browser: Browser;
let workspace: Workspace;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
  // student on every credential, programme on half, number on a third: most used first.
  await seedCredentials(workspace, COUNT, (i) => ({
    title: `Diploma ${String(i).padStart(3, '0')}`,
    metadata: { student: STUDENTS[i % STUDENTS.length], ...(i % 2 === 0 ? { programme: 'Mathematics' } : {}), ...(i % 3 === 0 ? { number: `S${i}` } : {}) },
    tags: [i % 2 === 0 ? 'class-2026' : 'class-2025', 'graduation-ceremony-spring'],
  }));
  const service = workspace.engine.serviceFor(workspace.partner.id);
  const first = await service.listCredentials({ per_page: 5 });
  await service.scheduleCredentials({ engine: 'local', credentials: first.items.map((c) => c.uid) });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

const grid = (page: Page) => page.getByRole('grid', { name: 'Credentials' });
const row = (page: Page, title: string) => grid(page).getByRole('row').filter({ hasText: title });
const headers = (page: Page, name = 'Credentials') =>
  page
    .getByRole('grid', { name })
    .getByRole('columnheader')
    .evaluateAll((cells) => cells.map((c) => (c.textContent ?? '').replace(/[▲▼]/g, '').trim()));
const detail = (page: Page) => page.getByRole('complementary', { name: 'Credential detail' });

async function open(): Promise<{ page: Page; problems: string[] }> {
  const opened = await openPage(browser, workspace);
  await opened.page.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(() => row(opened.page, 'Diploma 000').count()).toBe(1);
  return opened;
}

/** Whether an element lies wholly inside the grid's visible box (not scrolled away, not under a panel). */
async function readable(page: Page, element: Locator, gridName = 'Credentials'): Promise<boolean> {
  const box = await element.boundingBox();
  const frame = await page.getByRole('grid', { name: gridName }).boundingBox();
  if (!box || !frame) return false;
  return box.x >= frame.x - 1 && box.x + box.width <= frame.x + frame.width + 1 && box.width > 20;
}

async function bothThemes(page: Page, step: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, 'columns', `${step}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'columns', `${step}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** How many lines a toolbar's items take (1 when nothing wrapped). */
async function lines(toolbar: Locator): Promise<number> {
  return toolbar.evaluate((el) => {
    const centres = [...el.children].filter((c) => c.getClientRects().length > 0).map((c) => c.getBoundingClientRect()).map((b) => b.top + b.height / 2);
    return centres.filter((c, i) => centres.slice(0, i).every((d) => Math.abs(c - d) > 8)).length;
  });
}

async function headerWidth(page: Page, name: string): Promise<number> {
  return (await grid(page).getByRole('columnheader', { name }).boundingBox())!.width;
}

describe('columns and panes', () => {
  it('keeps the title and the state readable beside the detail panel, whose edge resizes it and is remembered', async () => {
    const { page, problems } = await open();
    await row(page, 'Diploma 007').dblclick();
    await expect.poll(() => detail(page).textContent()).toContain('Diploma 007');
    const opened = row(page, 'Diploma 007');
    expect(await readable(page, opened.getByRole('gridcell').filter({ hasText: 'Diploma 007' }))).toBe(true);
    expect(await readable(page, opened.getByRole('gridcell').filter({ hasText: 'not scheduled' }))).toBe(true);
    // Scrolled sideways to its end, the pinned title and state stay where they are.
    await grid(page).evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    expect(await readable(page, opened.getByRole('gridcell').filter({ hasText: 'Diploma 007' }))).toBe(true);
    expect(await readable(page, opened.getByRole('gridcell').filter({ hasText: 'not scheduled' }))).toBe(true);
    expect(await silentlyCutCells(page)).toEqual([]);
    // The selection bar keeps to one line: its buttons show their icons, named as before.
    await expect.poll(() => lines(page.locator('.selection-bar'))).toBe(1);
    expect(await page.getByRole('button', { name: 'Replace tags' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Replace tags' }).getAttribute('title')).toBe('Replace tags');
    await bothThemes(page, 'records-detail');

    const edge = page.getByRole('separator', { name: 'Resize credential detail' });
    const before = Number(await edge.getAttribute('aria-valuenow'));
    await edge.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => Number(await edge.getAttribute('aria-valuenow'))).toBe(before + 48);
    expect(Math.round((await detail(page).boundingBox())!.width + 16)).toBeGreaterThanOrEqual(before + 48 - 24);
    // Never under its minimum.
    await page.keyboard.press('Home');
    await expect.poll(async () => Number(await edge.getAttribute('aria-valuenow'))).toBe(280);
    // Dragged 150 px toward the table: 150 px wider.
    const box = (await edge.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 100);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 80, box.y + 100);
    await page.mouse.move(box.x + box.width / 2 - 150, box.y + 100);
    await page.mouse.up();
    await expect.poll(async () => Number(await edge.getAttribute('aria-valuenow'))).toBe(430);
    expect(await seriousA11yProblems(page)).toEqual([]);

    await page.reload();
    await expect.poll(() => row(page, 'Diploma 007').count()).toBe(1);
    await row(page, 'Diploma 007').dblclick();
    await expect.poll(async () => Number(await page.getByRole('separator', { name: 'Resize credential detail' }).getAttribute('aria-valuenow'))).toBe(430);
    expect(await silentlyCutCells(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('resizes, moves, hides and pins columns by mouse and remembers them after a reload, until reset', async () => {
    const { page, problems } = await open();
    expect(await headers(page)).toEqual(['Title', 'Local chain', 'Tags', 'Files', 'Linked', 'Uploaded', 'Expiry']);

    // Drag the Tags column's edge 100 px wider.
    const tags = await headerWidth(page, 'Tags');
    const handle = (await page.getByRole('separator', { name: 'Resize Tags' }).boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + 50, handle.y + handle.height / 2);
    await page.mouse.move(handle.x + handle.width / 2 + 100, handle.y + handle.height / 2);
    await page.mouse.up();
    await expect.poll(() => headerWidth(page, 'Tags')).toBeGreaterThan(tags + 95);
    const widened = Math.round(await headerWidth(page, 'Tags'));
    expect(Number(await page.getByRole('separator', { name: 'Resize Tags' }).getAttribute('aria-valuenow'))).toBe(widened);

    // The header's context menu: move Files left, hide Linked, pin Uploaded.
    await grid(page).getByRole('columnheader', { name: 'Files' }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Column Files' }).getByRole('menuitem', { name: 'Move left' }).click();
    await expect.poll(() => headers(page)).toEqual(['Title', 'Local chain', 'Files', 'Tags', 'Linked', 'Uploaded', 'Expiry']);
    await grid(page).getByRole('columnheader', { name: 'Linked' }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Column Linked' }).getByRole('menuitem', { name: 'Hide column' }).click();
    await grid(page).getByRole('columnheader', { name: 'Uploaded' }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Column Uploaded' }).getByRole('menuitem', { name: 'Pin column' }).click();
    await expect.poll(() => headers(page)).toEqual(['Title', 'Local chain', 'Uploaded', 'Files', 'Tags', 'Expiry']);
    // The identifying column cannot be hidden.
    await grid(page).getByRole('columnheader', { name: 'Title' }).click({ button: 'right' });
    expect(await page.getByRole('menu', { name: 'Column Title' }).getByRole('menuitem', { name: 'Hide column' }).getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');

    // Pinned columns stay in view when the table scrolls sideways (the detail panel leaves it narrow).
    await row(page, 'Diploma 003').dblclick();
    await grid(page).evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    const uploaded = row(page, 'Diploma 003').getByRole('gridcell').nth(2);
    expect(await readable(page, uploaded)).toBe(true);
    expect(await silentlyCutCells(page)).toEqual([]);
    await bothThemes(page, 'records-arranged');
    await page.getByRole('button', { name: 'Close detail' }).click();

    await page.reload();
    await expect.poll(() => row(page, 'Diploma 000').count()).toBe(1);
    expect(await headers(page)).toEqual(['Title', 'Local chain', 'Uploaded', 'Files', 'Tags', 'Expiry']);
    expect(Math.round(await headerWidth(page, 'Tags'))).toBe(widened);

    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('dialog', { name: 'Columns' }).getByRole('button', { name: 'Reset columns' }).click();
    await page.getByRole('dialog', { name: 'Columns' }).getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => headers(page)).toEqual(['Title', 'Local chain', 'Tags', 'Files', 'Linked', 'Uploaded', 'Expiry']);
    await page.reload();
    await expect.poll(() => row(page, 'Diploma 000').count()).toBe(1);
    expect(await headers(page)).toEqual(['Title', 'Local chain', 'Tags', 'Files', 'Linked', 'Uploaded', 'Expiry']);
    expect(problems).toEqual([]);
  });

  it('arranges columns with the keyboard alone: the Columns dialog, a resize handle and its column menu', async () => {
    const { page, problems } = await open();
    // A string, not a function: the tests compile without the DOM's types.
    const focused = () => page.evaluate(`document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''`) as Promise<string>;
    const tabTo = async (name: string) => {
      for (let i = 0; i < 80 && (await focused()) !== name; i++) await page.keyboard.press('Tab');
      expect(await focused()).toBe(name);
    };
    await page.getByRole('searchbox', { name: 'Search records' }).focus();
    // Back to the toolbar's Columns button (it sits before the search).
    for (let i = 0; i < 20 && (await focused()) !== 'Columns'; i++) await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Columns');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Columns' });
    await dialog.waitFor();
    await tabTo('Show Tags');
    await page.keyboard.press('Space');
    await tabTo('Move Files down');
    await page.keyboard.press('Enter');
    await expect.poll(() => headers(page)).toEqual(['Title', 'Local chain', 'Linked', 'Files', 'Uploaded', 'Expiry']);
    await tabTo('Pin Expiry');
    await page.keyboard.press('Space');
    await expect.poll(() => headers(page)).toEqual(['Title', 'Local chain', 'Expiry', 'Linked', 'Files', 'Uploaded']);
    expect(await seriousA11yProblems(page)).toEqual([]);
    await bothThemes(page, 'dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focused()).toBe('Columns');

    // A column's resize handle: arrows resize, Shift+F10 opens its column menu.
    await grid(page).focus();
    await tabTo('Resize Files');
    const files = Number(await page.getByRole('separator', { name: 'Resize Files' }).getAttribute('aria-valuenow'));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => Number(await page.getByRole('separator', { name: 'Resize Files' }).getAttribute('aria-valuenow'))).toBe(files + 80);
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: 'Column Files' });
    await menu.waitFor();
    await page.keyboard.press('h');
    await page.keyboard.press('Enter');
    await expect.poll(() => headers(page)).toEqual(['Title', 'Local chain', 'Expiry', 'Linked', 'Uploaded']);
    expect(problems).toEqual([]);
  });

  it('shows metadata keys as columns, most used first, and marks where a search for a student matched', async () => {
    const { page, problems } = await open();
    await page.getByRole('button', { name: 'Columns' }).click();
    const dialog = page.getByRole('dialog', { name: 'Columns' });
    const keys = await dialog.getByRole('list', { name: 'Metadata' }).getByRole('listitem').allTextContents();
    expect(keys.map((k) => k.split(' ')[0])).toEqual(['student', 'programme', 'number']);
    expect(keys[0]).toContain('on 120 credentials');
    await dialog.getByRole('checkbox', { name: 'Show student' }).check();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => headers(page)).toContain('student');
    expect(await row(page, 'Diploma 000').getByRole('gridcell').filter({ hasText: 'Ada Lovelace' }).count()).toBe(1);

    await page.getByRole('searchbox', { name: 'Search records' }).fill('lovelace');
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('24 credentials');
    const marks = await grid(page).locator('mark').allTextContents();
    expect(marks.length).toBeGreaterThan(3);
    expect(new Set(marks)).toEqual(new Set(['Lovelace']));
    await bothThemes(page, 'metadata-search');

    // The student column hidden again: the title says where the search matched.
    await grid(page).getByRole('columnheader', { name: 'student' }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Column student' }).getByRole('menuitem', { name: 'Hide column' }).click();
    await expect.poll(() => row(page, 'Diploma 000').getByRole('gridcell').first().textContent()).toBe('Diploma 000 Matched in: student');
    expect(await silentlyCutCells(page)).toEqual([]);
    await row(page, 'Diploma 005').dblclick();
    await expect.poll(() => detail(page).textContent()).toContain('Diploma 005');
    expect(await silentlyCutCells(page)).toEqual([]);
    await bothThemes(page, 'matched-in');
    expect(await seriousA11yProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('lets Jobs keep their status beside the job detail and remembers their columns', async () => {
    const { page, problems } = await open();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    const jobs = page.getByRole('grid', { name: 'Jobs' });
    await expect.poll(() => jobs.getByRole('row').count()).toBeGreaterThan(1);
    expect(await headers(page, 'Jobs')).toEqual(['Status', 'Job', 'Credentials', 'Progress', 'Engine', 'Tags', 'Created', 'Due', 'Finished', 'Failed']);
    await jobs.getByRole('row').nth(1).click();
    await page.getByRole('complementary', { name: 'Job detail' }).waitFor();
    expect(await readable(page, jobs.getByRole('row').nth(1).getByRole('gridcell').first(), 'Jobs')).toBe(true);
    await jobs.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    // Status and the job's name are pinned: scrolled sideways, they stay.
    expect(await readable(page, jobs.getByRole('row').nth(1).getByRole('gridcell').first(), 'Jobs')).toBe(true);
    expect(await readable(page, jobs.getByRole('row').nth(1).getByRole('gridcell').nth(1), 'Jobs')).toBe(true);
    expect(await jobs.getByRole('row').nth(1).getByRole('gridcell').nth(1).textContent()).not.toBe('');
    expect(await silentlyCutCells(page)).toEqual([]);
    await jobs.getByRole('columnheader', { name: 'Tags' }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Column Tags' }).getByRole('menuitem', { name: 'Hide column' }).click();
    await expect.poll(() => headers(page, 'Jobs')).toEqual(['Status', 'Job', 'Credentials', 'Progress', 'Engine', 'Created', 'Due', 'Finished', 'Failed']);
    await bothThemes(page, 'jobs-detail');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.reload();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    await expect.poll(() => page.getByRole('grid', { name: 'Jobs' }).getByRole('row').count()).toBeGreaterThan(1);
    expect(await headers(page, 'Jobs')).not.toContain('Tags');
    // Records kept their own columns: each view remembers its own.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Records' }).click();
    await expect.poll(() => headers(page)).toContain('Tags');
    expect(problems).toEqual([]);
  });
});
