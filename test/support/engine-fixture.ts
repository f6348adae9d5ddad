/**
 * Embedded engines for tests: each on a fresh temporary data directory, with a hand-driven
 * clock and no background sweeper, removed again on close.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, ENGINES_FILE, ManualClock, type EngineConfig, type EmbeddedService } from '../../main/engine/index.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import type { IssuingContext } from '../behaviour/issuing-service.suite.js';
import type { StoreKind } from './engine-stores.js';
import { createTestDatabase, type TestDatabase } from './postgres-database.js';

/** A second, configured engine beside the built-in `local`. Part 1 never contacts its RPC URL. */
export const SECOND_ENGINE: EngineConfig = {
  id: 'sepolia',
  rpc_url: 'http://127.0.0.1:9',
  chain_id: 11155111,
  confirmations: 2,
  environment: 'demo',
};

/** A new empty directory under the system temp dir. */
export function makeTempDir(prefix = 'proofdesk-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface EngineFixture {
  dataDir: string;
  engine: Engine;
  clock: ManualClock;
  /** The engine's PostgreSQL database, when it runs on one (OpenEngineOptions.store). */
  databaseUrl?: string;
  /** Closes the engine and deletes the data directory (idempotent). */
  close(): Promise<void>;
}

export interface OpenEngineOptions {
  /** Reuse this directory instead of a new one (it is still deleted on close unless `keep`). */
  dataDir?: string;
  /** Keep the data directory on close. */
  keep?: boolean;
  clock?: ManualClock;
  /** Engines to write into engines.json before opening (default: SECOND_ENGINE). */
  engines?: EngineConfig[];
  /**
   * The engine's database: SQLite in the data directory (the default), or a fresh PostgreSQL
   * database of the test cluster (dropped on close), opened through the engine's test-only seam.
   */
  store?: StoreKind;
}

/** Opens an engine on a fresh temp dir, with a ManualClock and sweeping left to the test. */
export function openEngine(options: OpenEngineOptions = {}): EngineFixture {
  const dataDir = options.dataDir ?? makeTempDir();
  const engines = options.engines ?? [SECOND_ENGINE];
  if (engines.length > 0) writeFileSync(join(dataDir, ENGINES_FILE), JSON.stringify(engines, null, 2));
  const clock = options.clock ?? new ManualClock();
  let engine: Engine;
  let database: TestDatabase | undefined;
  try {
    if (options.store === 'postgres') {
      database = createTestDatabase();
      engine = Engine.open({ dataDir, clock, sweepIntervalMs: false, databaseUrl: database.url });
    } else {
      engine = Engine.open({ dataDir, clock, sweepIntervalMs: false });
    }
  } catch (error) {
    database?.drop();
    if (!options.keep) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  let closed = false;
  return {
    dataDir,
    engine,
    clock,
    ...(database ? { databaseUrl: database.url } : {}),
    async close() {
      if (closed) return;
      closed = true;
      await engine.close();
      database?.drop();
      if (!options.keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestPartner {
  id: string;
  name: string;
  service: EmbeddedService;
}

/**
 * A fresh engine with one Partner (`University A`), and that Partner's scope: what most
 * workspace tests set up before each test. Close `fixture` after it.
 */
export function openEngineWithPartner(name = 'University A'): { fixture: EngineFixture; partner: TestPartner; scope: PartnerScope } {
  const fixture = openEngine();
  const partner = addPartner(fixture.engine, name);
  return { fixture, partner, scope: fixture.engine.scopeFor(partner.id) };
}

/** Registers a Partner and returns its service. */
export function addPartner(engine: Engine, name: string, issuingIntervalSeconds = 3600): TestPartner {
  const created = engine.partners.add({ name, issuingIntervalSeconds });
  return { id: created.partner_id, name: created.name, service: engine.serviceFor(created.partner_id) };
}

/** The behaviour suite's context over one embedded engine holding two Partners, on SQLite unless `store` says otherwise. */
export async function embeddedContext(options: { store?: StoreKind } = {}): Promise<IssuingContext & { fixture: EngineFixture; partnerA: TestPartner; partnerB: TestPartner }> {
  const fixture = openEngine({ store: options.store });
  try {
    const partnerA = addPartner(fixture.engine, 'University A');
    const partnerB = addPartner(fixture.engine, 'College B');
    return {
      fixture,
      partnerA,
      partnerB,
      serviceA: partnerA.service,
      serviceB: partnerB.service,
      advanceTime: (ms) => fixture.clock.advance(ms),
      sweep: () => {
        fixture.engine.sweepUnusedFiles();
      },
      close: () => fixture.close(),
    };
  } catch (error) {
    await fixture.close();
    throw error;
  }
}
