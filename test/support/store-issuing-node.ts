/**
 * An issuing node on an engine database opened directly (either store): the issuing runtime of
 * a data directory of its own, over the connection it is given, and a Partner's service on it —
 * what `serve` nodes sharing one database each run. Stored files are not reached by
 * credentials without files, and say so if they are.
 */
import type { SecretStore } from '../../common/secret-store.js';
import type { Clock } from '../../main/engine/clock.js';
import type { Db } from '../../main/engine/database.js';
import { EmbeddedService } from '../../main/engine/embedded-service.js';
import { EngineCatalog, type EngineConfig } from '../../main/engine/engine-catalog.js';
import { IssuingRuntime, type IssuingOptions } from '../../main/engine/issuing/issuing-runtime.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import type { PartnerScope } from '../../main/engine/scope.js';

export interface StoreIssuingNode {
  db: Db;
  issuing: IssuingRuntime;
  /** The Partner's scope on this node. */
  scopeFor(partnerId: string): PartnerScope;
  /** The Partner's service on this node. */
  serviceFor(partnerId: string): EmbeddedService;
  /** Stops its scheduler (giving up the lease), its signer and its chain clients. Idempotent. */
  close(): Promise<void>;
}

export interface StoreIssuingNodeOptions {
  db: Db;
  /** The node's own data directory (its installation record). */
  dataDir: string;
  secrets: SecretStore;
  /** The configured engines (beside `local`). */
  engines: EngineConfig[];
  clock: Clock;
  issuing?: IssuingOptions;
}

/** Opens an issuing node on `db`; the scheduler's errors are thrown at the test unless `issuing.onError` says otherwise. */
export function openStoreIssuingNode(options: StoreIssuingNodeOptions): StoreIssuingNode {
  const { db, dataDir, secrets, clock } = options;
  const catalog = new EngineCatalog(options.engines);
  const runtime = new IssuingRuntime(db, clock, dataDir, catalog, secrets, {
    onError: (error) => {
      throw error;
    },
    ...options.issuing,
  });
  const partners = new PartnerRegistry(db, clock);
  const scopeFor = (partnerId: string): PartnerScope => {
    const partner = partners.find(partnerId);
    if (!partner) throw new Error(`No Partner ${partnerId}`);
    const scope = { db, partner: { id: partner.id, name: partner.name }, clock, catalog, issuing: runtime, actor: 'tester' };
    Object.defineProperty(scope, 'store', {
      get() {
        throw new Error('credentials without files do not use the file store');
      },
    });
    return scope as PartnerScope;
  };
  let closing: Promise<void> | undefined;
  return {
    db,
    issuing: runtime,
    scopeFor,
    serviceFor: (partnerId) => new EmbeddedService(scopeFor(partnerId)),
    close: () => (closing ??= runtime.close()),
  };
}
