/**
 * The pseudo-locale `en-XA` (renderer/i18n/pseudo-locale.ts: every catalogue message accented,
 * a third longer and bracketed) through the web bridge: a visible text node with none of its
 * marks is a word that did not come from the catalogue, or a sentence glued from pieces.
 * Data (titles, tags, uids, the Partner's name, numbers and dates) carries no marks and is
 * left out by what it is.
 */
import { userInfo } from 'node:os';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtRenderer, launchChromium, openWorkspace, screenshot, seedCredentials, type Workspace } from './shell-harness.js';

let browser: Browser;
let workspace: Workspace;
const TITLES = Array.from({ length: 5 }, (_, i) => `Diploma ${i}`);
// The activity log names the OS user who did what.
const DATA = ['Acme University', 'class-2026', 'local', 'demo', 'Proofdesk', userInfo().username, ...TITLES];

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
  await seedCredentials(workspace, TITLES.length, (i) => ({ title: TITLES[i]!, metadata: { n: String(i) }, tags: ['class-2026'] }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

/**
 * The visible text nodes of the page that carry no pseudo-locale mark and are not data.
 * A string, not a function: the tests compile without the DOM's types.
 */
const UNMARKED = (data: string[]) => `(() => {
  const data = new Set(${JSON.stringify(data)});
  const marked = /[\\[\\]áƀçðéƒĝĥíĵķļɱñöþǫŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĻḾÑÖÞǪŔŠŢÛṼŴẊÝŽ~]/;
  const plain = /^[\\d\\s.,:;\\/—–·()+\\-−%×…#▲▼↑↓]*$/;
  const uid = /^[0-9a-f]{8}-[0-9a-f-]{27}$/;
  const date = /^[A-Z][a-z]{2} \\d{1,2}, \\d{4}(, \\d{1,2}:\\d{2}\\s?[AP]M)?$/;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest('code, time, kbd, option, [aria-hidden=true], .visually-hidden, script, style')) continue;
    if (parent.getClientRects().length === 0) continue;
    if (marked.test(text) || plain.test(text) || date.test(text) || uid.test(text) || data.has(text)) continue;
    found.push(text);
  }
  return [...new Set(found)];
})()`;

/** The views whose every word is in the catalogue so far, by their pseudo-locale heading. */
const VIEWS = [
  ['records', 'shell.section.records'],
  ['jobs', 'shell.section.jobs'],
  ['watch-folders', 'shell.section.watch'],
  ['settings', 'shell.section.settings'],
  ['activity', 'shell.section.activity'],
] as const;

describe('the pseudo-locale', () => {
  it('shows no word outside the catalogue in the shell, Records, Jobs, Watch folders, Settings and Activity', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-XA' });
    const page = await context.newPage();
    await page.goto(workspace.bridge.url);
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('en-XA');
    const sections = page.locator('nav.sidebar button.sidebar-link');
    await expect.poll(() => sections.count()).toBe(6);
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(TITLES.length);
    const ids = ['records', 'jobs', 'verify', 'watch', 'settings', 'activity'];
    for (const [file, id] of VIEWS) {
      await sections.nth(ids.indexOf(id.replace('shell.section.', ''))).click();
      await expect.poll(() => page.locator('main h1').textContent()).toMatch(/^\[.*\]$/);
      await expect.poll(() => page.locator('main').textContent()).not.toContain('Loading');
      await screenshot(page, 'pseudo-locale', file);
      expect(await page.evaluate(UNMARKED(DATA)), file).toEqual([]);
    }
    await context.close();
  });
});
