/**
 * What the app's browser tests share: the run's one build of the three bundles, an embedded engine
 * on a temporary data directory behind the web bridge (same handlers, same events as the
 * Electron window), Debian's Chromium, screenshots under build/screenshots/ and axe-core.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import type { CreateCredentialBody } from '../../common/requests.js';
import type { Partner } from '../../common/wire-types.js';
import { MemorySecretStore } from '../../main/secrets/index.js';
import { Engine, type EngineOptions } from '../../main/engine/index.js';
import { createAppContext, type AppContext } from '../../main/app/app-context.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = process.env['PROOFDESK_CHROMIUM'] ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(ROOT, 'build', 'screenshots');

/** The renderer built once for the run's browser tests (build-once.ts, the e2e project's globalSetup). */
export function builtRenderer(): string {
  return inject('rendererDir');
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set PROOFDESK_CHROMIUM)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface Workspace {
  workDir: string;
  engine: Engine;
  partner: Partner;
  context: AppContext;
  bridge: WebBridge;
  close(): Promise<void>;
}

/** An engine with one Partner (and its keys in memory) behind a bridge; `issuing` as Engine.open takes it. */
export async function openWorkspace(
  rendererDir: string,
  options: { name?: string; issuing?: EngineOptions['issuing']; keyStore?: 'keychain' | 'encrypted-file' | null; issuingOff?: string } = {},
): Promise<Workspace> {
  const workDir = mkdtempSync(join(tmpdir(), 'proofdesk-app-e2e-'));
  const engine = Engine.open({ dataDir: join(workDir, 'data'), sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { onError: () => undefined, ...options.issuing } });
  const added = await engine.addPartner({ name: options.name ?? 'Acme University', issuingIntervalSeconds: 3600 });
  const partner = { id: added.partner_id, name: added.name };
  const context = createAppContext({ engine, partner, keyStore: options.keyStore === undefined ? 'keychain' : options.keyStore, issuingOff: options.issuingOff ?? null });
  const bridge = await startWebBridge({ handlers: createIpcHandlers(context), events: context.events, rendererDir });
  return {
    workDir,
    engine,
    partner,
    context,
    bridge,
    close: async () => {
      await bridge.close();
      await engine.close();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** Creates credentials in bulk (the engine's batch path). */
export async function seedCredentials(workspace: Workspace, count: number, body: (i: number) => CreateCredentialBody): Promise<void> {
  const service = workspace.engine.serviceFor(workspace.partner.id);
  for (let start = 0; start < count; start += 5_000) {
    await service.createCredentials(Array.from({ length: Math.min(5_000, count - start) }, (_, k) => body(start + k)));
  }
}

/** Opens the app; page errors and console errors (CSP violations too) are collected in `problems`. */
export async function openPage(browser: Browser, workspace: Workspace, { fileChoosers = false } = {}): Promise<{ page: Page; problems: string[] }> {
  // A context of its own: axe-core needs one (browser.newPage's implicit context will not do).
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  // Playwright starts intercepting file dialogs when the first `filechooser` listener is added,
  // without waiting for Chromium to take it: a key pressed right after could open the real
  // dialog instead, and no event comes. Listening before the page loads settles it first.
  if (fileChoosers) page.on('filechooser', () => undefined);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(workspace.bridge.url);
  return { page, problems };
}

/** Saves build/screenshots/<test>-<step>.png. */
export async function screenshot(page: Page, test: string, step: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${test}-${step}.png`) });
}

/**
 * axe-core on the page as it is: the serious and critical violations, as readable lines.
 * axe.run in the page itself (legacy mode): the window has no frames, so this checks the same
 * document with the same rules as the per-frame run, without opening a blank page to gather the
 * frames' results, which took seconds on every call.
 */
export async function seriousA11yProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`);
}
