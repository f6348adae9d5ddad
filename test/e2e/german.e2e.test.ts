/**
 * The window in German: the browser's language picks it (the web bridge has no OS language),
 * Settings › Language overrides it and is remembered, and every view is screenshotted in both
 * themes at 1280×800 (build/screenshots/german-*.png) — Verify with results and a result's
 * detail, a row menu, the dialogs and the palette too — with no silently cut table cell, no
 * serious accessibility problem, and no English message of the catalogue on the page.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { issueNowAndFinish, makeTempDir, removeTempDirs } from '../support/issuing-fixture.js';
import { silentlyCutCells } from './cut-cells.js';
import { dropFiles } from './drop-files.js';
import { builtRenderer, launchChromium, openWorkspace, ROOT, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';

const de = JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/de.json'), 'utf8')) as Record<string, string>;
const en = JSON.parse(readFileSync(join(ROOT, 'renderer/i18n/messages/en.json'), 'utf8')) as Record<string, string>;

/** The English messages without arguments whose German differs: none of them may be on a German page. */
const ENGLISH = [...new Set(Object.keys(en).filter((id) => !en[id]!.includes('{') && !en[id]!.includes('<') && en[id] !== de[id]).map((id) => en[id]!))];

let browser: Browser;
let workspace: Workspace;
let proofs: string;
const PROOF_FILES = ['abschlusszeugnis-0.proof.json', 'manipuliert.proof.json', 'einzelnes-original.pdf'];

beforeAll(async () => {
  browser = await launchChromium();
  workspace = await openWorkspace(builtRenderer(), { name: 'Technische Hochschule Nürnberg' });
  await seedCredentials(workspace, 40, (i) => ({
    title: `Abschlusszeugnis Maschinenbau und Verfahrenstechnik ${i}`,
    metadata: { student: `S${i}` },
    tags: ['jahrgang-2026', i % 2 ? 'wintersemester' : 'sommersemester'],
  }));
  // Two issued on the local chain: a finished job, and proofs for Verify (one good, one changed, an original alone).
  const service = workspace.engine.serviceFor(workspace.partner.id);
  const issued = (await service.listCredentials({ per_page: 100 })).items.filter((c) => c.title.endsWith(' 0') || c.title.endsWith(' 1'));
  await service.scheduleCredentials({ engine: 'local', credentials: issued.map((c) => c.uid) });
  await issueNowAndFinish(workspace.engine, service, 'local');
  proofs = join(makeTempDir('proofdesk-e2e-german-'), 'proofs');
  mkdirSync(proofs);
  const proof = await service.downloadCertificate((await service.listCertificates({ per_page: 0 })).items[0]!.certificate.uid);
  writeFileSync(join(proofs, PROOF_FILES[0]!), proof);
  const changed = JSON.parse(proof) as ProofFile;
  changed.certificate.credential.metadata = { student: 'gefälscht' };
  writeFileSync(join(proofs, PROOF_FILES[1]!), JSON.stringify(changed));
  writeFileSync(join(proofs, PROOF_FILES[2]!), 'ein Original ohne Nachweis');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
  removeTempDirs();
});

