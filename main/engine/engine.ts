import { userInfo } from 'node:os';
import { ServiceError } from '../../common/errors.js';
import type { SecretStore } from '../../common/secret-store.js';
import { systemClock, type Clock } from './clock.js';
import type { Db } from './database.js';
import { EmbeddedService } from './embedded-service.js';
import { EngineCatalog } from './engine-catalog.js';
import { openFileBytes, type FileBytes } from './file-bytes.js';
import { sweepUnusedFiles } from './files.js';
import { IssuingRuntime, type IssuingOptions } from './issuing/issuing-runtime.js';
import { ensurePartnerKeys, exportPartnerKeys, importPartnerKeys, type PartnerKeyMaterial } from './issuing/partner-keys.js';
import { TokenKeyRegistry } from './token-keys.js';
import { PartnerRegistry, type NewPartnerCredentials, type PartnerBackupRow, type PartnerRecord } from './partners.js';
import { recordPartnerActivity } from './activity.js';
import { makeTreePrivate } from './private-files.js';
import { engineEventsOf, type EngineEvents } from './events/engine-events.js';
import { watchChanges } from './events/watch-changes.js';
import { checkReadiness, type Readiness } from './readiness.js';
import { openEngineDatabase } from './store/open-engine-database.js';
import { sqliteOf } from './store/dialect.js';
import { BackgroundIndexer } from './background-indexer.js';
import type { PartnerScope } from './scope.js';
import { publicUrlOf, setPublicUrl } from './vc/status-list-store.js';

export interface EngineOptions {
  /** Where the database, stored files and engine configuration live (created if absent). */
  dataDir: string;
  clock?: Clock;
  /** How often to delete expired unused uploads; false to leave it to the caller. Default 60 s. */
  sweepIntervalMs?: number | false;
  /** Where the Partners' private keys live (main/secrets); issuing needs one. */
  secrets?: SecretStore;
  /** Chains and the scheduler; by default no scheduler runs in this process. */
  issuing?: IssuingOptions;
  /** Who the activity log names for what this process does; by default the OS user. */
  actor?: string;
  /** A postgres:// URL puts the engine's data in that PostgreSQL database instead of SQLite in dataDir. */
  databaseUrl?: string;
  /**
   * Index new credentials for word search in the background while no job issues (SQLite; a
   * long-running process: the app, `serve`, `watch`). Without it the first search indexes them.
   */
  indexInBackground?: boolean;
}

/** The OS user running this process, as the activity log names them. */
export function osActor(): string {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry for the uid (some containers): the uid still names someone.
    return `uid:${process.getuid?.() ?? 'unknown'}`;
  }
}

/**
 * The embedded issuing engine of one data directory: Partners, and a service per Partner.
 * Open it once per process and close it on the way out.
 */
export class Engine {
  readonly partners: PartnerRegistry;
  /** The token-signing public keys of the serve nodes on this database. */
  readonly tokenKeys: TokenKeyRegistry;
  readonly catalog: EngineCatalog;
  readonly issuing: IssuingRuntime;
  /** What changed, after it is committed: by this process (at once) or another one sharing the database (within a second; on PostgreSQL every move, in order). */
  readonly events: EngineEvents;
  /** The search index's background work, when the engine's owner asked for it (indexInBackground) on SQLite. */
  readonly backgroundIndexer: BackgroundIndexer | undefined;
  private readonly stopWatchingOthers: () => void;
  private readonly store: FileBytes;
  private readonly sweeper: NodeJS.Timeout | undefined;

  private constructor(
    readonly dataDir: string,
    private readonly db: Db,
    private readonly clock: Clock,
    sweepIntervalMs: number | false,
    private readonly secrets: SecretStore | undefined,
    issuing: IssuingOptions,
    private readonly actor: string,
    indexInBackground: boolean,
  ) {
    this.catalog = EngineCatalog.load(dataDir);
    this.store = openFileBytes(db, dataDir, clock);
    this.partners = new PartnerRegistry(db, clock);
    this.tokenKeys = new TokenKeyRegistry(db);
    this.events = engineEventsOf(db);
    this.stopWatchingOthers = watchChanges(db, this.events);
    this.issuing = new IssuingRuntime(db, clock, dataDir, this.catalog, secrets, issuing);
    this.backgroundIndexer = indexInBackground && sqliteOf(db) ? new BackgroundIndexer(db, this.events) : undefined;
    if (sweepIntervalMs !== false) {
      this.sweepUnusedFiles();
      this.sweeper = setInterval(() => this.sweepUnusedFiles(), sweepIntervalMs);
      this.sweeper.unref();
    }
  }

