/**
 * Contexts of the part-2 behaviour suite: an engine that issues for real on its `local` anvil,
 * with a scheduler running, one Partner with its keys, and a configured engine never issued on.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine, ENGINES_FILE } from '../../main/engine/index.js';
import { MemorySecretStore } from '../../main/secrets/index.js';
import type { LifecycleContext } from '../behaviour/issuing-lifecycle.suite.js';
import { SECOND_ENGINE, makeTempDir } from '../support/engine-fixture.js';

export interface IssuingEngine {
  engine: Engine;
  dataDir: string;
  partner: { partner_id: string; client_id: string; client_secret: string; realm: string };
  close(): Promise<void>;
}

/** An engine on a temp dir with a MemorySecretStore, a 100 ms scheduler and one Partner. */
export async function openIssuingEngine(name = 'Lifecycle University'): Promise<IssuingEngine> {
  const dataDir = makeTempDir('proofdesk-lifecycle-');
  writeFileSync(join(dataDir, ENGINES_FILE), JSON.stringify([SECOND_ENGINE], null, 2));
  const engine = Engine.open({
    dataDir,
    sweepIntervalMs: false,
    secrets: new MemorySecretStore(),
    issuing: { scheduler: true, tickMs: 100, onError: () => undefined },
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    })());
  try {
    const partner = await engine.addPartner({ name, issuingIntervalSeconds: 3600 });
    return { engine, dataDir, partner, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The part-2 suite's context on the embedded engine. */
export async function embeddedLifecycleContext(): Promise<LifecycleContext> {
  const fx = await openIssuingEngine();
  return { service: fx.engine.serviceFor(fx.partner.partner_id), close: fx.close };
}