/** English messages of the catalogue shown as a text, a name, a tooltip or a placeholder. */
async function englishOnPage(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const english = new Set(${JSON.stringify(ENGLISH)});
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (english.has(node.textContent.trim()) && !node.parentElement.closest('[lang="en"], code')) found.push(node.textContent.trim());
    }
    for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const value = element.getAttribute(name);
        if (value && english.has(value.trim())) found.push(name + ': ' + value);
      }
    }
    return [...new Set(found)];
  })()`) as Promise<string[]>;
}

/** Screenshots the page and checks it: German only, no cut cell, no serious accessibility problem. */
async function look(page: Page, step: string): Promise<void> {
  await screenshot(page, 'german', step);
  expect(await englishOnPage(page), step).toEqual([]);
  expect(await silentlyCutCells(page), step).toEqual([]);
  expect(await seriousA11yProblems(page), step).toEqual([]);
}

/** A page in a browser whose language is `locale`, at 1280×800 in one theme. */
async function openIn(locale: string, colorScheme: 'light' | 'dark'): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale, colorScheme });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(workspace.bridge.url);
  return { page, problems };
}

const SECTIONS = [
  ['records', de['shell.section.records']],
  ['jobs', de['shell.section.jobs']],
  ['verify', de['shell.section.verify']],
  ['watch-folders', de['shell.section.watch']],
  ['settings', de['shell.section.settings']],
  ['activity', de['shell.section.activity']],
] as const;

describe('the window in German', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`shows every view in German in the ${theme} theme, with no cut cell and no serious accessibility problem`, async () => {
      const { page, problems } = await openIn('de-DE', theme);
      await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('de');
      const sections = page.getByRole('navigation', { name: de['shell.sidebar.label'] });
      await expect.poll(() => page.getByRole('grid', { name: de['records.table.label'] }).getByRole('row').count()).toBeGreaterThan(3);
      for (const [file, name] of SECTIONS) {
        await sections.getByRole('button', { name, exact: true }).click();
        await expect.poll(() => page.locator('main h1').count()).toBeGreaterThan(0);
        await expect.poll(() => page.locator('main').textContent()).not.toContain(de['common.loading']);
        await look(page, `${theme}-${file}`);
      }

      // Records: a row's menu and the dialogs of the selection; the palette.
      await sections.getByRole('button', { name: de['shell.section.records'], exact: true }).click();
      const row = page.getByRole('grid', { name: de['records.table.label'] }).getByRole('row').filter({ hasText: 'Verfahrenstechnik 7' });
      await row.click();
      await row.click({ button: 'right' });
      await page.getByRole('menu', { name: de['records.menu.label'] }).waitFor();
      await look(page, `${theme}-records-row-menu`);
      await page.keyboard.press('Escape');
      for (const [button, step] of [
        ['records.toolbar.addTags', 'add-tags'],
        ['records.toolbar.schedule', 'schedule'],
      ] as const) {
        await page.getByRole('button', { name: de[button], exact: true }).click();
        await page.getByRole('dialog').waitFor();
        await look(page, `${theme}-records-${step}`);
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      }
      await page.keyboard.press('Control+k');
      await page.getByRole('dialog', { name: de['commands.palette.title'] }).waitFor();
      await look(page, `${theme}-palette`);
      await page.keyboard.press('Escape');

      // Verify with results, a result's detail and its menu.
      await sections.getByRole('button', { name: de['shell.section.verify'], exact: true }).click();
      await dropFiles(page, PROOF_FILES.map((name) => join(proofs, name)));
      const results = page.getByRole('grid', { name: de['verify.table.label'] });
      await expect.poll(() => page.getByTestId('verify-progress').textContent(), { timeout: 30_000 }).toBe('2 Nachweisdateien geprüft');
      expect(await page.getByTestId('verify-count-failed').textContent()).toBe('ungültig 1');
      await look(page, `${theme}-verify-results`);
      const changed = results.getByRole('row').filter({ hasText: PROOF_FILES[1]! });
      await changed.click();
      await page.getByRole('complementary', { name: de['verify.detail.label'] }).waitFor();
      await expect.poll(() => page.getByRole('complementary', { name: de['verify.detail.label'] }).textContent()).toContain('Integrität des Zertifikats: nicht bestanden');
      // The verifier's reasons in German too, with the spec's step order kept.
      const detailText = await page.getByRole('complementary', { name: de['verify.detail.label'] }).textContent();
      expect(detailText).toContain('Die Nachweisdatei wurde nach dem Signieren verändert');
      expect(detailText).toContain('Nicht geprüft: Ein früherer Schritt ist fehlgeschlagen.');
      await look(page, `${theme}-verify-detail`);
      await changed.click({ button: 'right' });
      await page.getByRole('menu', { name: de['verify.menu.label'] }).waitFor();
      await look(page, `${theme}-verify-row-menu`);
      await page.keyboard.press('Escape');
      // A German count: digit grouping and plural from the catalogue.
      await sections.getByRole('button', { name: de['shell.section.records'], exact: true }).click();
      await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('40 Nachweise');
      expect(problems).toEqual([]);
      await page.context().close();
    }, 300_000);
  }

  it('takes the language chosen in Settings over the browser’s, and remembers it', async () => {
    const { page } = await openIn('en-US', 'light');
    const sidebar = page.getByRole('navigation', { name: 'Sections' });
    await sidebar.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('de');
    await expect.poll(() => page.getByRole('navigation', { name: 'Bereiche' }).getByRole('button', { name: 'Datensätze' }).count()).toBe(1);

    await page.reload();
    await expect.poll(() => page.getByRole('navigation', { name: 'Bereiche' }).getByRole('button', { name: 'Einstellungen' }).count()).toBe(1);
    await page.getByRole('navigation', { name: 'Bereiche' }).getByRole('button', { name: 'Einstellungen' }).click();
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('system');
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('en');
    await expect.poll(() => sidebar.getByRole('button', { name: 'Records', exact: true }).count()).toBe(1);
    await page.context().close();
  });
});