  static open(options: EngineOptions): Engine {
    // Whatever was there before (a directory made 0755, files copied in): private from now on.
    makeTreePrivate(options.dataDir);
    const db = openEngineDatabase(options.dataDir, options.databaseUrl);
    try {
      return new Engine(options.dataDir, db, options.clock ?? systemClock, options.sweepIntervalMs ?? 60_000, options.secrets, options.issuing ?? {}, options.actor ?? osActor(), options.indexInBackground ?? false);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Registers a Partner with its keys: a chain account and a certificate-signing key, made now
   * and kept in the secret store (Partners added with `partners.add` get theirs on first issue).
   */
  async addPartner(input: { name: string; issuingIntervalSeconds?: number }): Promise<NewPartnerCredentials & { address: string; signing_public_key: string }> {
    const created = this.partners.add(input);
    const identity = await ensurePartnerKeys(this.db, this.secrets, created.partner_id);
    return { ...created, address: identity.address, signing_public_key: identity.signingPublicKey };
  }

  // Key backup and restore: a Partner with its keys, out of and into a data directory.
  /** The Partner's row and its keys, for an encrypted backup (main/workspace/settings). */
  async backupPartner(partnerId: string): Promise<{ partner: PartnerBackupRow; keys: PartnerKeyMaterial }> {
    const partner = this.partners.backupRow(partnerId);
    const keys = await exportPartnerKeys(this.db, this.secrets, partnerId);
    recordPartnerActivity(this.scopeFor(partnerId), 'keys_exported');
    return { partner, keys };
  }

  /** Restores a backed-up Partner: the same id, client id, chain account and signing key. */
  async restorePartner(backup: { partner: PartnerBackupRow; keys: PartnerKeyMaterial }): Promise<PartnerRecord> {
    if (!this.secrets) throw new ServiceError('internal_error', 'No secret store is open: restoring keys needs the keychain, or PROOFDESK_PASSPHRASE for an encrypted file.');
    const known = this.partners.find(backup.partner.id);
    if (known?.chain_address && known.chain_address.toLowerCase() !== backup.keys.address.toLowerCase()) {
      throw new ServiceError('invalid_value', 'This Partner already has another chain account here; restoring would replace its identity, so nothing was changed.');
    }
    const restored = this.partners.restoreRow(backup.partner);
    try {
      await importPartnerKeys(this.db, this.secrets, restored.id, backup.keys);
    } catch (error) {
      // Nothing changed on a refused restore: a row added just now goes again.
      if (!known) this.db.prepare('DELETE FROM partners WHERE id = ?').run(restored.id);
      throw error;
    }
    recordPartnerActivity(this.scopeFor(restored.id), 'keys_restored');
    return this.partners.find(restored.id)!;
  }

  // Settings › Remote connections: a remote service's client secret goes to the same store.
  /** The secret store the engine keeps keys in; undefined when none could be opened. */
  get secretStore(): SecretStore | undefined {
    return this.secrets;
  }

  /**
   * The service scoped to one Partner.
   *
   * @param actor who the activity log names for its changes (the REST server: the client id); by default this process's
   */
  serviceFor(partnerId: string, actor?: string): EmbeddedService {
    return new EmbeddedService(this.scopeFor(partnerId, actor));
  }

  /**
   * What one Partner's service works with. The app's workspace (main/workspace) queries and
   * writes through it directly, for what the spec's endpoints do not offer (windows of rows
   * with their states, search, selections resolved in main).
   */
  scopeFor(partnerId: string, actor: string = this.actor): PartnerScope {
    const partner = this.partners.find(partnerId);
    if (!partner) throw new ServiceError('unauthorized', `No partner ${JSON.stringify(partnerId)} in ${this.dataDir}`);
    return {
      db: this.db,
      partner: { id: partner.id, name: partner.name },
      clock: this.clock,
      catalog: this.catalog,
      store: this.store,
      issuing: this.issuing,
      actor,
    };
  }

  /**
   * The URL this data directory's `serve` is reached at from outside (`serve --public-url`), or
   * undefined: with one, the credentials exported here name their status lists under it.
   */
  get publicUrl(): string | undefined {
    return publicUrlOf(this.db);
  }

  /** Sets the public URL (normalized; `invalid_value` unless https, or http on loopback), or removes it with null. */
  setPublicUrl(url: string | null): void {
    setPublicUrl(this.db, url);
  }

  /** Deletes uploads no credential used within an hour; returns how many went (none where another process holds the issuing lease). */
  sweepUnusedFiles(): number {
    return sweepUnusedFiles(this.db, this.store, this.clock.now(), this.issuing.ctx.lease);
  }

  /** Whether the engine can serve now: database answering, schema current, issuing running somewhere. */
  readiness(): Readiness {
    return checkReadiness(this.db, () => ({ scheduler: this.issuing.schedulerPlace(), leader: this.issuing.leaderNode() ?? null }));
  }

  /**
   * Stops the scheduler, the signer and the local chain (which saves its state), then closes
   * the database. Await it: the chain's state is written on the way out.
   */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.backgroundIndexer?.stop();
    this.stopWatchingOthers();
    await this.issuing.close();
    this.store.close();
    if (this.db.open) this.db.close();
  }
}
