/**
 * The command table end to end in Chromium through the web bridge, on a real engine: every
 * command reachable from the application menu's template, the command palette, the browser's
 * `Menu` button and its shortcut; the palette and the menu by keyboard alone; screenshots in
 * both themes (build/screenshots/commands-*.png) and axe-core with each open.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, commandsFor, shortcutLabel, type CommandSpec } from '../../common/commands.js';
import { buildMenuTemplate, menuItems } from '../../main/app/app-menu.js';
import { stopWatchFolders } from '../../main/app/handlers/watch-folders.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';

let browser: Browser;
let workspace: Workspace;

beforeAll(async () => {
  const rendererDir = builtRenderer();
  browser = await launchChromium();
  workspace = await openWorkspace(rendererDir);
  await seedCredentials(workspace, 5, (i) => ({ title: `Certificate of ${['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara'][i]}`, metadata: { n: i }, tags: ['class-2026'] }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stopWatchFolders();
  await workspace?.close();
});

const grid = (page: Page) => page.getByRole('grid', { name: 'Credentials' });
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first().textContent();
const BROWSER_COMMANDS = commandsFor('browser');
/** The shortcuts the page itself dispatches (the platform's own: clipboard, undo, are the browser's). */
const DISPATCHED = BROWSER_COMMANDS.filter((c) => c.accelerator && !c.role);

async function open(): Promise<Page> {
  const { page } = await openPage(browser, workspace, { fileChoosers: true });
  await expect.poll(() => grid(page).getByRole('row').filter({ hasText: 'Certificate of Ada' }).count()).toBe(1);
  return page;
}

/** What a command's shortcut visibly does in the window, checked after pressing it. */
const SHORTCUT_EFFECTS: Record<string, (page: Page) => Promise<void>> = {
  'view.records': async (page) => expect.poll(() => heading(page)).toBe('Records'),
  'view.jobs': async (page) => expect.poll(() => heading(page)).toBe('Jobs'),
  'view.verify': async (page) => expect.poll(() => heading(page)).toBe('Verify'),
  'view.watch': async (page) => expect.poll(() => heading(page)).toBe('Watch folders'),
  'view.settings': async (page) => expect.poll(() => heading(page)).toBe('Settings'),
  'view.activity': async (page) => expect.poll(() => heading(page)).toBe('Activity'),
  'edit.find': async (page) => expect.poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Search records'),
  'edit.selectAllMatching': async (page) => expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('5 credentials selected'),
  'edit.addTags': async (page) => expect.poll(() => page.getByRole('dialog', { name: 'Add tags' }).count()).toBe(1),
  'edit.schedule': async (page) => expect.poll(() => page.getByRole('dialog', { name: 'Schedule' }).count()).toBe(1),
  'view.palette': async (page) => expect.poll(() => page.getByRole('dialog', { name: 'Command palette' }).count()).toBe(1),
  'file.exportList': async (page) => expect.poll(() => page.getByRole('dialog', { name: 'Export list' }).count()).toBe(1),
  'help.shortcuts': async (page) => {
    await expect.poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(1);
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).textContent()).toContain('Ctrl+Shift+T');
    await screenshot(page, 'commands', 'shortcuts-help');
    expect(await seriousA11yProblems(page)).toEqual([]);
  },
};
/** Shortcuts that open the browser's file chooser. */
const FILE_CHOOSERS = new Set(['file.addFiles', 'file.addFolder', 'file.importCsv']);

/** Playwright's spelling of a command's shortcut (Ctrl on Linux, where the tests run). */
function keysOf(command: CommandSpec): string {
  return command.accelerator!.replace('CmdOrCtrl', 'Control').replace('+=', '+Equal');
}

