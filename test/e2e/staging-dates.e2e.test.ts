/**
 * Staging's expiry cells in the window's locale, in Chromium (browser locale de-DE) through the
 * web bridge on a real engine: a day typed as German writes it (24.12.2030), an ISO date pasted
 * into one cell, and a column pasted from a spreadsheet in either form and a fill down all reach the service as
 * ISO dates. Screenshots in build/screenshots/staging-dates-*.png, light and dark.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropFiles } from './drop-files.js';
import { builtRenderer, launchChromium, screenshot, seriousA11yProblems } from './shell-harness.js';
import { openTwoEngineWorkspace, type TwoEngineWorkspace } from './two-engines.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const de = JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/de.json'), 'utf8')) as Record<string, string>;

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

describe('staging expiry in German', () => {
  it('reads and takes days as German writes them, and sends ISO dates to the service', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'de-DE' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(workspace.bridge.url);

    const folder = join(workspace.engine.dataDir, '..', 'dated');
    mkdirSync(folder, { recursive: true });
    for (const name of ['ann', 'ben', 'cai', 'dee', 'eve']) writeFileSync(join(folder, `${name}.pdf`), `diploma of ${name} with an expiry`);
    await page.getByRole('region', { name: de['staging.drop.region'] }).waitFor();
    await dropFiles(page, folder, true);
    const staging = page.getByRole('region', { name: de['staging.region'] });
    await staging.getByText('5 Zeilen').waitFor({ timeout: 30_000 });
    // The UI.md name, in German: "Ablaufdatum von <file>".
    const expiryOf = (name: string) => staging.getByRole('textbox', { name: de['staging.row.expiry']!.replace('{name}', `${name}.pdf`), exact: true });

    // Typed as German writes a day, and left by Tab: the field keeps it in that form.
    await expect.poll(() => expiryOf('ann').getAttribute('placeholder')).toBe('TT.MM.JJJJ');
    await expiryOf('ann').click();
    await page.keyboard.type('24.12.2030');
    await page.keyboard.press('Tab');
    await expect.poll(() => expiryOf('ann').inputValue()).toBe('24.12.2030');
    expect(await expiryOf('ann').getAttribute('aria-invalid')).toBeNull();

    // An ISO date pasted into one cell (the field's own paste) reads as German once left.
    await expiryOf('ben').click();
    await page.evaluate(`navigator.clipboard.writeText('2031-01-15')`);
    await page.keyboard.press('Control+V');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => expiryOf('ben').inputValue()).toBe('15.01.2031');

    // A column pasted from a spreadsheet, one day in each form.
    await expiryOf('cai').click();
    await page.evaluate(`navigator.clipboard.writeText('01.03.2032\\n2032-03-02\\n')`);
    await page.keyboard.press('Control+V');
    await staging.getByText('2 Zellen eingefügt').waitFor();
    await expect.poll(() => expiryOf('cai').inputValue()).toBe('01.03.2032');
    await expect.poll(() => expiryOf('dee').inputValue()).toBe('02.03.2032');

    // Fill down by keyboard: Shift+ArrowDown from dee takes in eve, Ctrl+D copies dee's day.
    await expiryOf('dee').click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Control+D');
    await staging.getByText('1 Zelle ausgefüllt').waitFor();
    await expect.poll(() => expiryOf('eve').inputValue()).toBe('02.03.2032');

    // The calendar of a cell opens on its day, in German, and Escape gives the focus back.
    const choose = staging.getByRole('button', { name: de['dateField.choose']!.replace('{field}', de['staging.row.expiry']!.replace('{name}', 'ann.pdf')) });
    await choose.click();
    const calendar = page.getByRole('dialog', { name: de['dateField.calendar']!.replace('{field}', de['staging.row.expiry']!.replace('{name}', 'ann.pdf')) });
    await calendar.getByText('Dezember 2030').waitFor();
    await screenshot(page, 'staging-dates', '0-calendar');
    await page.keyboard.press('Escape');
    await calendar.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(`document.activeElement.getAttribute('aria-label')`)).toBe('Ablaufdatum von ann.pdf wählen');

    await screenshot(page, 'staging-dates', '1-german-light');
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'staging-dates', '2-german-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await staging.getByRole('group', { name: de['staging.createGroup'] }).getByRole('button', { name: de['staging.create'], exact: true }).click();
    await staging.getByText('5 Zeilen · 5 erstellt').waitFor({ timeout: 30_000 });
    // Each cell's day was read back above; the service holds each as the start of that day (UTC).
    const made = (await workspace.service.listCredentials({ per_page: 10 })).items;
    expect(made.map((c) => c.expiry_date).sort()).toEqual(['2030-12-24', '2031-01-15', '2032-03-01', '2032-03-02', '2032-03-02'].map((day) => `${day}T00:00:00.000Z`));
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
