/**
 * Remote mode end to end in Debian's Chromium through the web bridge: `proofdesk serve` runs in
 * ANOTHER process on 127.0.0.1 with its own data directory and Partner; the app (an embedded
 * engine with a Partner of its own) connects to it in Settings › Remote connections, and then
 * Records lists that Partner's credentials page by page over GET /credentials, a credential is
 * tagged and scheduled there through the UI, the job shows in Jobs, and the choice survives a
 * restart of the app. A wrong secret and an unreachable URL give a sentence to act on.
 * Screenshots in build/screenshots/remote-mode-*.png; axe-core on each view.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../main/app/app-context.js';
import { resumeServiceChoice } from '../../main/app/handlers/settings-remote.js';
import { REALM } from '../../main/engine/index.js';
import { RemoteService } from '../../main/remote/index.js';
import { REPO_ROOT } from '../support/issuing-fixture.js';
import { cliArgs } from '../cli/cli-child.js';
import { dropFiles } from './drop-files.js';
import { cellUnder } from './grid-cell.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seriousA11yProblems, type Workspace } from './shell-harness.js';

let work: string;
let rendererDir: string;
let browser: Browser;
let serve: ChildProcess | undefined;
let baseUrl = '';
let client: { client_id: string; client_secret: string };
let remote: RemoteService;
let workspace: Workspace;

const section = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
const grid = (page: Page) => page.getByRole('grid', { name: 'Credentials' });
const row = (page: Page, title: string) => grid(page).getByRole('row').filter({ hasText: title });

async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousA11yProblems(page)).toEqual([]);
}

/** Starts `serve` on its own data directory; resolves with the base URL it prints. */
async function startServe(dataDir: string, env: NodeJS.ProcessEnv): Promise<string> {
  serve = spawn(process.execPath, [...cliArgs(), 'serve', '--port', '0', '--data', dataDir], { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('serve printed nothing in 90 s')), 90_000);
    serve!.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('\n')) {
        clearTimeout(timer);
        resolve(stdout.slice(0, stdout.indexOf('\n')));
      }
    });
    serve!.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return (JSON.parse(line) as { base_url: string }).base_url;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'proofdesk-e2e-remote-'));
  const serveData = join(work, 'serve-data');
  const env = { ...process.env, PROOFDESK_PASSPHRASE: 'serve e2e passphrase', PROOFDESK_SECRET_STORE: undefined };
  const added = await promisify(execFile)(process.execPath, [...cliArgs(), 'partner', 'add', '--name', 'Remote College', '--data', serveData], { cwd: REPO_ROOT, env });
  client = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
  baseUrl = await startServe(serveData, env);
  // The remote Partner's credentials, made through the service's own API.
  remote = new RemoteService({ baseUrl, authUrl: new URL(baseUrl).origin, realm: REALM, clientId: client.client_id, clientSecret: client.client_secret });
  for (let i = 1; i <= 3; i++) await remote.createCredential({ title: `Remote diploma ${i}`, metadata: { course: 'Chemistry' }, tags: ['remote-class'] });
  rendererDir = builtRenderer();
  browser = await launchChromium();
  workspace = await openWorkspace(rendererDir, { name: 'Local Lab' });
  await workspace.engine.serviceFor(workspace.partner.id).createCredential({ title: 'Local only', metadata: { course: 'Physics' } });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await remote?.close();
  await workspace?.context.useEmbedded();
  await workspace?.close();
  if (serve && serve.exitCode === null && serve.signalCode === null) process.kill(-serve.pid!, 'SIGKILL');
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('remote mode against `serve` in another process', () => {
  it('refuses a wrong secret and an unreachable URL with a sentence, then uses the saved connection for every view', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await expect.poll(() => page.getByTestId('status-service').textContent()).toContain('this machine');
    await expect.poll(() => row(page, 'Local only').count()).toBe(1);

    await section(page, 'Settings');
    await page.getByRole('tab', { name: 'Remote connections' }).click();
    await page.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.1:9/api');
    await page.getByRole('textbox', { name: 'Client id' }).fill(client.client_id);
    await page.getByLabel('Client secret').fill(client.client_secret);
    await page.getByRole('button', { name: 'Test remote connection' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toContain('No answer from http://127.0.0.1:9/api');
    expect(await page.getByRole('alert').textContent()).toContain('check the base URL');

    await page.getByRole('textbox', { name: 'Base URL' }).fill(baseUrl);
    await page.getByLabel('Client secret').fill('a wrong secret');
    await page.getByRole('button', { name: 'Save connection' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toContain('refused the client id and secret');
    await screenshot(page, 'remote-mode', '1-wrong-secret');
    await expectAccessible(page);

    await page.getByLabel('Client secret').fill(client.client_secret);
    await page.getByRole('button', { name: 'Save connection' }).click();
    await expect.poll(() => page.getByTestId('remote-saved-url').textContent(), { timeout: 20_000 }).toBe(baseUrl);
    expect(await page.getByTestId('remote-in-use').textContent()).toContain('No');
    await page.getByRole('button', { name: 'Use this connection' }).click();
    await expect.poll(() => page.getByTestId('remote-in-use').textContent(), { timeout: 20_000 }).toContain('Yes');
    await expect.poll(() => page.getByTestId('status-service').textContent()).toContain(baseUrl);
    const file = readFileSync(join(workspace.engine.dataDir, 'remote.json'), 'utf8');
    expect(JSON.parse(file)).toEqual({ base_url: baseUrl, auth_url: new URL(baseUrl).origin, client_id: client.client_id, active: true });
    expect(file).not.toContain(client.client_secret);
    await screenshot(page, 'remote-mode', '2-in-use');
    await expectAccessible(page);

    // Records: the remote Partner's credentials, not this machine's.
    await section(page, 'Records');
    await expect.poll(() => row(page, 'Remote diploma 3').count(), { timeout: 20_000 }).toBe(1);
    expect(await row(page, 'Local only').count()).toBe(0);
    expect(await page.getByTestId('records-total').textContent()).toBe('3 credentials');
    // What the spec cannot offer is off, with the reason.
    expect(await page.getByRole('searchbox', { name: 'Search records' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('records-remote-note').textContent()).toContain('no word search');
    // The spec's tag filter.
    const tags = page.getByRole('combobox', { name: 'Filter by tags' });
    await tags.fill('remote-class');
    await tags.press('Enter');
    // Leave the field first: its blur applies the filter again, which clears a selection.
    await tags.evaluate((element) => (element as unknown as { blur(): void }).blur());
    await expect.poll(() => page.getByTestId('records-total').textContent()).toBe('3 credentials');
    await screenshot(page, 'remote-mode', '3-records');
    await expectAccessible(page);

    // Tag one credential there.
    await row(page, 'Remote diploma 1').click();
    await page.getByRole('button', { name: 'Add tags', exact: true }).click();
    const tagDialog = page.getByRole('dialog', { name: 'Add tags' });
    await tagDialog.getByRole('textbox', { name: 'Tags' }).fill('honours');
    await tagDialog.getByRole('button', { name: 'Apply' }).click();
    const uidOf = async (title: string) => (await remote.listCredentials({ per_page: 0 })).items.find((c) => c.title === title)!.uid;
    const first = await uidOf('Remote diploma 1');
    await expect.poll(async () => (await remote.getCredential(first)).tags, { timeout: 20_000 }).toContain('honours');
    await expect.poll(() => row(page, 'Remote diploma 1').textContent()).toContain('honours');
    expect((await remote.getCredential(await uidOf('Remote diploma 2'))).tags).toEqual(['remote-class']);

    // Schedule another on the remote's engine.
    await row(page, 'Remote diploma 2').click();
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const scheduleDialog = page.getByRole('dialog', { name: 'Schedule' });
    await scheduleDialog.getByRole('checkbox', { name: 'local' }).check();
    await screenshot(page, 'remote-mode', '4-schedule');
    await expectAccessible(page);
    await scheduleDialog.getByRole('button', { name: 'Schedule' }).click();
    const second = await uidOf('Remote diploma 2');
    await expect.poll(async () => (await remote.listJobs({ status: 'scheduled', uid: second })).total_items, { timeout: 20_000 }).toBe(1);

    // Jobs: the remote Partner's job.
    await section(page, 'Jobs');
    const jobs = page.getByRole('grid', { name: 'Jobs' });
    const jobRow = jobs.getByRole('row').filter({ hasText: 'scheduled' });
    await expect.poll(() => jobRow.count(), { timeout: 20_000 }).toBe(1);
    // Its count and name, asked of the remote service for the rows on screen.
    const scheduledCount = (await remote.listJobCredentials((await remote.listJobs({ status: 'scheduled', uid: second })).items[0]!.uid, { per_page: 1 })).total_items;
    await expect.poll(async () => (await cellUnder(jobs, jobRow, 'Credentials')).textContent(), { timeout: 20_000 }).toBe(String(scheduledCount));
    expect(await (await cellUnder(jobs, jobRow, 'Job')).textContent()).toContain('Remote diploma');
    await screenshot(page, 'remote-mode', '5-jobs');
    await expectAccessible(page);

    // Issue now on the remote's demo engine; its state reaches the view without a reload.
    await jobRow.click();
    await page.getByRole('complementary', { name: 'Job detail' }).getByRole('button', { name: 'Issue now' }).click();
    await expect.poll(() => jobs.getByRole('row').nth(1).textContent(), { timeout: 120_000, interval: 500 }).toContain('finished');
    // The remote Partner's name, known from its job (the spec has no "who am I").
    await expect.poll(() => page.getByTestId('status-partner').textContent(), { timeout: 20_000 }).toContain('Remote College');

    // Its detail, verification and proof come from the remote service.
    await section(page, 'Records');
    const panel = page.getByRole('complementary', { name: 'Credential detail' });
    const heading = panel.getByRole('heading', { name: 'Remote diploma 2' });
    await expect
      .poll(async () => {
        await row(page, 'Remote diploma 2').click();
        await page.keyboard.press('Enter');
        return heading.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        );
      }, { timeout: 30_000 })
      .toBe(true);
    await expect.poll(() => panel.getByRole('table', { name: 'Certificates' }).textContent(), { timeout: 20_000 }).toContain('issued');
    await panel.getByRole('button', { name: 'Verify now' }).click();
    await expect.poll(() => panel.textContent(), { timeout: 30_000 }).toContain('Result: ok');
    const download = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download proof' }).click();
    const proof = await download;
    expect(proof.suggestedFilename()).toBe('Remote diploma 2.proof.json');
    const [certificate] = (await remote.listCertificates({ credential_uid: second, per_page: 0 })).items;
    expect(readFileSync((await proof.path())!, 'utf8')).toBe(await remote.downloadCertificate(certificate!.certificate.uid));
    await screenshot(page, 'remote-mode', '6-detail');
    await expectAccessible(page);

    // Files dropped on the window become credentials of the remote Partner (uploaded through its API).
    await panel.getByRole('button', { name: 'Close detail' }).click();
    const path = join(work, 'remote-transcript.pdf');
    writeFileSync(path, 'a transcript made in remote mode');
    await dropFiles(page, [path]);
    const staging = page.getByRole('region', { name: 'Staging' });
    await staging.getByRole('textbox', { name: 'Title of remote-transcript.pdf' }).waitFor();
    await staging.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(async () => (await remote.listCredentials({ per_page: 0 })).items.map((c) => c.title), { timeout: 30_000 }).toContain('Remote transcript');
    const made = (await remote.listCredentials({ per_page: 0 })).items.find((c) => c.title === 'Remote transcript')!;
    expect(made.files[0]!.file_hash).toBe(createHash('sha256').update('a transcript made in remote mode').digest('hex'));
    expect(await workspace.engine.serviceFor(workspace.partner.id).listCredentials({ per_page: 1 })).toMatchObject({ total_items: 1 });

    // Watch folders need this machine's engine: off, with the reason.
    await section(page, 'Watch folders');
    await expect.poll(() => page.getByTestId('watch-remote-note').textContent()).toContain('proofdesk watch');
    expect(await page.getByRole('button', { name: 'Add watch folder' }).isDisabled()).toBe(true);
    // The one refused call is the save with the wrong secret (400, shown as the sentence above).
    expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([]);
  }, 240_000);

  it('uses the connection again after a restart, and goes back to this machine on request', async () => {
    // A restart: a new app context on the same data directory and key store.
    const restarted = createAppContext({ engine: workspace.engine, partner: workspace.partner, keyStore: 'keychain' });
    await resumeServiceChoice(restarted);
    try {
      expect(restarted.remote()?.baseUrl).toBe(baseUrl);
      expect(restarted.engine).toBeNull();
      expect((await restarted.require().service.listCredentials({ per_page: 1 })).total_items).toBe(4);
    } finally {
      await restarted.useEmbedded();
    }

    const { page, problems } = await openPage(browser, workspace);
    await section(page, 'Settings');
    await page.getByRole('tab', { name: 'Remote connections' }).click();
    await page.getByRole('button', { name: "Use this machine's engine" }).click();
    await expect.poll(() => page.getByTestId('status-service').textContent(), { timeout: 20_000 }).toContain('this machine');
    expect(JSON.parse(readFileSync(join(workspace.engine.dataDir, 'remote.json'), 'utf8'))).toMatchObject({ active: false });
    await section(page, 'Records');
    await expect.poll(() => row(page, 'Local only').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.getByRole('searchbox', { name: 'Search records' }).isDisabled()).toBe(false);
    await screenshot(page, 'remote-mode', '7-back-to-embedded');
    expect(problems).toEqual([]);
  }, 120_000);
});
