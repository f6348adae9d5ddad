import type { SecretStore } from '../../../common/secret-store.js';
import type { Clock } from '../clock.js';
import type { Db } from '../database.js';
import type { ChainRuntime } from './chain-runtime.js';
import type { IssuingLease } from './issuing-lease.js';
import type { SignerPool } from './signer-pool.js';

/** What the issuing pipeline works with, shared by every Partner of a data directory. */
export interface IssuingContext {
  db: Db;
  clock: Clock;
  secrets: SecretStore | undefined;
  chains: ChainRuntime;
  signer: SignerPool;
  /** The data directory (named in the message of a full disk). */
  dataDir: string;
  /** Says one loud line about what the chain did to recorded transactions (a reorganisation, a loss). */
  notice(line: string): void;
  /** Which process issues for the database: a job's or a registry's transaction is stored only inside its fence. */
  lease: IssuingLease;
}
