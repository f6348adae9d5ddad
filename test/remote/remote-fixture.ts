/**
 * RemoteService pointed at a real `serve` on loopback: an Engine on a temporary data
 * directory (engines.json with a second engine, as test/support/engine-fixture.ts writes it),
 * a MemorySecretStore, Partners added with `engine.addPartner`, and the REST server in front.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../main/api/server.js';
import { Engine, ENGINES_FILE, ManualClock, REALM, type EngineOptions } from '../../main/engine/index.js';
import { RemoteService, type RemoteServiceOptions } from '../../main/remote/index.js';
import { MemorySecretStore } from '../../main/secrets/index.js';
import type { IssuingContext } from '../behaviour/issuing-service.suite.js';
import type { LifecycleContext } from '../behaviour/issuing-lifecycle.suite.js';
import { SECOND_ENGINE } from '../support/engine-fixture.js';
import type { StoreKind } from '../support/engine-stores.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';

export interface ServedPartner {
  partnerId: string;
  name: string;
  clientId: string;
  clientSecret: string;
}

export interface ServedEngine {
  dataDir: string;
  engine: Engine;
  clock: ManualClock | undefined;
  server: RunningServer;
  addPartner(name: string): Promise<ServedPartner>;
  /** A RemoteService for a Partner (closed with the fixture). */
  remote(partner: Pick<ServedPartner, 'clientId' | 'clientSecret'>, options?: Partial<RemoteServiceOptions>): RemoteService;
  /** Stops the server, closes the remote clients and the engine, deletes the data directory. */
  close(): Promise<void>;
}

export interface ServeEngineOptions {
  /** A hand-driven clock (the part-1 suite moves time); default the system clock. */
  manualClock?: boolean;
  issuing?: EngineOptions['issuing'];
  environment?: 'demo' | 'live';
  authIssuer?: string;
  /** Called with each request the server answered, as its JSON request-log line. */
  onRequest?: (line: string) => void;
  /**
   * The engine's database: SQLite in the data directory (the default), or a fresh PostgreSQL
   * database of the test cluster (dropped on close), opened through the engine's test-only seam.
   */
  store?: StoreKind;
}

/** An engine on a temp dir served on 127.0.0.1 and a free port. */
export async function serveEngine(options: ServeEngineOptions = {}): Promise<ServedEngine> {
  const dataDir = mkdtempSync(join(tmpdir(), 'proofdesk-remote-'));
  writeFileSync(join(dataDir, ENGINES_FILE), JSON.stringify([SECOND_ENGINE], null, 2));
  const clock = options.manualClock ? new ManualClock() : undefined;
  let database: TestDatabase | undefined;
  let engine: Engine;
  try {
    database = options.store === 'postgres' ? createTestDatabase() : undefined;
    engine = Engine.open({
      dataDir,
      clock,
      sweepIntervalMs: false,
      secrets: new MemorySecretStore(),
      issuing: { onError: () => undefined, ...options.issuing },
      ...(database ? { databaseUrl: database.url } : {}),
    });
  } catch (error) {
    database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  let server: RunningServer;
  try {
    server = await startServer({ engine, environment: options.environment ?? 'demo', authIssuer: options.authIssuer, log: () => undefined, ...(options.onRequest ? { requestLog: { format: 'json' as const, write: options.onRequest } } : {}) });
  } catch (error) {
    await engine.close();
    database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const clients: RemoteService[] = [];
  let closing: Promise<void> | undefined;
  return {
    dataDir,
    engine,
    clock,
    server,
    async addPartner(name) {
      const created = await engine.addPartner({ name, issuingIntervalSeconds: 3600 });
      return { partnerId: created.partner_id, name: created.name, clientId: created.client_id, clientSecret: created.client_secret };
    },
    remote(partner, overrides = {}) {
      const service = new RemoteService({ baseUrl: server.baseUrl, authUrl: server.authUrl, realm: REALM, clientId: partner.clientId, clientSecret: partner.clientSecret, ...overrides });
      clients.push(service);
      return service;
    },
    close: () =>
      (closing ??= (async () => {
        await Promise.all(clients.map((c) => c.close()));
        await server.close();
        await engine.close();
        database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      })()),
  };
}

/** The part-1 behaviour suite's context: two Partners of one served engine, each through RemoteService; on SQLite unless `store` says otherwise. */
export async function remoteContext(store: StoreKind = 'sqlite'): Promise<IssuingContext & { served: ServedEngine }> {
  const served = await serveEngine({ manualClock: true, store });
  try {
    const a = await served.addPartner('University A');
    const b = await served.addPartner('College B');
    return {
      served,
      serviceA: served.remote(a),
      serviceB: served.remote(b),
      advanceTime: (ms) => served.clock!.advance(ms),
      sweep: () => {
        served.engine.sweepUnusedFiles();
      },
      close: () => served.close(),
    };
  } catch (error) {
    await served.close();
    throw error;
  }
}

/** The part-2 suite's context: one Partner through RemoteService; the engine's scheduler runs; on SQLite unless `store` says otherwise. */
export async function remoteLifecycleContext(store: StoreKind = 'sqlite'): Promise<LifecycleContext> {
  const served = await serveEngine({ issuing: { scheduler: true, tickMs: 100, onError: () => undefined }, store });
  try {
    const partner = await served.addPartner('Lifecycle University');
    return { service: served.remote(partner), close: () => served.close() };
  } catch (error) {
    await served.close();
    throw error;
  }
}
