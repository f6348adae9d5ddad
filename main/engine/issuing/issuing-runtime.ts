import type { SecretStore } from '../../../common/secret-store.js';
import type { Clock } from '../clock.js';
import type { Db } from '../database.js';
import type { EngineCatalog } from '../engine-catalog.js';
import { finalityRuleFor } from '../finality.js';
import { ensureInstallation, localGenesisTimestamp, proofChainIdentity, readInstallation } from '../proofs/chain-identity.js';
import { chainReaderFor } from '../proofs/verify-chain-reader.js';
import type { SchedulerPlace } from '../readiness.js';
import type { VerifyOptions } from '../proofs/verify-proof.js';
import { ChainRuntime, type ChainRuntimeOptions } from './chain-runtime.js';
import { ChainWatch } from './chain-watch.js';
import type { IssuingContext } from './issuing-context.js';
import { IssuingLease, nodeName } from './issuing-lease.js';
import { JobIssuer } from './job-issuer.js';
import { LocalChainGate, readLocalChainHome, recordLocalChainGenesis } from './local-chain-home.js';
import { describeReconciliation, reconcileChain } from './reconcile-chain.js';
import { IssuingScheduler } from './scheduler.js';
import { SignerPool } from './signer-pool.js';

export interface IssuingOptions extends ChainRuntimeOptions {
  /**
   * Run the scheduler in this process: issue due jobs and follow jobs under way. The desktop
   * app, `serve`, `watch` and `issue` do; one-shot commands and most tests do not.
   */
  scheduler?: boolean;
  /** How often the scheduler looks, in ms (default 1,000). */
  tickMs?: number;
  /** Where scheduler errors go (default: stderr, one line each). */
  onError?: (error: unknown) => void;
  /** Where the loud line about a chain that lost transactions goes (default: stderr). */
  onNotice?: (line: string) => void;
  /**
   * The clock that paces requests to chains (chain-pace.ts): once per block, the backoff, how long
   * an endpoint or a chain has been silent. Default: the wall clock (it is about load on someone's
   * endpoint, not the engine's dates); tests drive a minute of it without waiting one.
   */
  paceClock?: () => number;
  /** This node's name in the issuing lease (default PROOFDESK_NODE_NAME, else the host name). */
  nodeName?: string;
}

/** The issuing half of an engine: chains, signer, job issuer and scheduler of one data directory. */
export class IssuingRuntime {
  readonly ctx: IssuingContext;
  readonly issuer: JobIssuer;
  /** This data directory's installation id (chain-identity.ts): local-chain proofs carry it. */
  readonly installationId: string;
  /**
   * On PostgreSQL, whether the database's `local` engine is this data directory's local chain
   * (local-chain-home.ts): the catalog asks it before offering `local`.
   */
  readonly localChainGate: LocalChainGate;
  private readonly scheduler: IssuingScheduler;

  constructor(
    db: Db,
    clock: Clock,
    private readonly dataDir: string,
    private readonly catalog: EngineCatalog,
    secrets: SecretStore | undefined,
    options: IssuingOptions,
  ) {
    this.installationId = ensureInstallation(dataDir).installation_id;
    this.localChainGate = new LocalChainGate(db, clock, { installationId: this.installationId, node: options.nodeName ?? nodeName(), dataDir });
    catalog.gateLocal((claim) => this.localChainGate.refusal(claim));
    const onNotice = options.onNotice ?? ((line: string) => process.stderr.write(`proofdesk: ${line}\n`));
    const chains = new ChainRuntime(dataDir, catalog, options, {
      onConnect: async (engine, client) => {
        // Nodes on other data directories build this chain's proofs from the database: it names the genesis for them.
        const genesis = engine === 'local' ? readInstallation(dataDir)?.chains.local : undefined;
        if (genesis) recordLocalChainGenesis(db, this.installationId, { chainId: genesis.chain_id, hash: genesis.genesis_hash });
        const result = await reconcileChain(this.ctx, this.issuer, engine, client);
        if (result.lost > 0) onNotice(describeReconciliation(engine, result));
      },
      localGenesisTimestamp: () => {
        const first = db.prepare("SELECT min(mined_date) FROM chain_txs WHERE engine = 'local' AND mined_date IS NOT NULL").pluck().get() as number | null;
        return localGenesisTimestamp(dataDir, first === null ? undefined : Math.floor(first / 1000) - 1, Math.floor(clock.now() / 1000));
      },
    });
    const lease = new IssuingLease(db, undefined, options.nodeName);
    this.ctx = { db, clock, secrets, chains, signer: new SignerPool(), dataDir, notice: onNotice, lease };
    this.issuer = new JobIssuer(this.ctx, options.paceClock);
    const onError = options.onError ?? ((error: unknown) => process.stderr.write(`proofdesk issuing: ${(error as Error).message ?? String(error)}\n`));
    this.scheduler = new IssuingScheduler(this.issuer, lease, onError, new ChainWatch(this.ctx, this.issuer));
    if (options.scheduler) this.scheduler.start(options.tickMs ?? 1_000);
  }

