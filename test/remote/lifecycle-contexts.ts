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
import type { StoreKind } from '../support/engine-stores.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';

export interface IssuingEngine {
  engine: Engine;
  dataDir: string;
  partner: { partner_id: string; client_id: string; client_secret: string; realm: string };
  close(): Promise<void>;
}

/**
 * An engine on a temp dir with a MemorySecretStore, a 100 ms scheduler and one Partner; its
 * database is SQLite in the temp dir unless `store` is 'postgres' (a fresh database of the test
 * cluster, through the engine's test-only seam, dropped on close).
 */
export async function openIssuingEngine(name = 'Lifecycle University', store: StoreKind = 'sqlite'): Promise<IssuingEngine> {
  const dataDir = makeTempDir('proofdesk-lifecycle-');
  writeFileSync(join(dataDir, ENGINES_FILE), JSON.stringify([SECOND_ENGINE], null, 2));
  let database: TestDatabase | undefined;
  let engine: Engine;
  try {
    database = store === 'postgres' ? createTestDatabase() : undefined;
    engine = Engine.open({
      dataDir,
      sweepIntervalMs: false,
      secrets: new MemorySecretStore(),
      issuing: { scheduler: true, tickMs: 100, onError: () => undefined },
      ...(database ? { databaseUrl: database.url } : {}),
    });
  } catch (error) {
    database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await engine.close();
      database?.drop();
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

/** The part-2 suite's context on the embedded engine, on SQLite unless `store` says otherwise. */
export async function embeddedLifecycleContext(store: StoreKind = 'sqlite'): Promise<LifecycleContext> {
  const fx = await openIssuingEngine(undefined, store);
  return { service: fx.engine.serviceFor(fx.partner.partner_id), close: fx.close };
}
