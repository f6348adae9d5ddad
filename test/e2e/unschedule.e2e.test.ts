/**
 * Unschedule end to end in Chromium through the web bridge, on a real engine with two engines
 * (`local` and `sepolia`): from the detail panel and from a Shift-range selection, the
 * credential goes from scheduled to not scheduled on one engine, and the table's state column
 * follows live without a reload. Also the detail panel's "Open the original file", which in
 * the browser downloads the engine's stored copy. Screenshots in build/screenshots/unschedule-*.png.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtRenderer, launchChromium, screenshot, seriousA11yProblems } from './shell-harness.js';
import { SECOND_ENGINE, openTwoEngineWorkspace, stateCells as states, type TwoEngineWorkspace } from './two-engines.js';

let browser: Browser;
let workspace: TwoEngineWorkspace;
const uids: string[] = [];

beforeAll(async () => {
  const rendererDir = builtRenderer();
  browser = await launchChromium();
  workspace = await openTwoEngineWorkspace(rendererDir);
  const created = await workspace.service.createCredentials(Array.from({ length: 5 }, (_, i) => ({ title: `Certificate ${i}`, metadata: { student: `Student ${i}` }, tags: ['term-2'] })));
  uids.push(...created.map((c) => c.uid));
  for (const id of ['local', SECOND_ENGINE.id]) await workspace.service.scheduleCredentials({ engine: id, credentials: uids });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
});

const grid = (page: Page) => page.getByRole('grid', { name: 'Credentials' });
const row = (page: Page, title: string) => grid(page).getByRole('row').filter({ hasText: title });

describe('unschedule', () => {
  it('unschedules one credential from the detail panel, and the state column follows live', async () => {
    const { page, problems } = await workspace.open(browser);
    await expect.poll(() => states(page, 'Certificate 0')).toEqual(['scheduled', 'scheduled']);
    await screenshot(page, 'unschedule', 'scheduled');
    await row(page, 'Certificate 0').dblclick();
    const detail = page.getByRole('complementary', { name: 'Credential detail' });
    const onSecond = detail.getByRole('table', { name: 'Certificates' }).getByRole('row').filter({ hasText: SECOND_ENGINE.id });
    await expect.poll(() => onSecond.textContent()).toContain('scheduled');
    await onSecond.getByRole('button', { name: 'Unschedule' }).click();
    await expect.poll(() => detail.getByRole('status').first().textContent()).toBe(`Unscheduled from ${SECOND_ENGINE.id}`);
    await expect.poll(() => onSecond.textContent()).toContain('not scheduled');
    // Live: the table's state column changed without a reload; the other engine keeps it.
    await expect.poll(() => states(page, 'Certificate 0')).toEqual(['scheduled', 'not scheduled']);
    expect((await workspace.service.listJobs({ uid: uids[0]!, status: 'scheduled' })).items.map((j) => j.chain)).toEqual(['local']);
    await screenshot(page, 'unschedule', 'detail');
    expect(await seriousA11yProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('unschedules a Shift-range selection from one engine', async () => {
    const { page, problems } = await workspace.open(browser);
    await expect.poll(() => states(page, 'Certificate 3')).toEqual(['scheduled', 'scheduled']);
    await row(page, 'Certificate 1').click();
    await row(page, 'Certificate 3').click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('3 credentials selected');
    await page.getByRole('button', { name: 'Unschedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Unschedule' });
    await dialog.getByRole('checkbox', { name: SECOND_ENGINE.id }).check();
    await screenshot(page, 'unschedule', 'dialog');
    await dialog.getByRole('button', { name: 'Unschedule' }).click();
    for (const title of ['Certificate 1', 'Certificate 2', 'Certificate 3']) await expect.poll(() => states(page, title), { timeout: 20_000 }).toEqual(['scheduled', 'not scheduled']);
    expect(await states(page, 'Certificate 4')).toEqual(['scheduled', 'scheduled']);
    await screenshot(page, 'unschedule', 'selection');
    expect(await seriousA11yProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('downloads the stored original of a file in the browser', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proofdesk-original-e2e-'));
    try {
      writeFileSync(join(dir, 'transcript.txt'), 'Transcript of Student 9');
      const file = await workspace.service.uploadFile({ file: { path: join(dir, 'transcript.txt') } });
      await workspace.service.createCredential({ title: 'Transcript 9', metadata: { student: 'Student 9' }, files: [file.file_hash] });
      const { page, problems } = await workspace.open(browser);
      await row(page, 'Transcript 9').dblclick();
      const detail = page.getByRole('complementary', { name: 'Credential detail' });
      const [download] = await Promise.all([page.waitForEvent('download'), detail.getByRole('button', { name: 'Open the original file' }).click()]);
      const saved = join(dir, 'saved');
      await download.saveAs(saved);
      expect(readFileSync(saved, 'utf8')).toBe('Transcript of Student 9');
      expect(download.suggestedFilename()).toBe('Transcript 9.txt');
      await screenshot(page, 'unschedule', 'original-downloaded');
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