  /**
   * Starts the scheduler later (the app whose keys were locked at start, once they are unlocked),
   * taking the issuing lease like one started at open; false when another live process holds it
   * (the scheduler then takes over when that one stops or dies).
   */
  startScheduler(tickMs = 1_000): boolean {
    return this.scheduler.start(tickMs);
  }

  /**
   * Runs one scheduler round now (issue what is due, advance what is under way). `paced`: as the
   * scheduler's timer does, asking each chain at most once per block (default: ask now).
   */
  tick(options: { paced?: boolean } = {}): Promise<void> {
    return this.scheduler.tick(options.paced ?? false);
  }

  /**
   * Gets ready to issue on `engine` soon: connects its chain (starting the local one) and starts
   * the signer threads, in the background. A failure here is not reported: the issue that
   * follows connects again and says what went wrong.
   */
  readyToIssue(engine: string): void {
    if (!this.catalog.find(engine)) return;
    this.ctx.chains.client(engine).catch(() => undefined);
    this.ctx.signer.start();
  }

  /** What a proof of the engine says about its chain beyond the chain id (genesis, installation). */
  proofChainIdentity(engine: string, chainId: number): { genesis_hash?: string; installation_id?: string } {
    const home = engine === 'local' ? this.localChainGate.elsewhere() : undefined;
    if (home) {
      // A `local` job of the home's chain: its proof names that chain, as one built at home does.
      const genesis = readLocalChainHome(this.ctx.db)?.genesis;
      return { ...(genesis && genesis.chainId === chainId ? { genesis_hash: genesis.hash } : {}), installation_id: home.installationId };
    }
    return proofChainIdentity(readInstallation(this.dataDir), engine, chainId);
  }

  /** How verification reaches the chains of this data directory's engines. */
  verifyOptions(originalFileHash?: string): VerifyOptions {
    return {
      chainFor: async (engine, chainId) => {
        const config = this.catalog.find(engine);
        if (!config || config.chain_id !== chainId) return undefined;
        return chainReaderFor(await this.ctx.chains.client(engine));
      },
      // An engine not configured here: the proof's chain's default (the finalized tag on a known public chain).
      finality: (engine, chainId) => (this.catalog.find(engine) ? this.catalog.finality(engine) : finalityRuleFor(chainId, {})),
      explorer: (engine) => {
        const config = this.catalog.find(engine);
        return { tx: config?.explorer_tx_url ?? null, address: config?.explorer_address_url ?? null };
      },
      localInstallationId: this.installationId,
      originalFileHash,
      now: () => new Date(this.ctx.clock.now()),
    };
  }

  /** Where the scheduler of this data directory runs (this process, another, or none). */
  schedulerPlace(): SchedulerPlace {
    return this.scheduler.where();
  }

  /** The node issuing for this database: the name (PROOFDESK_NODE_NAME or host name) of the lease holder, if any. */
  leaderNode(): string | undefined {
    return this.ctx.lease.leaderNode();
  }

  async close(): Promise<void> {
    await this.scheduler.stop();
    await this.ctx.signer.close();
    await this.ctx.chains.close();
  }
}
