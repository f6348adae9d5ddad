/**
 * Which data directory the database's `local` engine belongs to. `local` is the dev chain of one
 * data directory (`<dataDir>/chain/local`). On SQLite the database lives in that directory, so
 * the two always go together. On PostgreSQL, nodes on other machines have data directories of
 * their own, each of which would start a local chain of its own: the database's `local` jobs
 * belong to one of them, its home. The first data directory (installation id) to use `local` —
 * to connect its chain, which issuing a job (by the scheduler or "issue now") does first — claims
 * it. Until then every node offers `local` and accepts jobs on it (they wait on no chain yet).
 * Once another data directory has claimed it, a node does not offer `local`, and never issues,
 * follows or reconciles its jobs, which on its own chain would look lost (and be re-sent there,
 * or failed). Opening an engine, listing engines and scheduling read the claim without claiming.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../database.js';
import { cached } from '../list-query.js';
import { postgresOf } from '../store/dialect.js';

/** The data directory whose local dev chain is the database's `local` engine. */
export interface LocalChainHome {
  installationId: string;
  /** The node that claimed it (PROOFDESK_NODE_NAME or the host name). */
  node: string;
  dataDir: string;
  /** The local chain's genesis as its home last connected to it (proofs built elsewhere name it). */
  genesis?: { chainId: number; hash: string };
}

interface HomeRow {
  installation_id: string;
  node: string;
  data_dir: string;
  chain_id: number | null;
  genesis_hash: string | null;
}

/** The database's local chain home, or undefined on SQLite (the database's local chain is its data directory's). */
export function readLocalChainHome(db: Db): LocalChainHome | undefined {
  if (!postgresOf(db)) return undefined;
  const row = cached(db, 'SELECT installation_id, node, data_dir, chain_id, genesis_hash FROM local_chain_home WHERE id = 1').get() as HomeRow | undefined;
  if (!row) return undefined;
  return {
    installationId: row.installation_id,
    node: row.node,
    dataDir: row.data_dir,
    ...(row.chain_id !== null && row.genesis_hash !== null ? { genesis: { chainId: Number(row.chain_id), hash: row.genesis_hash } } : {}),
  };
}

/** Notes the local chain's genesis on the home's row (only the home writes it), when it is new or changed. */
export function recordLocalChainGenesis(db: Db, installationId: string, genesis: { chainId: number; hash: string }): void {
  if (!postgresOf(db)) return;
  cached(
    db,
    'UPDATE local_chain_home SET chain_id = ?, genesis_hash = ? WHERE id = 1 AND installation_id = ? AND (chain_id IS DISTINCT FROM ? OR genesis_hash IS DISTINCT FROM ?)',
  ).run(genesis.chainId, genesis.hash, installationId, genesis.chainId, genesis.hash);
}

/**
 * What the engine catalog asks before it offers `local` (EngineCatalog.gateLocal): whether the
 * local chain is another data directory's. The home is read from the database while no one has
 * claimed it, and kept once someone has (a claim never changes).
 */
export class LocalChainGate {
  private home: LocalChainHome | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly self: { installationId: string; node: string; dataDir: string },
  ) {}

  /**
   * Why `local` cannot be used from this data directory, or undefined when it can. `claim`: the
   * caller is about to use the local chain, which makes this data directory its home if none is.
   */
  refusal(claim: boolean): string | undefined {
    const home = this.elsewhere(claim);
    if (!home) return undefined;
    return (
      `This database's local dev chain is in another data directory (installation ${home.installationId}, ${home.dataDir} on ${home.node}), ` +
      'so the engine "local" cannot be used from this one; to issue from several machines, configure a chain as an engine (docs/chain.md).'
    );
  }

  /**
   * The home when it is another data directory: read, or with `claim` claimed for this data
   * directory unless another one has it (atomic: of nodes opening at once, one claims).
   */
  elsewhere(claim = false): LocalChainHome | undefined {
    if (claim && !this.home && postgresOf(this.db)) {
      const { installationId, node, dataDir } = this.self;
      cached(this.db, 'INSERT INTO local_chain_home (id, installation_id, node, data_dir, claimed_date) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING').run(installationId, node, dataDir, this.clock.now());
    }
    this.home ??= readLocalChainHome(this.db);
    return this.home && this.home.installationId !== this.self.installationId ? this.home : undefined;
  }
}
