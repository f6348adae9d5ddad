/**
 * Settings and the first run, end to end in Debian's Chromium through the web bridge, on real
 * engines with the local chain (anvil): from an empty data directory through the first run to a
 * first credential issued (dropped, created and scheduled, Issue now); Settings › Partner (the
 * interval, a new client secret shown once) and Settings › Keys (where they are, public key,
 * balances); a key backup written from one data directory and restored through the first run
 * of a second one (a second bridge), which then issues and verifies as the same Partner with
 * the same chain account. Screenshots in build/screenshots/settings-*.png; axe-core on each view.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../../main/app/app-context.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import { openSecretStore } from '../../main/secrets/index.js';
import { openAppEngine } from '../../main/app/open-app-engine.js';
import { cliArgs } from '../cli/cli-child.js';
import { REPO_ROOT, openIssuingEngine, startSecondChain, type IssuingFixture } from '../support/issuing-fixture.js';
import { builtRenderer, launchChromium, screenshot, seriousA11yProblems } from './shell-harness.js';
import { dropFiles } from './drop-files.js';

const PASSPHRASE = 'a long backup passphrase';

interface Machine {
  fixture: IssuingFixture;
  ctx: AppContext;
  bridge: WebBridge;
}

let work: string;
let rendererDir: string;
let browser: Browser;
const machines: Machine[] = [];

/** An empty data directory with the scheduler running, behind its own bridge: one "machine". */
async function openMachine(name: string): Promise<Machine> {
  const fixture = openIssuingEngine({ dataDir: join(work, name), issuing: { scheduler: true, tickMs: 250 } });
  const ctx = createAppContext({ engine: fixture.engine, partner: null, keyStore: 'keychain' });
  const bridge = await startWebBridge({ handlers: createIpcHandlers(ctx), events: ctx.events, rendererDir });
  const machine = { fixture, ctx, bridge };
  machines.push(machine);
  return machine;
}

async function openPage(machine: Machine): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(machine.bridge.url);
  return { page, problems };
}

async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousA11yProblems(page)).toEqual([]);
}

const section = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();

