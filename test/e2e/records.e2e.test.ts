/**
 * The Records view end to end in Chromium through the web bridge, on a real engine: the
 * virtualized table fetched page by page, search and tag filters, selection like a file manager
 * (click, Shift, Ctrl, select all matching), bulk tagging with the count confirmation, and
 * scheduling; by mouse and by keyboard alone. Screenshots in build/screenshots/records-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';

const COUNT = 300;
const STUDENTS = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Edsger Dijkstra', 'Barbara Liskov'];

let browser: Browser;
let workspace: Workspace;

beforeAll(async () => {
  const rendererDir = builtRenderer();
  browser = await launchChromium();
  workspace = await openWorkspace(rendererDir);
  await seedCredentials(workspace, COUNT, (i) => ({
    title: `Diploma ${String(i).padStart(3, '0')}`,
    metadata: { student: STUDENTS[i % STUDENTS.length], number: `S${i}` },
    tags: [i % 2 === 0 ? 'class-2026' : 'class-2025'],
  }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

const grid = (page: Page) => page.getByRole('grid', { name: 'Credentials' });
const row = (page: Page, title: string) => grid(page).getByRole('row').filter({ hasText: title });
const service = () => workspace.engine.serviceFor(workspace.partner.id);
const tagged = async (tag: string) => (await service().listCredentials({ and_tags: tag, per_page: 1 })).total_items;

async function open(): Promise<{ page: Page; problems: string[] }> {
  const opened = await openPage(browser, workspace);
  await expect.poll(() => row(opened.page, 'Diploma 000').count()).toBe(1);
  return opened;
}

describe('records view', () => {
  it('shows every credential page by page, never all at once, and scrolls to the last', async () => {
    const { page, problems } = await open();
    expect(await page.getByTestId('records-total').textContent()).toBe('300 credentials');
    // Virtualized: far fewer rows in the DOM than records.
    expect(await grid(page).getByRole('row').count()).toBeLessThan(80);
    await grid(page).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await expect.poll(() => row(page, 'Diploma 299').count()).toBe(1);
    expect(await row(page, 'Diploma 299').getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'records', 'scrolled-to-end');
    expect(await seriousA11yProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('finds records by a word of their metadata and sorts by title', async () => {
    const { page } = await open();
    await page.getByRole('searchbox', { name: 'Search records' }).fill('lovelace');
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('60 credentials');
    await screenshot(page, 'records', 'search');
    await page.getByRole('searchbox', { name: 'Search records' }).fill('');
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('300 credentials');
    await page.getByRole('columnheader', { name: /Title/ }).getByRole('button').click();
    await page.getByRole('columnheader', { name: /Title/ }).getByRole('button').click();
    await expect.poll(() => grid(page).getByRole('row').nth(1).textContent()).toContain('Diploma 299');
  });

  it('"Select all matching" clicked while a search is still being typed selects what the search finds, and the selection stays', async () => {
    const { page } = await open();
    // Typed and clicked in one task of the page, so surely within the pause after the last key,
    // before the search has run (a loaded machine could otherwise let the pause pass between them).
    await page.evaluate(`(() => {
      const search = document.querySelector('input[type=search][aria-label="Search records"]');
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(search, 'turing');
      search.dispatchEvent(new Event('input', { bubbles: true }));
      [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Select all matching').click();
    })()`);
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('60 credentials');
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('60 credentials selected');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule' });
    await expect.poll(() => dialog.textContent()).toContain('60 credentials');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('selected-count').textContent()).toBe('60 credentials selected');
  });

  it('selects all matching a tag filter, adds tags to all of them in one step, and Undo puts every credential\'s tags back exactly', async () => {
    const { page } = await open();
    const tags = page.getByRole('combobox', { name: 'Filter by tags' });
    await tags.fill('class-2026');
    await tags.press('Enter');
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('150 credentials');
    await page.getByRole('button', { name: 'Select all matching' }).click();
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('150 credentials selected');

    await page.getByRole('button', { name: 'Add tags', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add tags' });
    await dialog.getByRole('textbox', { name: 'Tags' }).fill('honours, signed');
    await screenshot(page, 'records', 'add-tags-dialog');
    expect(await seriousA11yProblems(page)).toEqual([]);
    const before = new Map((await service().listCredentials({ per_page: 0 })).items.map((c) => [c.uid, c.tags]));
    await dialog.getByRole('button', { name: 'Apply' }).click();

    // No second dialog: the toast says what changed and offers Undo.
    const toast = page.getByRole('status').getByTestId('toast').filter({ hasText: 'Tagged 150 credentials.' });
    await expect.poll(() => toast.count(), { timeout: 20_000 }).toBe(1);
    expect(await dialog.count()).toBe(0);
    await expect.poll(() => tagged('honours'), { timeout: 20_000 }).toBe(150);
    expect(await tagged('signed')).toBe(150);
    // Only the filter's records: the others are untouched.
    expect((await service().listCredentials({ and_tags: 'class-2025,honours', per_page: 1 })).total_items).toBe(0);
    // The table updates live, without a reload.
    await expect.poll(() => row(page, 'Diploma 000').textContent()).toContain('honours');
    await screenshot(page, 'records', 'add-tags-done');

    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.getByRole('status').getByTestId('toast').filter({ hasText: 'Tags put back on 150 credentials.' }).count(), { timeout: 20_000 }).toBe(1);
    // Every credential carries exactly the tags it had, in their order; the selection still stands.
    const after = new Map((await service().listCredentials({ per_page: 0 })).items.map((c) => [c.uid, c.tags]));
    expect(after).toEqual(before);
    await expect.poll(() => row(page, 'Diploma 000').textContent()).not.toContain('honours');
    expect(await page.getByTestId('selected-count').textContent()).toBe('150 credentials selected');
    await screenshot(page, 'records', 'add-tags-undone');
  });

  it('selects with click, Shift-click and Ctrl-click, and schedules the selection on an engine', async () => {
    const { page } = await open();
    await row(page, 'Diploma 010').click();
    await row(page, 'Diploma 014').click({ modifiers: ['Shift'] });
    await row(page, 'Diploma 017').click({ modifiers: ['Control'] });
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('6 credentials selected');
    await row(page, 'Diploma 012').click({ modifiers: ['Control'] });
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('5 credentials selected');

    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule' });
    await expect.poll(() => dialog.getByTestId('next-issuing').textContent()).toContain('issued on');
    await dialog.getByRole('checkbox', { name: 'local' }).check();
    await screenshot(page, 'records', 'schedule-dialog');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Schedule' }).click();

    await expect.poll(() => row(page, 'Diploma 014').textContent(), { timeout: 20_000 }).toContain('scheduled');
    expect(await row(page, 'Diploma 012').textContent()).toContain('not scheduled');
    const jobs = await service().listJobs({ status: 'scheduled' });
    expect(jobs.total_items).toBe(1);
    const onJob = await service().listJobCredentials(jobs.items[0]!.uid, { per_page: 0 });
    expect(onJob.items.map((c) => c.title).sort()).toEqual(['Diploma 010', 'Diploma 011', 'Diploma 013', 'Diploma 014', 'Diploma 017']);
    await screenshot(page, 'records', 'scheduled');
  });

  it('works with the keyboard alone: move, extend, tag, remove the tag', async () => {
    const { page } = await open();
    await grid(page).focus();
    await page.keyboard.press('ArrowDown'); // Diploma 000
    await page.keyboard.press('ArrowDown'); // 001
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown'); // 001..003
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('3 credentials selected');
    await page.keyboard.press('Control+Shift+T');
    const dialog = page.getByRole('dialog', { name: 'Add tags' });
    await dialog.getByRole('textbox', { name: 'Tags' }).fill('keyboard');
    await page.keyboard.press('Enter');
    await expect.poll(() => tagged('keyboard'), { timeout: 20_000 }).toBe(3);
    await expect.poll(() => row(page, 'Diploma 002').textContent()).toContain('keyboard');

    // Focus is back on the table after the dialog: remove the tag from the same three.
    await page.getByRole('button', { name: 'Remove tag' }).focus();
    await page.keyboard.press('Enter');
    const remove = page.getByRole('dialog', { name: 'Remove tag' });
    await remove.getByRole('textbox', { name: 'Tag' }).fill('keyboard');
    await page.keyboard.press('Enter');
    await expect.poll(() => tagged('keyboard'), { timeout: 20_000 }).toBe(0);
    await screenshot(page, 'records', 'keyboard');
  });

  it('says why a bulk change was refused, and changes nothing', async () => {
    const { page } = await open();
    await row(page, 'Diploma 001').click();
    await page.getByRole('button', { name: 'Add tags', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add tags' });
    await dialog.getByRole('textbox', { name: 'Tags' }).fill('no spaces allowed');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('invalid_tag');
    await screenshot(page, 'records', 'refused');
  });
});
