/**
 * The Jobs view end to end in Chromium through the web bridge, on a real engine and the local
 * chain (anvil) with the issuing scheduler running: jobs by status with live state changes,
 * the job detail with its transaction, job tags, Issue now, and exporting the proofs to a
 * folder. Screenshots in build/screenshots/jobs-*.png.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seedCredentials, seriousA11yProblems, type Workspace } from './shell-harness.js';

let browser: Browser;
let workspace: Workspace;
let exportDir: string;

beforeAll(async () => {
  exportDir = mkdtempSync(join(tmpdir(), 'proofdesk-jobs-export-'));
  const rendererDir = builtRenderer();
  browser = await launchChromium();
  workspace = await openWorkspace(rendererDir, { issuing: { scheduler: true, tickMs: 250 } });
  await seedCredentials(workspace, 5, (i) => ({ title: `Transcript ${i}`, metadata: { student: `Student ${i}` }, tags: ['term-1'] }));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
  if (exportDir) rmSync(exportDir, { recursive: true, force: true });
});

const jobsGrid = (page: Page) => page.getByRole('grid', { name: 'Jobs' });

describe('jobs view', () => {
  it('schedules from Records, issues now on the local chain, follows the job live and exports its proofs', async () => {
    const { page, problems } = await openPage(browser, workspace);
    const records = page.getByRole('grid', { name: 'Credentials' });
    await expect.poll(() => records.getByRole('row').filter({ hasText: 'Transcript 0' }).count()).toBe(1);
    await records.focus();
    await page.keyboard.press('Control+a');
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('5 credentials selected');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule' });
    await dialog.getByRole('checkbox', { name: 'local' }).check();
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await expect.poll(() => records.getByRole('row').filter({ hasText: 'Transcript 4' }).textContent(), { timeout: 20_000 }).toContain('scheduled');

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    const jobRow = jobsGrid(page).getByRole('row').filter({ hasText: 'scheduled' });
    await expect.poll(() => jobRow.count()).toBe(1);
    await screenshot(page, 'jobs', 'scheduled');
    expect(await seriousA11yProblems(page)).toEqual([]);

    await jobRow.click();
    const detail = page.getByRole('complementary', { name: 'Job detail' });
    await expect.poll(() => detail.textContent()).toContain('Transcript 3');
    await detail.getByRole('textbox', { name: 'Job tags' }).fill('spring-run');
    await detail.getByRole('button', { name: 'Tag job' }).click();
    await expect.poll(() => detail.textContent()).toContain('spring-run');
    await screenshot(page, 'jobs', 'detail');
    expect(await seriousA11yProblems(page)).toEqual([]);

    await detail.getByRole('button', { name: 'Issue now' }).click();
    // Live: the row and the detail follow the job to finished without a reload.
    await expect.poll(() => jobsGrid(page).getByRole('row').nth(1).textContent(), { timeout: 90_000, interval: 500 }).toContain('finished');
    await expect.poll(() => detail.getByTestId('job-status').textContent(), { timeout: 10_000 }).toBe('finished');
    expect(await detail.getByTestId('job-transaction').textContent()).toMatch(/^0x[0-9a-f]{64}$/);
    await expect.poll(() => detail.textContent()).toContain('Proofs (5)');
    await screenshot(page, 'jobs', 'finished');

    await detail.getByRole('button', { name: 'Export proofs' }).click();
    const exporting = page.getByRole('dialog', { name: 'Export proofs' });
    await exporting.getByRole('textbox', { name: 'Folder' }).fill(exportDir);
    await exporting.getByRole('button', { name: 'Export' }).click();
    await expect.poll(() => readdirSync(exportDir).filter((f) => f.endsWith('.proof.json')).length, { timeout: 20_000 }).toBe(5);
    // NAME is the credential's title and the certificate's uid: names never clash.
    const names = readdirSync(exportDir).sort();
    names.forEach((name, i) => expect(name).toMatch(new RegExp(`^Transcript ${i} [0-9a-f-]{36}\\.proof\\.json$`)));
    const proof = JSON.parse(readFileSync(join(exportDir, names[2]!), 'utf8')) as Record<string, unknown>;
    expect(JSON.stringify(proof)).toContain('Transcript 2');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'proofs saved to' }).textContent()).toContain(`5 proofs saved to ${exportDir}`);
    await screenshot(page, 'jobs', 'exported');
    expect(problems).toEqual([]);
  }, 180_000);

  it('filters jobs by status and refuses an export into a file', async () => {
    const { page } = await openPage(browser, workspace);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    const status = page.getByRole('group', { name: 'Job status' });
    await status.getByRole('button', { name: /^scheduled/ }).click();
    await expect.poll(() => jobsGrid(page).getByRole('row').count()).toBe(1); // the header row only
    await status.getByRole('button', { name: /^finished/ }).click();
    await expect.poll(() => jobsGrid(page).getByRole('row').count()).toBe(2);

    const [job] = (await workspace.engine.serviceFor(workspace.partner.id).listJobs({ status: 'finished' })).items;
    const file = join(exportDir, readdirSync(exportDir).find((n) => n.endsWith('.proof.json'))!);
    const refused = (await page.evaluate(
      `window.proofdesk.jobsExportProofs({ source: { kind: 'job', jobUid: '${job!.uid}' }, folder: ${JSON.stringify(file)} }).then(() => 'exported', (e) => e.message)`,
    )) as string;
    expect(refused).toContain('invalid_value');
  });

  it('exports the proofs of a selection from Records', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'proofdesk-jobs-export-selection-'));
    try {
      const { page } = await openPage(browser, workspace);
      const records = page.getByRole('grid', { name: 'Credentials' });
      await records.getByRole('row').filter({ hasText: 'Transcript 1' }).click();
      await records.getByRole('row').filter({ hasText: 'Transcript 3' }).click({ modifiers: ['Shift'] });
      await page.getByRole('button', { name: 'Export proofs' }).click();
      const dialog = page.getByRole('dialog', { name: 'Export proofs' });
      await dialog.getByRole('textbox', { name: 'Folder' }).fill(folder);
      await dialog.getByRole('button', { name: 'Export' }).click();
      await expect.poll(() => readdirSync(folder).map((n) => n.split(' ').slice(0, 2).join(' ')).sort(), { timeout: 20_000 }).toEqual(['Transcript 1', 'Transcript 2', 'Transcript 3']);
      await screenshot(page, 'jobs', 'exported-selection');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
