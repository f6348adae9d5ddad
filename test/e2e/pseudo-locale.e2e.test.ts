/**
 * The pseudo-locale `en-XA` (renderer/i18n/pseudo-locale.ts: every catalogue message accented,
 * a third longer and bracketed) through the web bridge, over every view (Verify with results
 * and a result's detail), the dialogs, the row menus, the `Menu` button and the command
 * palette. A visible text, accessible name, tooltip or placeholder with words outside the
 * brackets did not come from the catalogue, or was glued from pieces. Data (titles, tags, uids,
 * file names, the Partner's name, numbers and dates) carries no marks and is left out by what it
 * is; so are main's own sentences, which the page marks `lang="en"` (renderer/i18n/main-words.tsx).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { pseudoText } from '../../renderer/i18n/pseudo-locale.js';
import { issueNowAndFinish, makeTempDir, removeTempDirs } from '../support/issuing-fixture.js';
import { dropFiles } from './drop-files.js';
import { builtRenderer, launchChromium, openWorkspace, ROOT, screenshot, seedCredentials, type Workspace } from './shell-harness.js';

const en = JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/en.json'), 'utf8')) as Record<string, string>;

/** A plain message as the pseudo-locale shows it. */
const pseudo = (id: string) => `[${pseudoText(en[id]!)}]`;

let browser: Browser;
let workspace: Workspace;
let proofs: string;
const TITLES = Array.from({ length: 5 }, (_, i) => `Diploma ${i}`);
const PROOF_FILES = ['diploma-0.proof.json', 'tampered.proof.json', 'lonely.pdf'];
// The activity log names the OS user who did what.
// A job without tags is named by its first titles, listed.
const DATA = ['Acme University', 'class-2026', 'local', 'demo', 'Proofdesk', 'forged', userInfo().username, ...TITLES, `${TITLES[0]}, ${TITLES[1]}`, ...PROOF_FILES];

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer());
  await seedCredentials(workspace, TITLES.length, (i) => ({ title: TITLES[i]!, metadata: { n: String(i) }, tags: ['class-2026'] }));
  // Two of them issued on the local chain: jobs to show, and proofs to verify.
  const service = workspace.engine.serviceFor(workspace.partner.id);
  const issued = (await service.listCredentials({ per_page: 100 })).items.filter((c) => c.title === 'Diploma 0' || c.title === 'Diploma 1');
  await service.scheduleCredentials({ engine: 'local', credentials: issued.map((c) => c.uid) });
  await issueNowAndFinish(workspace.engine, service, 'local');
  proofs = join(makeTempDir('proofdesk-e2e-pseudo-'), 'proofs');
  mkdirSync(proofs);
  const certificate = (await service.listCertificates({ per_page: 0 })).items[0]!.certificate.uid;
  const proof = await service.downloadCertificate(certificate);
  writeFileSync(join(proofs, 'diploma-0.proof.json'), proof);
  const tampered = JSON.parse(proof) as ProofFile;
  tampered.certificate.credential.metadata = { n: 'forged' };
  writeFileSync(join(proofs, 'tampered.proof.json'), JSON.stringify(tampered));
  writeFileSync(join(proofs, 'lonely.pdf'), 'an original without its proof');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
  removeTempDirs();
});

/**
 * What of the page shows words outside the catalogue: visible text nodes, and the accessible
 * names, tooltips and placeholders of every element. Complete bracketed messages are taken out
 * (innermost first: a message can hold another), then a lone bracket's side; what is left must
 * be data, numbers or dates. A string, not a function: the tests compile without the DOM's types.
 */
const UNMARKED = (data: string[]) => `(() => {
  const data = new Set(${JSON.stringify(data)});
  const plain = /^[\\d\\s.,:;\\/—–·()+\\-−%×…#▲▼↑↓'"“”„‘’|]*$/;
  const uid = /^[0-9a-f]{8}-[0-9a-f-]{27}$/;
  const date = /^[A-Z][a-z]{2} \\d{1,2}, \\d{4}(, \\d{1,2}:\\d{2}\\s?[AP]M)?$/;
  const words = (text) => {
    let rest = text;
    for (let before = ''; before !== rest; ) {
      before = rest;
      rest = rest.replace(/\\[[^\\[\\]]*\\]/g, ' ');
    }
    // A message split by an element inside it (<b>, a lang=en span): its pieces hold one bracket each.
    rest = rest.replace(/\\[[^\\]]*$/, ' ').replace(/^[^\\[]*\\]/, ' ').trim();
    if (!rest || plain.test(rest) || date.test(rest) || uid.test(rest) || data.has(rest)) return null;
    return /[A-Za-z]{2}/.test(rest) ? rest : null;
  };
  const skipped = (element) => element.closest('code, time, kbd, option, script, style, [lang="en"]');
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || skipped(parent) || parent.closest('[aria-hidden=true]')) continue;
    if (parent.getClientRects().length === 0 && !parent.closest('.visually-hidden')) continue;
    const left = words(node.textContent.trim());
    if (left) found.push(left);
  }
  for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], [aria-description]')) {
    if (skipped(element)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'aria-description']) {
      const value = element.getAttribute(name);
      const left = value && words(value.trim());
      if (left) found.push(name + ': ' + left);
    }
  }
  return [...new Set(found)];
})()`;