describe('commands', () => {
  it('reaches every command of the table three ways: the application menu, the palette and its shortcut', async () => {
    // 1. The Electron menu template holds every command of the desktop window, with its shortcut
    // (the browser's own, asking leave to notify, is in the palette and the Menu button below).
    const template = buildMenuTemplate({ mac: false, send: () => undefined, setTheme: () => undefined });
    const items = menuItems(template).filter((i) => i.id);
    expect(COMMANDS.filter((c: CommandSpec) => c.only === 'browser').map((c) => c.id)).toEqual(['view.notifications']);
    for (const command of commandsFor('desktop')) {
      expect(items.find((i) => i.id === command.id), command.id).toMatchObject({ label: command.title, ...(command.accelerator ? { accelerator: command.accelerator } : {}) });
    }

    // 2. The palette lists every command the browser window offers, by name, with its shortcut.
    const page = await open();
    await grid(page).focus();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const options = palette.getByRole('option');
    await expect.poll(() => options.count()).toBe(BROWSER_COMMANDS.length - 1); // all but the palette itself
    const texts = await options.allTextContents();
    for (const command of BROWSER_COMMANDS.filter((c) => c.id !== 'view.palette')) {
      const line = texts.find((t) => t.startsWith(command.title.replace(/…$/, '')));
      expect(line, command.id).toBeDefined();
      if (command.accelerator) expect(line, command.id).toContain(shortcutLabel(command.accelerator, false));
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => palette.count()).toBe(0);

    // 3. Every shortcut the page dispatches does what its command does.
    expect(DISPATCHED.map((c) => c.id).sort()).toEqual([...Object.keys(SHORTCUT_EFFECTS), ...FILE_CHOOSERS].sort());
    for (const command of DISPATCHED) {
      await page.keyboard.press('Control+1');
      await expect.poll(() => heading(page)).toBe('Records');
      if (command.id === 'edit.addTags' || command.id === 'edit.schedule') {
        await grid(page).getByRole('row').filter({ hasText: 'Certificate of Ada' }).click();
      } else {
        await grid(page).focus();
      }
      if (FILE_CHOOSERS.has(command.id)) {
        const chooser = page.waitForEvent('filechooser');
        await page.keyboard.press(keysOf(command));
        expect((await chooser).isMultiple(), command.id).toBe(command.id === 'file.addFiles');
        continue;
      }
      await page.keyboard.press(keysOf(command));
      await SHORTCUT_EFFECTS[command.id]!(page);
      await page.keyboard.press('Escape'); // closes what opened (a dialog), or clears the selection
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
    }
  });

  it('opens a section, and a recent record, from the palette by keyboard alone', async () => {
    const page = await open();
    // A record opened once is offered by its title.
    await grid(page).getByRole('row').filter({ hasText: 'Certificate of Grace' }).dblclick();
    await expect.poll(() => page.getByRole('complementary', { name: 'Credential detail' }).textContent()).toContain('Certificate of Grace');
    await grid(page).focus();
    await page.keyboard.press('Control+k');
    const combobox = page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox');
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("role")')).toBe('combobox');
    await page.keyboard.type('Verify');
    await screenshot(page, 'commands', 'palette-light');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'commands', 'palette-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Enter');
    await expect.poll(() => heading(page)).toBe('Verify');

    await page.keyboard.press('Control+k');
    await combobox.fill('grace');
    const record = page.getByRole('option', { name: /Certificate of Grace/ });
    await expect.poll(() => record.count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await record.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await expect.poll(() => heading(page)).toBe('Records');

    // Nothing matches: said so, and Enter does nothing.
    await page.keyboard.press('Control+k');
    await combobox.fill('no such thing');
    await expect.poll(() => page.getByRole('dialog', { name: 'Command palette' }).textContent()).toContain('No command or recent record matches');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'Command palette' }).count()).toBe(0);
  });

  it("offers every command in the browser's Menu button, with shortcuts, greyed out where it cannot run, by mouse and keyboard", async () => {
    const page = await open();
    const button = page.getByRole('button', { name: 'Menu', exact: true });
    await button.click();
    const menu = page.getByRole('menu', { name: 'Menu' });
    await expect.poll(() => menu.getByRole('menuitem').count()).toBe(BROWSER_COMMANDS.length);
    for (const group of ['File', 'Edit', 'View', 'Help']) expect(await menu.getByRole('group', { name: group }).count()).toBe(1);
    expect(await menu.getByRole('menuitem', { name: 'Add tags…' }).getAttribute('aria-disabled')).toBe('true');
    expect(await menu.getByRole('menuitem', { name: 'Add tags…' }).getAttribute('aria-keyshortcuts')).toBe('Control+Shift+T');
    expect(await menu.getByRole('menuitem', { name: 'Add tags…' }).textContent()).toContain('Ctrl+Shift+T');
    // The first item has the focus; arrows move it.
    expect(await page.evaluate('document.activeElement?.textContent')).toContain('Add files');
    await screenshot(page, 'commands', 'menu-light');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'commands', 'menu-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Menu');

    // By keyboard: open, type-ahead to Jobs, Enter.
    await page.keyboard.press('Enter');
    await expect.poll(() => menu.count()).toBe(1);
    await page.keyboard.press('j');
    expect(await page.evaluate('document.activeElement?.textContent')).toContain('Jobs');
    await page.keyboard.press('Enter');
    await expect.poll(() => heading(page)).toBe('Jobs');
    expect(await menu.count()).toBe(0);

    // By mouse, acting on the selection: Add tags after selecting a row.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Records', exact: true }).click();
    await grid(page).getByRole('row').filter({ hasText: 'Certificate of Alan' }).click();
    await button.click();
    await menu.getByRole('menuitem', { name: 'Add tags…' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Add tags' }).count()).toBe(1);
    await page.keyboard.press('Escape');

    // A click outside closes the menu.
    await button.click();
    await expect.poll(() => menu.count()).toBe(1);
    await page.mouse.click(900, 500);
    await expect.poll(() => menu.count()).toBe(0);
  });

  it('shows the shortcuts in tooltips', async () => {
    const page = await open();
    const sections = page.getByRole('navigation', { name: 'Sections' });
    expect(await sections.getByRole('button', { name: 'Jobs', exact: true }).getAttribute('title')).toBe('Jobs (Ctrl+2)');
    expect(await page.getByRole('button', { name: 'Add tags', exact: true }).getAttribute('title')).toBe('Add tags (Ctrl+Shift+T)');
    expect(await page.getByRole('searchbox', { name: 'Search records' }).getAttribute('aria-keyshortcuts')).toBe('Control+F');
  });

  it('opens a row menu by right click: the row selected, focus in the menu, Escape back to the table, Copy credential id copies', async () => {
    const page = await open();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const row = grid(page).getByRole('row').filter({ hasText: 'Certificate of Edsger' });
    await row.click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Credential' });
    await expect.poll(() => menu.count()).toBe(1);
    expect(await row.getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('selected-count').textContent()).toBe('1 credential selected');
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items).toEqual(expect.arrayContaining(['Open', 'Copy credential id', 'Add tags…Ctrl+Shift+T', 'Schedule…Ctrl+Shift+S', 'Export proofs…']));
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Open');
    await screenshot(page, 'commands', 'row-menu-light');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'commands', 'row-menu-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Credentials');

    await row.click({ button: 'right' });
    await menu.getByRole('menuitem', { name: 'Copy credential id' }).click();
    await expect.poll(() => menu.count()).toBe(0);
    const [edsger] = (await workspace.engine.serviceFor(workspace.partner.id).listCredentials({ per_page: 100 })).items.filter((c) => c.title === 'Certificate of Edsger');
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(edsger!.uid);
    await expect.poll(() => page.locator('.toasts').textContent()).toContain('The credential id copied');
  });

  it('opens the focused row menu from the keyboard (Shift+F10, the context-menu key) and acts on the selection', async () => {
    const page = await open();
    await grid(page).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: 'Credential' });
    await expect.poll(() => menu.count()).toBe(1);
    await page.keyboard.press('ArrowDown'); // Copy credential id
    await page.keyboard.press('ArrowDown'); // Add tags…
    expect(await page.evaluate('document.activeElement?.textContent')).toContain('Add tags');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add tags' });
    await expect.poll(() => dialog.count()).toBe(1);
    await dialog.getByRole('textbox', { name: 'Tags' }).fill('from-menu');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    const service = workspace.engine.serviceFor(workspace.partner.id);
    await expect.poll(async () => (await service.listCredentials({ and_tags: 'from-menu', per_page: 10 })).items.map((c) => c.title)).toEqual(['Certificate of Alan']);

    // The context-menu key does the same; type-ahead and Escape. The dialog hands focus back as it
    // closes: the grid is focused after that, or the key would land wherever focus returned.
    await expect.poll(() => dialog.count()).toBe(0);
    await grid(page).focus();
    await page.keyboard.press('ContextMenu');
    await expect.poll(() => menu.count()).toBe(1);
    await page.keyboard.press('s');
    expect(await page.evaluate('document.activeElement?.textContent')).toContain('Schedule');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
  });

  it('offers a job menu in Jobs by right click', async () => {
    const service = workspace.engine.serviceFor(workspace.partner.id);
    const [barbara] = (await service.listCredentials({ per_page: 100 })).items.filter((c) => c.title === 'Certificate of Barbara');
    const job = await service.scheduleCredentials({ engine: 'local', credentials: [barbara!.uid] });
    const page = await open();
    await page.keyboard.press('Control+2');
    const jobs = page.getByRole('grid', { name: 'Jobs' });
    const row = jobs.getByRole('row').filter({ hasText: 'scheduled' });
    await expect.poll(() => row.count()).toBe(1);
    await row.click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Job' });
    await expect.poll(() => menu.count()).toBe(1);
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Open', 'Copy job id', 'Issue now', 'Export proofs…']);
    expect(await menu.getByRole('menuitem', { name: 'Export proofs…' }).getAttribute('aria-disabled')).toBe('true');
    await screenshot(page, 'commands', 'job-menu');
    await menu.getByRole('menuitem', { name: 'Open' }).click();
    await expect.poll(() => page.getByRole('complementary', { name: 'Job detail' }).textContent()).toContain(job.uid.slice(-8));
  });

  it('offers a watch folder menu by right click and from the keyboard inside its card', async () => {
    const inbox = join(workspace.workDir, 'inbox');
    mkdirSync(inbox);
    const page = await open();
    await page.keyboard.press('Control+4');
    await page.getByRole('button', { name: 'Add watch folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add watch folder' });
    await dialog.getByRole('textbox', { name: 'Folder to watch' }).fill(inbox);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    const card = page.getByRole('article').filter({ hasText: inbox });
    await expect.poll(() => card.textContent(), { timeout: 20_000 }).toContain('watching');

    await card.getByRole('heading').click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Watch folder' });
    await expect.poll(() => menu.count()).toBe(1);
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Pause', 'Failed files', 'Open output folder', 'Copy folder path', 'Copy output folder path', 'Remove…']);
    await screenshot(page, 'commands', 'watch-folder-menu');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await menu.getByRole('menuitem', { name: 'Pause' }).click();
    await expect.poll(() => card.textContent()).toContain('paused');

    const failed = card.getByRole('button', { name: 'Failed files' });
    await failed.focus();
    await page.keyboard.press('Shift+F10');
    await expect.poll(() => menu.count()).toBe(1);
    expect(await menu.getByRole('menuitem').first().textContent()).toBe('Resume');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Failed files');
  });

  it("notifies through a stand-in for the browser's notifier when work ends in the background; badges; the Partner in the title", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    // Stand-ins: the browser's Notification API (recording, permission asked for once) and the
    // window's focus (headless Chromium has no other window to lose it to).
    await context.addInitScript(`
      window.__notified = []; window.__asked = 0; window.__standInFocus = true;
      class StandInNotification {
        static permission = 'default';
        static async requestPermission() { window.__asked++; StandInNotification.permission = 'granted'; return 'granted'; }
        constructor(title, options) { window.__notified.push({ title, body: options && options.body }); }
      }
      Object.defineProperty(window, 'Notification', { value: StandInNotification, configurable: true, writable: true });
      document.hasFocus = () => window.__standInFocus;
    `);
    const page = await context.newPage();
    await page.goto(workspace.bridge.url);
    await expect.poll(() => page.title()).toBe('Acme University — Proofdesk');
    await expect.poll(() => workspace.context.events.size).toBeGreaterThan(0);
    const notified = () => page.evaluate('window.__notified') as Promise<{ title: string; body: string }[]>;
    const task = async (label: string) => {
      const started = workspace.context.tasks.start('tags-add', label, async () => 'ok');
      await expect.poll(() => page.locator('.toasts').textContent()).toContain(`Done: ${label}.`);
      return started;
    };

    // Not asked yet: nothing is shown, even in the background.
    await page.evaluate('window.__standInFocus = false');
    await task('Adding tags to 3 credentials');
    expect(await notified()).toEqual([]);

    // Asked politely, on a key press: View › Turn on notifications, from the palette.
    await page.evaluate('window.__standInFocus = true');
    await grid(page).focus();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('notifications');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('window.__asked')).toBe(1);
    await expect.poll(() => page.locator('.toasts').textContent()).toContain('Notifications are on');

    // In the background: a task that ends is notified; in the foreground it is not.
    await page.evaluate('window.__standInFocus = false');
    await task('Scheduling 2 credentials');
    await expect.poll(notified).toEqual([{ title: 'Scheduling 2 credentials', body: 'Done.' }]);
    await page.evaluate('window.__standInFocus = true');
    await task('Removing a tag from 2 credentials');
    expect(await notified()).toHaveLength(1);

    // A watch folder refuses a file: a badge on Watch folders until it is opened, and a notification.
    const inbox = join(workspace.workDir, 'refusing-inbox');
    mkdirSync(inbox);
    await page.keyboard.press('Control+4');
    await page.getByRole('button', { name: 'Add watch folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add watch folder' });
    await dialog.getByRole('textbox', { name: 'Folder to watch' }).fill(inbox);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.getByRole('article').filter({ hasText: inbox }).textContent(), { timeout: 20_000 }).toContain('watching');
    await page.keyboard.press('Control+1');
    await page.evaluate('window.__standInFocus = false');
    writeFileSync(join(inbox, 'erin.pdf.json'), '{ not json');
    writeFileSync(join(inbox, 'erin.pdf'), 'erin diploma');
    await expect.poll(() => page.getByTestId('badge-watch').textContent(), { timeout: 30_000, interval: 500 }).toBe('11 refused file');
    await expect.poll(notified).toContainEqual({ title: 'Watch folder refused files', body: `1 file in ${inbox} was refused: see Failed files.` });
    // The section's button keeps its name; the badge beside it says what it counts.
    expect(await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Watch folders', exact: true }).count()).toBe(1);
    await screenshot(page, 'commands', 'badge');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.keyboard.press('Control+4');
    await expect.poll(() => page.getByTestId('badge-watch').count()).toBe(0);
    await context.close();
  });
});

