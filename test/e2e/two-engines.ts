/**
 * A workspace like shell-harness's openWorkspace, with a second engine (`sepolia`, never
 * reached) in engines.json: scheduling on both gives two jobs, and unscheduling from one
 * leaves the credential on the other.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Partner } from '../../common/wire-types.js';
import { createAppContext } from '../../main/app/app-context.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import { ENGINES_FILE, Engine, type EmbeddedService } from '../../main/engine/index.js';
import { MemorySecretStore } from '../../main/secrets/index.js';
import { SECOND_ENGINE } from '../support/engine-fixture.js';
import { openPage } from './shell-harness.js';
import { cellUnder } from './grid-cell.js';

export { SECOND_ENGINE };

export interface TwoEngineWorkspace {
  engine: Engine;
  partner: Partner;
  service: EmbeddedService;
  bridge: WebBridge;
  /** The app in a fresh browser context; problems collects page and console errors. */
  open(browser: Parameters<typeof openPage>[0]): ReturnType<typeof openPage>;
  close(): Promise<void>;
}

export async function openTwoEngineWorkspace(rendererDir: string): Promise<TwoEngineWorkspace> {
  const workDir = mkdtempSync(join(tmpdir(), 'proofdesk-two-engines-'));
  const dataDir = join(workDir, 'data');
  const options = { dataDir, sweepIntervalMs: false as const, secrets: new MemorySecretStore(), issuing: { onError: () => undefined } };
  // Open once to lay out the data directory, then again with engines.json beside it.
  await Engine.open(options).close();
  writeFileSync(join(dataDir, ENGINES_FILE), JSON.stringify([SECOND_ENGINE]));
  const engine = Engine.open(options);
  const added = await engine.addPartner({ name: 'Acme University', issuingIntervalSeconds: 3600 });
  const partner = { id: added.partner_id, name: added.name };
  const context = createAppContext({ engine, partner, keyStore: 'keychain', issuingOff: null });
  const bridge = await startWebBridge({ handlers: createIpcHandlers(context), events: context.events, rendererDir });
  return {
    engine,
    partner,
    service: engine.serviceFor(partner.id),
    bridge,
    open: (browser) => openPage(browser, { bridge } as Parameters<typeof openPage>[1]),
    close: async () => {
      await bridge.close();
      await engine.close();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** The table's state cells of a row, in engine order ([local, sepolia]). */
export async function stateCells(page: Page, title: string): Promise<string[]> {
  const grid = page.getByRole('grid', { name: 'Credentials' });
  const row = grid.getByRole('row').filter({ hasText: title });
  return Promise.all(['Local chain', 'Sepolia'].map(async (heading) => (await cellUnder(grid, row, heading)).textContent().then((text) => text ?? '')));
}