async function unmarked(page: Page): Promise<string[]> {
  return (await page.evaluate(UNMARKED(DATA))) as string[];
}

/** Checks the page as it is now, and keeps its picture. */
async function check(page: Page, step: string): Promise<void> {
  await screenshot(page, 'pseudo-locale', step);
  expect(await unmarked(page), step).toEqual([]);
}

const SECTIONS = ['records', 'jobs', 'verify', 'watch', 'settings', 'activity'] as const;

describe('the pseudo-locale', () => {
  it('shows no word outside the catalogue in any view, dialog, menu or the palette', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-XA' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(workspace.bridge.url);
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('en-XA');
    const sidebar = page.getByRole('navigation', { name: pseudo('shell.sidebar.label') });
    const section = (id: (typeof SECTIONS)[number]) => sidebar.getByRole('button', { name: pseudo(`shell.section.${id}`), exact: true });
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(TITLES.length);

    // Every view as it opens.
    for (const id of SECTIONS) {
      await section(id).click();
      await expect.poll(() => page.locator('main h1').textContent()).toBe(pseudo(`shell.section.${id}`));
      await expect.poll(() => page.locator('main').textContent()).not.toContain('Loading');
      await check(page, id);
    }

    // Records: a row's menu, and the dialogs of the selection.
    await section('records').click();
    const credentials = page.getByRole('grid', { name: pseudo('records.table.label') });
    const diploma = credentials.getByRole('row').filter({ hasText: 'Diploma 3' });
    await diploma.click();
    await diploma.click({ button: 'right' });
    await page.getByRole('menu').waitFor();
    await check(page, 'records-row-menu');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    for (const [button, step] of [
      ['records.toolbar.addTags', 'records-add-tags'],
      ['records.toolbar.schedule', 'records-schedule'],
    ] as const) {
      await page.getByRole('button', { name: pseudo(button), exact: true }).click();
      await page.getByRole('dialog').waitFor();
      await check(page, step);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    }
    await page.keyboard.press('Control+e');
    await page.getByRole('dialog').waitFor();
    await check(page, 'records-export-list');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // The command palette, the Menu button, and the Help dialogs.
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog').waitFor();
    await check(page, 'palette');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('button', { name: pseudo('commands.menu'), exact: true }).click();
    await page.getByRole('menu').waitFor();
    await check(page, 'menu-button');
    await page.getByRole('menuitem', { name: new RegExp(`^${pseudo('command.help.about').replace(/[[\]]/g, '\\$&')}`) }).click();
    await page.getByRole('dialog').waitFor();
    await check(page, 'about');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('Control+/');
    await page.getByRole('dialog').waitFor();
    await check(page, 'shortcuts');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // Jobs: the issued job's menu and detail.
    await section('jobs').click();
    const job = page.getByRole('grid', { name: pseudo('jobs.table.label') }).getByRole('row').filter({ hasText: pseudo('chain.local') }).first();
    await job.click({ button: 'right' });
    await page.getByRole('menu').waitFor();
    await check(page, 'jobs-row-menu');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    await page.keyboard.press('Enter');
    await page.getByRole('complementary', { name: pseudo('jobs.detail.label') }).waitFor();
    await check(page, 'jobs-detail');

    // Verify with results: a good proof, a tampered one and an original alone; a result's detail and menu.
    await section('verify').click();
    await dropFiles(page, PROOF_FILES.map((name) => join(proofs, name)));
    const results = page.getByRole('grid', { name: pseudo('verify.table.label') });
    await expect.poll(() => results.getByRole('row').filter({ hasText: '.proof.json' }).count(), { timeout: 30_000 }).toBe(2);
    // The run is over: the summary says how many were verified (`ṽéŕíƒíéð`), no longer `Ṽéŕíƒýíñĝ`.
    await expect.poll(() => page.getByTestId('verify-progress').textContent(), { timeout: 30_000 }).toMatch(/ṽéŕíƒíéð/);
    await check(page, 'verify-results');
    const tampered = results.getByRole('row').filter({ hasText: 'tampered.proof.json' });
    await tampered.click();
    await page.getByRole('complementary', { name: pseudo('verify.detail.label') }).waitFor();
    await check(page, 'verify-detail');
    await tampered.click({ button: 'right' });
    await page.getByRole('menu').waitFor();
    await check(page, 'verify-row-menu');
    await page.keyboard.press('Escape');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('catches a word outside the catalogue and a sentence glued from a message and a word', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-XA' });
    const page = await context.newPage();
    await page.goto(workspace.bridge.url);
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('en-XA');
    await page.evaluate(`(() => {
      const p = document.createElement('p');
      p.textContent = 'Loose words';
      const q = document.createElement('p');
      q.textContent = '[Ĵöƀ~] failed';
      const b = document.createElement('button');
      b.setAttribute('aria-label', 'Close it');
      b.textContent = '×';
      const data = document.createElement('p');
      data.textContent = 'Diploma 4';
      const main = document.createElement('p');
      main.lang = 'en';
      main.textContent = 'The issuer’s signature does not match the certificate.';
      document.body.append(p, q, b, data, main);
    })()`);
    expect(await unmarked(page)).toEqual(['Loose words', 'failed', 'aria-label: Close it']);
    await context.close();
  });
});
