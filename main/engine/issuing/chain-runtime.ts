import { join } from 'node:path';
import { ChainClient, ChainUnreachableError, findRunningAnvil, persistAnvilState, startAnvil, type AnvilNode } from '../../chain/index.js';
import { diskFullError, isDiskFull } from '../disk-full.js';
import type { EngineCatalog, EngineConfig } from '../engine-catalog.js';
import type { FinalityRule } from '../finality.js';
import { recordGenesis } from '../proofs/chain-identity.js';

export interface ChainRuntimeOptions {
  /** Seconds between blocks on the local chain; default: a block per transaction. */
  localBlockTime?: number;
}

/** What the runtime asks of the engine around a connection (set by the issuing runtime). */
export interface ChainRuntimeHooks {
  /**
   * Runs on every fresh connection (at start, and when a chain answers again after it was lost):
   * reconciles what the engine recorded with what the chain holds. The client is handed out
   * only after it settles; a ChainUnreachableError from it fails the connection (tried again later).
   */
  onConnect?: (engineId: string, client: ChainClient) => Promise<void>;
  /** Unix time (s) for a new local chain's genesis: before every block time the engine recorded there. */
  localGenesisTimestamp?: () => number | undefined;
}

/**
 * The chains of one data directory's engines: a ChainClient per engine, connected on first
 * use. The local engine's anvil is started on first use, with its state in
 * `<dataDir>/chain/local`, and stopped with the runtime; when another process (the desktop app,
 * a server) already runs it for this data directory, that one is used.
 */
export class ChainRuntime {
  private readonly clients = new Map<string, Promise<ChainClient>>();
  private anvil: AnvilNode | undefined;
  /** False once the local chain was stopped on purpose: it is not started again behind the caller's back. */
  private localWanted = true;

  constructor(
    private readonly dataDir: string,
    private readonly catalog: EngineCatalog,
    private readonly options: ChainRuntimeOptions = {},
    private readonly hooks: ChainRuntimeHooks = {},
  ) {}

  /** The engine's configuration (wrong_blockchain_engine for an unknown id). */
  config(engineId: string): EngineConfig {
    return this.catalog.get(engineId);
  }

  /**
   * A connected client for the engine; ChainUnreachableError when its node does not answer. On a
   * shared database the first client for `local` makes this data directory its home (local-chain-home.ts).
   */
  client(engineId: string): Promise<ChainClient> {
    let client = this.clients.get(engineId);
    if (!client) {
      client = this.connect(this.catalog.use(engineId));
      // A failed connection is not remembered: the node may be up on the next try.
      client.catch(() => this.clients.delete(engineId));
      this.clients.set(engineId, client);
    }
    return client;
  }

  private async connect(engine: EngineConfig): Promise<ChainClient> {
    const rpcUrl = engine.rpc_url ?? (await this.localRpcUrl());
    const client = await ChainClient.connect({ rpcUrl, rpcUrls: engine.rpc_urls, chainId: engine.chain_id ?? 0 });
    // Proofs name their chain by its genesis block too (chain-identity.ts): note it on first connect.
    try {
      recordGenesis(this.dataDir, engine.id, client.chainId, await client.genesisHash());
    } catch {
      // Best effort: a proof without the genesis hash is still a valid proof.
    }
    await this.hooks.onConnect?.(engine.id, client);
    return client;
  }

  /**
   * Forgets the engine's connection, so the next use connects afresh and reconciles: called when
   * the chain stopped answering or no longer holds what was recorded.
   */
  forget(engineId: string): void {
    this.clients.delete(engineId);
  }

  /** When a block of the engine's chain is final. */
  finality(engineId: string): FinalityRule {
    return this.catalog.finality(engineId);
  }

  /**
   * Whether this node has the engine: nodes sharing a database may configure different ones, and
   * once `local` has a home only that data directory has it (local-chain-home.ts; asking claims nothing).
   */
  knows(engineId: string): boolean {
    return this.catalog.find(engineId) !== undefined;
  }

  /** Whether the engine runs on the local dev chain of this data directory. */
  isLocal(engineId: string): boolean {
    return this.catalog.get(engineId).rpc_url === undefined || this.catalog.get(engineId).rpc_url === null;
  }

  /**
   * Resolves once the chain state holding every transaction mined so far is on disk. On the local
   * chain that is a synchronous dump (anvil_dumpState, fsync, rename); another chain keeps its own
   * state, so there is nothing to wait for.
   */
  async persist(engineId: string, connected?: ChainClient): Promise<void> {
    if (!this.isLocal(engineId)) return;
    const client = connected ?? (await this.client(engineId));
    await persistAnvilState(client.rpcUrl, this.localStateDir()).catch((error: unknown) => {
      // Not on disk means not mined yet, for the engine: it asks again on its next round.
      if (isDiskFull(error)) throw diskFullError(this.localStateDir(), undefined, error);
      throw new ChainUnreachableError(client.rpcUrl, { details: `the local chain's state could not be saved: ${(error as Error).message}`, cause: error });
    });
  }

  private localStateDir(): string {
    return join(this.dataDir, 'chain', 'local');
  }

  private async localRpcUrl(): Promise<string> {
    if (!this.localWanted) throw new ChainUnreachableError('local chain (stopped)');
    const running = findRunningAnvil(this.localStateDir());
    if (running) return running.rpcUrl;
    this.anvil = await startAnvil({ stateDir: this.localStateDir(), blockTime: this.options.localBlockTime, genesisTimestamp: this.hooks.localGenesisTimestamp?.() });
    // anvil dying under us (killed, crashed) must not leave a client pointing at nothing.
    void this.anvil.exited.then(() => {
      this.anvil = undefined;
      this.clients.delete('local');
    });
    return this.anvil.rpcUrl;
  }

  /** Stops the local chain if this runtime started it (tests use this to take the chain away). */
  async stopLocalChain(): Promise<void> {
    this.localWanted = false;
    const anvil = this.anvil;
    this.anvil = undefined;
    this.clients.delete('local');
    await anvil?.stop();
  }

  /** Lets the local chain start again on next use, after stopLocalChain. */
  allowLocalChain(): void {
    this.localWanted = true;
  }

  async close(): Promise<void> {
    // No new start from here on. A local chain already starting (an early readyToIssue's, the
    // scheduler's) would outlive the process if stopped before it is up: let it come up, then stop it.
    this.localWanted = false;
    await this.clients.get('local')?.catch(() => undefined);
    await this.stopLocalChain();
    this.clients.clear();
  }
}