/** Drops one file, creates and schedules it, issues its job now; waits for `finished`. */
async function issueOne(page: Page, fileName: string, content: string): Promise<void> {
  const path = join(work, fileName);
  writeFileSync(path, content);
  await page.getByRole('region', { name: 'Drop files to add' }).waitFor();
  await dropFiles(page, [path]);
  const staging = page.getByRole('region', { name: 'Staging' });
  await staging.getByRole('textbox', { name: `Title of ${fileName}` }).waitFor();
  await staging.getByRole('button', { name: 'Create and schedule' }).click();
  await expect.poll(() => staging.getByRole('button', { name: 'Open' }).count(), { timeout: 20_000 }).toBe(1);
  await section(page, 'Jobs');
  const jobs = page.getByRole('grid', { name: 'Jobs' });
  const row = jobs.getByRole('row').filter({ hasText: 'scheduled' });
  await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
  await row.click();
  await page.getByRole('complementary', { name: 'Job detail' }).getByRole('button', { name: 'Issue now' }).click();
  await expect.poll(() => jobs.getByRole('row').nth(1).textContent(), { timeout: 90_000, interval: 500 }).toContain('finished');
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'proofdesk-e2e-settings-'));
  rendererDir = builtRenderer();
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const m of machines) {
    await m.bridge.close();
    await m.fixture.close();
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('first run, Settings, key backup and restore', () => {
  let firstAddress = '';
  let partnerId = '';
  const backup = () => join(work, 'acme.proofdesk-keys');

  it('sets up a Partner from an empty data directory and issues a first credential', async () => {
    const machine = await openMachine('data-1');
    const { page, problems } = await openPage(machine);
    await page.getByRole('heading', { name: 'Welcome to Proofdesk' }).waitFor();
    await expect.poll(() => page.getByRole('form', { name: 'Set up the Partner' }).textContent()).toContain('nobody can issue or revoke as this Partner');
    await screenshot(page, 'settings', '1-first-run');
    await expectAccessible(page);

    // Bad input: a clear refusal, nothing made.
    await page.getByRole('textbox', { name: 'Partner name' }).fill('Acme University');
    await page.getByRole('textbox', { name: 'Issuing interval' }).fill('soon');
    await page.getByRole('button', { name: 'Create Partner and keys' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('invalid_value');
    expect(machine.fixture.engine.partners.list()).toEqual([]);

    await page.getByRole('textbox', { name: 'Issuing interval' }).fill('12h');
    await page.getByRole('button', { name: 'Create Partner and keys' }).click();
    await page.getByRole('heading', { name: 'Acme University is ready to issue' }).waitFor();
    const [partner] = machine.fixture.engine.partners.list();
    expect(partner).toMatchObject({ name: 'Acme University', issuing_interval_seconds: 12 * 3600 });
    expect(partner!.chain_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const secret = await page.getByTestId('first-run-secret').textContent();
    expect(machine.fixture.engine.partners.authenticate(partner!.client_id, secret ?? '')).toEqual({ id: partner!.id, name: 'Acme University' });
    firstAddress = partner!.chain_address!;
    partnerId = partner!.id;
    await screenshot(page, 'settings', '2-first-run-done');
    await expectAccessible(page);

    // The secret shown once can be copied: the clipboard holds it, the button says so.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: machine.bridge.url });
    await page.getByRole('button', { name: 'Copy client secret' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Copy client secret' }).textContent()).toBe('Copied');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);

    // The key backup is the first step, and nothing says "Backed up" before the file exists.
    expect(await page.getByTestId('backed-up').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Continue without a backup' }).count()).toBe(1);
    await page.getByLabel('New backup passphrase').fill(PASSPHRASE);
    await page.getByLabel('Type the backup passphrase again').fill(PASSPHRASE);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save a key backup now' }).click();
    const downloaded = await download;
    expect(downloaded.suggestedFilename()).toBe('Acme University.proofdesk-keys');
    await downloaded.saveAs(backup());
    expect(readFileSync(backup(), 'utf8')).toContain('proofdesk-key-backup');
    await expect.poll(() => page.getByTestId('backed-up').textContent()).toMatch(/^✓ Backed up /);
    expect(await page.getByRole('status').filter({ hasText: 'your browser saved Acme University.proofdesk-keys' }).count()).toBe(1);
    await screenshot(page, 'settings', '2-first-run-backed-up');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Continue to Records' }).click();
    await page.getByRole('grid', { name: 'Credentials' }).waitFor();
    await issueOne(page, 'first-diploma.pdf', 'the first diploma');
    await screenshot(page, 'settings', '3-first-issued');
    const service = machine.fixture.engine.serviceFor(partnerId);
    const [credential] = (await service.listCredentials({ per_page: 0 })).items;
    expect((await service.verifyCredential(credential!.uid)).items[0]!.result.status).toBe('ok');
    expect(problems).toEqual([]);
  }, 240_000);

  it('changes the interval, shows a new client secret once, shows the keys and backs them up', async () => {
    const machine = machines[0]!;
    const { page, problems } = await openPage(machine);
    await section(page, 'Settings');
    await page.getByRole('tab', { name: 'Partner' }).waitFor();
    const interval = page.getByRole('textbox', { name: 'Issuing interval' });
    await expect.poll(() => interval.inputValue()).toBe('12h');
    await interval.fill('30m');
    await page.getByRole('button', { name: 'Save interval' }).click();
    await expect.poll(() => machine.fixture.engine.partners.find(partnerId)?.issuing_interval_seconds).toBe(1800);
    await interval.fill('never');
    await page.getByRole('button', { name: 'Save interval' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Invalid duration');
    expect(machine.fixture.engine.partners.find(partnerId)?.issuing_interval_seconds).toBe(1800);

    await page.getByRole('button', { name: 'New client secret' }).click();
    await page.getByRole('button', { name: 'Make the new secret' }).click();
    const newSecret = (await page.getByTestId('settings-new-secret').textContent()) ?? '';
    const clientId = machine.fixture.engine.partners.find(partnerId)!.client_id;
    expect(machine.fixture.engine.partners.authenticate(clientId, newSecret)).toMatchObject({ id: partnerId });
    await screenshot(page, 'settings', '4-partner');
    await expectAccessible(page);

    // Keyboard: arrow keys move between the tabs.
    await page.getByRole('tab', { name: 'Partner' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('tab', { name: 'Keys' }).getAttribute('aria-selected')).toBe('true');
    // Leaving the tab forgets the secret: it is shown once.
    await page.getByRole('tab', { name: 'Partner' }).click();
    expect(await page.getByTestId('settings-new-secret').count()).toBe(0);
    await page.getByRole('tab', { name: 'Keys' }).click();
    await expect.poll(() => page.getByTestId('settings-address').textContent()).toBe(firstAddress);
    const accounts = page.getByRole('table', { name: 'Chain accounts' });
    await expect.poll(() => accounts.getByRole('row').filter({ hasText: 'local' }).textContent(), { timeout: 20_000 }).toMatch(/local.*Local chain.*demo.*\d\.\d{4} ETH/);
    expect(await page.getByTestId('settings-signing-key').textContent()).toMatch(/^[0-9a-f]{64}$/);

    // No typed path: the browser bridge downloads the backup (the Electron window asks with main's save dialog).
    expect(await page.getByRole('textbox', { name: 'Backup file to write' }).count()).toBe(0);
    await page.getByLabel('New backup passphrase').fill(PASSPHRASE);
    await page.getByLabel('Type the backup passphrase again').fill('a long backup passphrasf');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The two passphrases differ');
    expect(await page.getByRole('button', { name: 'Back up keys' }).isDisabled()).toBe(true);
    await page.getByLabel('Type the backup passphrase again').fill(PASSPHRASE);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Back up keys' }).click();
    const downloaded = await download;
    expect(downloaded.suggestedFilename()).toBe('Acme University.proofdesk-keys');
    await downloaded.saveAs(backup());
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'your browser saved Acme University.proofdesk-keys' }).count()).toBe(1);
    const text = readFileSync(backup(), 'utf8');
    expect(text).toContain('proofdesk-key-backup');
    expect(text).not.toContain(PASSPHRASE);
    await screenshot(page, 'settings', '5-keys');
    await expectAccessible(page);
    expect(problems).toEqual([]);
  }, 120_000);

  it('restores the backup into a second data directory, then issues and verifies there as the same Partner', async () => {
    const machine = await openMachine('data-2');
    const { page, problems } = await openPage(machine);
    await page.getByRole('heading', { name: 'Welcome to Proofdesk' }).waitFor();
    // An upload, not a typed path.
    await page.getByLabel('Backup file to restore').setInputFiles(backup());
    await page.getByLabel('Backup passphrase').fill('not the passphrase');
    await page.getByRole('button', { name: 'Restore keys' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('passphrase does not open this backup');
    expect(machine.fixture.engine.partners.list()).toEqual([]);
    await screenshot(page, 'settings', '6-restore-refused');
    await expectAccessible(page);

    await page.getByLabel('Backup passphrase').fill(PASSPHRASE);
    await page.getByRole('button', { name: 'Restore keys' }).click();
    await page.getByRole('grid', { name: 'Credentials' }).waitFor({ timeout: 30_000 });
    const [restored] = machine.fixture.engine.partners.list();
    expect(restored).toMatchObject({ id: partnerId, name: 'Acme University', chain_address: firstAddress });

    await issueOne(page, 'second-machine.pdf', 'issued on the second machine');
    await screenshot(page, 'settings', '7-issued-after-restore');
    const service = machine.fixture.engine.serviceFor(partnerId);
    const [credential] = (await service.listCredentials({ per_page: 0 })).items;
    expect((await service.verifyCredential(credential!.uid)).items[0]!.result.status).toBe('ok');
    // The same signing key: the certificates of both machines name the same public key.
    const first = await machines[0]!.fixture.engine.backupPartner(partnerId);
    const second = await machine.fixture.engine.backupPartner(partnerId);
    expect(second.keys.signingPublicKey).toBe(first.keys.signingPublicKey);
    expect(problems).toEqual([]);
  }, 240_000);

  it('adds an EVM chain in Settings › Engines after testing its connection (a second anvil)', async () => {
    const chain = await startSecondChain();
    try {
      const machine = machines[0]!;
      const { page, problems } = await openPage(machine);
      await section(page, 'Settings');
      await page.getByRole('tab', { name: 'Engines' }).click();
      const engines = page.getByRole('table', { name: 'Engines' });
      await expect.poll(() => engines.getByRole('row').count()).toBe(2);
      await page.getByRole('textbox', { name: 'Engine id' }).fill('campus-chain');
      await page.getByRole('textbox', { name: 'RPC URL' }).fill('http://127.0.0.1:9');
      await page.getByRole('textbox', { name: 'Chain id' }).fill(String(chain.client.chainId));
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toContain('Nothing answers at http://127.0.0.1:9');
      await page.getByRole('textbox', { name: 'RPC URL' }).fill(chain.rpcUrl);
      await page.getByRole('textbox', { name: 'Chain id' }).fill('5');
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toContain(`is on chain ${chain.client.chainId}, not 5`);
      await page.getByRole('textbox', { name: 'Chain id' }).fill(String(chain.client.chainId));
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Connected' }).count(), { timeout: 20_000 }).toBe(1);
      await page.getByRole('textbox', { name: 'Confirmations' }).fill('1');
      await page.getByLabel('Environment').selectOption('demo');
      await page.getByRole('textbox', { name: 'Explorer transaction URL' }).fill('https://explorer.example/tx/{tx}');
      await screenshot(page, 'settings', '8-engines-tested');
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Add engine' }).click();
      await expect.poll(() => engines.getByRole('row').filter({ hasText: 'campus-chain' }).count()).toBe(1);
      const file = JSON.parse(readFileSync(join(machine.fixture.dataDir, 'engines.json'), 'utf8')) as unknown;
      expect(file).toEqual([
        { id: 'campus-chain', rpc_url: chain.rpcUrl, chain_id: chain.client.chainId, confirmations: 1, environment: 'demo', explorer_tx_url: 'https://explorer.example/tx/{tx}' },
      ]);
      // The same id again: refused with the reason.
      await page.getByRole('textbox', { name: 'Engine id' }).fill('campus-chain');
      await page.getByRole('textbox', { name: 'RPC URL' }).fill(chain.rpcUrl);
      await page.getByRole('textbox', { name: 'Chain id' }).fill(String(chain.client.chainId));
      await page.getByRole('button', { name: 'Add engine' }).click();
      await expect.poll(() => page.getByRole('alert').allTextContents().then((t) => t.join(' '))).toContain('already an engine named campus-chain');
      await screenshot(page, 'settings', '9-engines-added');
      expect(problems).toEqual([]);
    } finally {
      await chain.stop();
    }
  }, 120_000);

  it('without a keychain, the first run says exactly what to install or set, and makes nothing', async () => {
    // The real store chooser, on a machine where keytar cannot load (no libsecret): its message is what the app shows.
    const issuingOff = await openSecretStore({ dataDir: join(work, 'data-3'), env: {}, loadKeytar: () => Promise.reject(new Error('Cannot find module keytar')) }).then(
      () => 'unexpectedly opened',
      (error: unknown) => (error as Error).message,
    );
    expect(issuingOff).toContain('PROOFDESK_PASSPHRASE');
    const fixture = openIssuingEngine({ dataDir: join(work, 'data-3') });
    const ctx = createAppContext({ engine: fixture.engine, partner: null, keyStore: null, issuingOff });
    const bridge = await startWebBridge({ handlers: createIpcHandlers(ctx), events: ctx.events, rendererDir });
    machines.push({ fixture, ctx, bridge });
    const { page, problems } = await openPage({ fixture, ctx, bridge });
    await page.getByRole('heading', { name: 'Welcome to Proofdesk' }).waitFor();
    // One sentence and what to do; the keytar and D-Bus detail waits under Details.
    const alert = page.getByRole('alert').first();
    await expect.poll(() => alert.locator('.error-headline').textContent()).toBe(
      'This computer has no keychain Proofdesk can use yet: set one up as the Details say, then start Proofdesk again.',
    );
    expect(await alert.getByText('PROOFDESK_PASSPHRASE').isVisible()).toBe(false);
    await alert.getByText('Details', { exact: true }).click();
    await expect.poll(() => alert.getByText(/PROOFDESK_PASSPHRASE/).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: 'Partner name' }).fill('Acme University');
    expect(await page.getByRole('button', { name: 'Create Partner and keys' }).isDisabled()).toBe(true);
    await screenshot(page, 'settings', '10-first-run-no-keychain');
    await expectAccessible(page);
    expect(fixture.engine.partners.list()).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('tests and saves a remote connection to `serve` in another process; the secret goes to the key store only', async () => {
    const serveData = join(work, 'serve-data');
    const env = { ...process.env, PROOFDESK_PASSPHRASE: 'serve e2e passphrase', PROOFDESK_SECRET_STORE: undefined };
    const added = await promisify(execFile)(process.execPath, [...cliArgs(), 'partner', 'add', '--name', 'Remote College', '--data', serveData], { cwd: REPO_ROOT, env });
    const client = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
    const child = spawn(process.execPath, [...cliArgs(), 'serve', '--port', '0', '--data', serveData], { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let stdout = '';
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('serve printed nothing in 60 s')), 60_000);
        child.stdout!.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (stdout.includes('\n')) {
            clearTimeout(timer);
            resolve(stdout.slice(0, stdout.indexOf('\n')));
          }
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const { base_url: baseUrl } = JSON.parse(line) as { base_url: string };

      const machine = machines[0]!;
      const { page, problems } = await openPage(machine);
      await section(page, 'Settings');
      await page.getByRole('tab', { name: 'Remote connections' }).click();
      await page.getByRole('textbox', { name: 'Base URL' }).fill(baseUrl);
      await page.getByRole('textbox', { name: 'Client id' }).fill(client.client_id);
      await page.getByLabel('Client secret').fill('a wrong secret');
      await page.getByRole('button', { name: 'Test remote connection' }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toContain('refused the client id and secret');
      await page.getByLabel('Client secret').fill(client.client_secret);
      await page.getByRole('button', { name: 'Test remote connection' }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Connected to' }).textContent(), { timeout: 20_000 }).toContain('engines local');
      await page.getByRole('button', { name: 'Save connection' }).click();
      await expect.poll(() => page.getByTestId('remote-saved-url').textContent(), { timeout: 20_000 }).toBe(baseUrl);
      await screenshot(page, 'settings', '11-remote');
      await expectAccessible(page);
      const file = readFileSync(join(machine.fixture.dataDir, 'remote.json'), 'utf8');
      expect(JSON.parse(file)).toEqual({ base_url: baseUrl, auth_url: new URL(baseUrl).origin, client_id: client.client_id, active: false });
      expect(file).not.toContain(client.client_secret);
      expect(await machine.fixture.secrets.get(`remote/${client.client_id}/client-secret`)).toBe(client.client_secret);
      expect(problems).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      if (existsSync(serveData)) rmSync(serveData, { recursive: true, force: true });
    }
  }, 180_000);

  it('without a keychain, the first run sets a passphrase for the encrypted keys file, and a restart asks for it', async () => {
    const dataDir = join(work, 'data-4');
    const noKeychain = { env: {}, loadKeytar: () => Promise.reject(new Error('Cannot find module keytar')) };
    const open = async () => {
      const app = await openAppEngine(dataDir, noKeychain);
      const { engine, partner, issuingOff, keyStore, keyLock, startIssuing } = app;
      const ctx = createAppContext({ engine, partner, issuingOff, keyStore, ...(keyLock ? { keyLock } : {}), ...(startIssuing ? { onKeysUnlocked: startIssuing } : {}) });
      const bridge = await startWebBridge({ handlers: createIpcHandlers(ctx), events: ctx.events, rendererDir });
      return { app, bridge, ctx };
    };
    const first = await open();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(first.bridge.url);
      const form = page.getByRole('form', { name: 'Choose a passphrase for the keys' });
      await form.waitFor();
      await form.getByLabel('Keys passphrase', { exact: true }).fill('a long keys passphrase');
      await form.getByLabel('Type the keys passphrase again').fill('a long keys passphrasf');
      await expect.poll(() => form.getByRole('alert').textContent()).toContain('The two passphrases differ');
      expect(await form.getByRole('button', { name: 'Set passphrase' }).isDisabled()).toBe(true);
      await screenshot(page, 'settings', '12-first-run-passphrase');
      await expectAccessible(page);
      await form.getByLabel('Type the keys passphrase again').fill('a long keys passphrase');
      await form.getByRole('button', { name: 'Set passphrase' }).click();
      await page.getByRole('textbox', { name: 'Partner name' }).fill('Keyless College');
      await page.getByRole('button', { name: 'Create Partner and keys' }).click();
      await page.getByRole('heading', { name: 'Keyless College is ready to issue' }).waitFor();
      expect(readFileSync(join(dataDir, 'secrets.enc.json'), 'utf8')).not.toContain('a long keys passphrase');
      await context.close();
    } finally {
      await first.bridge.close();
      await first.app.engine.close();
    }

    // A restart: the status bar asks for the passphrase; a wrong one changes nothing.
    const second = await open();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(second.bridge.url);
      const dialog = page.getByRole('dialog', { name: 'Unlock the keys' });
      await dialog.waitFor();
      await dialog.getByLabel('Keys passphrase').fill('not the passphrase');
      await dialog.getByRole('button', { name: 'Unlock keys' }).click();
      await expect.poll(() => dialog.getByRole('alert').textContent(), { timeout: 20_000 }).toContain('does not open the encrypted keys file');
      expect(second.ctx.keyLock()).toBe('unlock');
      await screenshot(page, 'settings', '13-unlock-refused');
      await expectAccessible(page);
      await dialog.getByLabel('Keys passphrase').fill('a long keys passphrase');
      await dialog.getByRole('button', { name: 'Unlock keys' }).click();
      await expect.poll(() => page.getByTestId('status-issuing-off').count(), { timeout: 20_000 }).toBe(0);
      expect(second.ctx.keyLock()).toBeNull();
      expect(await page.getByTestId('status-keys').textContent()).toContain('encrypted file');
      await screenshot(page, 'settings', '14-unlocked');
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await second.bridge.close();
      await second.app.engine.close();
    }
  }, 120_000);
});
