import { ServiceError } from '../../common/errors.js';
import { systemClock, type Clock } from './clock.js';
import { openDatabase, type Db } from './database.js';
import { EmbeddedService } from './embedded-service.js';
import { EngineCatalog } from './engine-catalog.js';
import { FileStore } from './file-store.js';
import { sweepUnusedFiles } from './files.js';
import { PartnerRegistry } from './partners.js';

export interface EngineOptions {
  /** Where the database, stored files and engine configuration live (created if absent). */
  dataDir: string;
  clock?: Clock;
  /** How often to delete expired unused uploads; false to leave it to the caller. Default 60 s. */
  sweepIntervalMs?: number | false;
}

/**
 * The embedded issuing engine of one data directory: Partners, and a service per Partner.
 * Open it once per process and close it on the way out.
 */
export class Engine {
  readonly partners: PartnerRegistry;
  readonly catalog: EngineCatalog;
  private readonly store: FileStore;
  private readonly sweeper: NodeJS.Timeout | undefined;

  private constructor(
    readonly dataDir: string,
    private readonly db: Db,
    private readonly clock: Clock,
    sweepIntervalMs: number | false,
  ) {
    this.catalog = EngineCatalog.load(dataDir);
    this.store = new FileStore(dataDir);
    this.partners = new PartnerRegistry(db, clock);
    if (sweepIntervalMs !== false) {
      this.sweepUnusedFiles();
      this.sweeper = setInterval(() => this.sweepUnusedFiles(), sweepIntervalMs);
      this.sweeper.unref();
    }
  }

  static open(options: EngineOptions): Engine {
    const db = openDatabase(options.dataDir);
    try {
      return new Engine(options.dataDir, db, options.clock ?? systemClock, options.sweepIntervalMs ?? 60_000);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** The service scoped to one Partner. */
  serviceFor(partnerId: string): EmbeddedService {
    const partner = this.partners.find(partnerId);
    if (!partner) throw new ServiceError('unauthorized', `No partner ${JSON.stringify(partnerId)} in ${this.dataDir}`);
    return new EmbeddedService({
      db: this.db,
      partner: { id: partner.id, name: partner.name },
      clock: this.clock,
      catalog: this.catalog,
      store: this.store,
    });
  }

  /** Deletes uploads no credential used within an hour; returns how many went. */
  sweepUnusedFiles(): number {
    return sweepUnusedFiles(this.db, this.store, this.clock.now());
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.store.close();
    if (this.db.open) this.db.close();
  }
}
