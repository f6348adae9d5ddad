import type { Partner } from '../../common/wire-types.js';
import type { Clock } from './clock.js';
import type { Db } from './database.js';
import type { EngineCatalog } from './engine-catalog.js';
import type { FileStore } from './file-store.js';
import type { IssuingRuntime } from './issuing/issuing-runtime.js';

/** Everything one Partner's service works with. Every query filters on `partner.id`. */
export interface PartnerScope {
  db: Db;
  partner: Partner;
  clock: Clock;
  catalog: EngineCatalog;
  store: FileStore;
  issuing: IssuingRuntime;
  /** Who acts through this scope, as the activity log names them: an OS user or an OAuth client id. */
  actor: string;
}
