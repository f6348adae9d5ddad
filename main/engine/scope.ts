import type { Partner } from '../../common/wire-types.js';
import type { Clock } from './clock.js';
import type { Db } from './database.js';
import type { EngineCatalog } from './engine-catalog.js';
import type { FileBytes } from './file-bytes.js';
import type { IssuingRuntime } from './issuing/issuing-runtime.js';

/** Everything one Partner's service works with. Every query filters on `partner.id`. */
export interface PartnerScope {
  db: Db;
  partner: Partner;
  clock: Clock;
  catalog: EngineCatalog;
  /** Where uploaded files' bytes are kept (the data directory, or the database). */
  store: FileBytes;
  issuing: IssuingRuntime;
  /** Who acts through this scope, as the activity log names them: an OS user or an OAuth client id. */
  actor: string;
}
