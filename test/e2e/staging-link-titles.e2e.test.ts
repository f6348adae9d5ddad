/**
 * Staging's Linked records in Chromium through the web bridge on a real engine: uids typed into
 * a row's links show the linked credentials' titles under them (comma-separated, cut to fit with
 * the whole list on hover, and read out as the field's description); a uid of no credential adds
 * nothing. Screenshots in both themes: build/screenshots/staging-link-titles-*.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropFiles } from './drop-files.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seriousA11yProblems, type Workspace } from './shell-harness.js';

const DIPLOMA = 'Diploma — Ada Lovelace';
const TRANSCRIPT = 'Transcript of Records — Ada Lovelace, Bachelor of Science in Mathematics 2024–2027';
const NO_SUCH_UID = '0190d6c4-7a1b-7c2d-8e3f-123456789abc';

let browser: Browser;
let workspace: Workspace;
let diploma: string;
let transcript: string;

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
  const service = workspace.engine.serviceFor(workspace.partner.id);
  [diploma, transcript] = (await service.createCredentials([DIPLOMA, TRANSCRIPT].map((title) => ({ title, metadata: { student: 'Ada Lovelace' } })))).map((c) => c.uid) as [string, string];
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

describe("staging's Linked records", () => {
  it('shows the linked credentials by their titles under the uids, the whole list on hover', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await page.setViewportSize({ width: 1280, height: 800 });
    const folder = join(workspace.workDir, 'supplements');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'supplement.pdf'), 'diploma supplement of Ada Lovelace');
    await dropFiles(page, folder, true);
    const staging = page.getByRole('region', { name: 'Staging' });
    const links = staging.getByRole('textbox', { name: 'Linked records of supplement.pdf', exact: true });
    await links.waitFor({ timeout: 30_000 });

    await links.fill(`${diploma.toUpperCase()}, ${NO_SUCH_UID}, ${transcript}`);
    await page.keyboard.press('Tab');
    const names = staging.locator('.staging-list-names');
    await expect.poll(() => names.textContent()).toBe(`${DIPLOMA}, ${TRANSCRIPT}`);
    expect(await names.getAttribute('title')).toBe(`${DIPLOMA}, ${TRANSCRIPT}`);
    // The uids stay what the field holds; the titles describe it.
    expect(await links.inputValue()).toBe(`${diploma.toUpperCase()}, ${NO_SUCH_UID}, ${transcript}`);
    const described = (await links.getAttribute('aria-describedby'))!.split(' ');
    expect(described).toContain(await names.getAttribute('id'));
    // Longer than the column: cut with "…" on one line.
    const cut = await names.evaluate((line) => {
      const style = line.ownerDocument.defaultView!.getComputedStyle(line);
      return [line.scrollWidth > line.clientWidth, style.textOverflow, style.whiteSpace];
    });
    expect(cut).toEqual([true, 'ellipsis', 'nowrap']);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await screenshot(page, 'staging-link-titles', theme);
    }
    expect(await seriousA11yProblems(page)).toEqual([]);

    // A uid of no credential alone names nothing.
    await links.fill(NO_SUCH_UID);
    await expect.poll(() => names.count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
