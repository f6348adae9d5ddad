/**
 * The low-funds warning, end to end in Debian's Chromium through the web bridge: an engine on a
 * second anvil run as Sepolia, the Partner's account holding enough for 3 jobs at today's fees
 * (one job: the registry's issue gas × the max fee a transaction would be signed with now). The
 * status bar and Settings › Engines say so; once the account is funded, the warning goes by itself
 * (the probe asks again every 500 ms here, every 30 s in the app).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { numberToHex, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../main/app/app-context.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import type { Address } from '../../main/chain/index.js';
import { ISSUE_GAS_ALLOWANCE } from '../../main/engine/issuing/job-issuer.js';
import { rpc } from '../chain/chain-fixture.js';
import { openIssuingEngine, startSecondChain, type IssuingFixture, type SecondChain } from '../support/issuing-fixture.js';
import { builtRenderer, launchChromium, screenshot } from './shell-harness.js';

const SEPOLIA = 11155111;

let work: string;
let browser: Browser;
let chain: SecondChain;
let fixture: IssuingFixture;
let bridge: WebBridge;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'proofdesk-e2e-funds-'));
  browser = await launchChromium();
  chain = await startSecondChain(SEPOLIA);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await fixture?.close();
  await chain?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('low funds', () => {
  it('the status bar and Settings › Engines warn while the account pays for fewer than 10 jobs, and the warning goes once it is funded', async () => {
    fixture = openIssuingEngine({
      engines: [{ id: 'sepolia', rpc_url: chain.rpcUrl, chain_id: SEPOLIA, finality: 'confirmations', confirmations: 1, environment: 'live' }],
    });
    const added = await fixture.engine.addPartner({ name: 'Thrifty University', issuingIntervalSeconds: 3600 });
    const address = added.address as Address;
    // Enough for 3 jobs at today's fees, and a little.
    const { needed } = await chain.client.estimateCost(address, [{ data: '0x', gas: ISSUE_GAS_ALLOWANCE }], fixture.engine.issuing.issuer.feeCap('sepolia'));
    await rpc(chain.rpcUrl, 'anvil_setBalance', [address, numberToHex(needed * 3n + needed / 2n)]);

    const ctx = createAppContext({ engine: fixture.engine, partner: { id: added.partner_id, name: added.name }, keyStore: 'keychain', issuingOff: null });
    bridge = await startWebBridge({ handlers: createIpcHandlers(ctx, { chainProbeEveryMs: 500 }), events: ctx.events, rendererDir: builtRenderer() });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(bridge.url);

    const bar = page.getByRole('contentinfo', { name: 'Status' });
    // The chain by its name (its ids in the tooltip), amounts in ETH to four decimals.
    const engineItem = bar.getByTestId('status-engine-sepolia');
    await expect.poll(() => engineItem.textContent()).toMatch(/^Sepolia live, chain (connected|not checked yet)/);
    expect(await engineItem.getAttribute('title')).toContain('Engine sepolia, chain id 11155111');
    const warning = bar.getByRole('status').filter({ hasText: 'Low funds on Sepolia' });
    const amount = '(\\d+\\.\\d{4} ETH|< 0\\.0001 ETH)';
    await expect.poll(() => warning.textContent(), { timeout: 20_000 }).toMatch(new RegExp(`^Low funds on Sepolia: ${amount} pays for 3 jobs \\(about ${amount} each at today's fees\\); fund ${address}$`));
    await screenshot(page, 'low-funds', '1-status-bar');

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Engines' }).click();
    const inSettings = page.getByRole('tabpanel').getByRole('status').filter({ hasText: 'Low funds on Sepolia' });
    await expect.poll(() => inSettings.textContent()).toContain('pays for 3 jobs');

    await chain.client.fund(address, parseEther('10'));
    await expect.poll(() => warning.count(), { timeout: 20_000 }).toBe(0);
    expect(await inSettings.count()).toBe(0);
    // Funded: the status bar shows the balance itself, in ETH to four decimals.
    await expect.poll(() => bar.getByTestId('status-balance-sepolia').textContent(), { timeout: 20_000 }).toMatch(/^ · Balance 10\.\d{4} ETH$/);
    await screenshot(page, 'low-funds', '2-funded');
    await page.getByRole('tab', { name: 'Keys' }).click();
    const account = page.getByRole('table', { name: 'Chain accounts' }).getByRole('row').filter({ hasText: 'sepolia' });
    await expect.poll(() => account.textContent(), { timeout: 20_000 }).toMatch(/^sepoliaSepolialive10\.\d{4} ETH/);
  }, 120_000);
});
