/**
 * How `verify` reaches a proof's chain, without an Engine and without side effects on the data
 * directory: it never creates one, never starts the local chain in it, and never owns that chain.
 *
 * - `--rpc URL`: that endpoint, for any engine; the proof's genesis hash (when it has one) must match.
 * - The `local` engine: the installation named in the data directory's installation.json must be
 *   the proof's (else `pending`: that chain is on the issuer's machine). The chain is read from the
 *   anvil another process already runs there, or else from a private, throw-away anvil over a COPY
 *   of the directory's chain state in a temporary directory: many `verify` processes can run at
 *   once, and none of them can take the chain away from another.
 * - Any other engine: its rpc_url in the data directory's engines.json.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnvilNode, StartAnvilParameters } from '../../chain/index.js';
import { ChainError, ChainUnreachableError } from '../../chain/errors.js';
import { EngineCatalog } from '../engine-catalog.js';
import { finalityRuleFor } from '../finality.js';
import { LOCAL_CHAIN_ELSEWHERE, readInstallation } from './chain-identity.js';
import { chainReaderFor } from './verify-chain-reader.js';
import type { ChainReader, ChainUnavailable, VerifyOptions } from './verify-proof.js';

export interface VerifyChainsOptions {
  /** The data directory to read (it may not exist: then there is no local chain and no engines.json). */
  dataDir: string;
  /** A JSON-RPC endpoint to ask instead, whatever the proof's engine. */
  rpcUrl?: string;
  /** Ask no chain at all. */
  offline?: boolean;
  /** Fetch the status lists Verifiable Credentials name (their credentialStatus). */
  network?: boolean;
}

type Found = ChainReader | ChainUnavailable;

/** The chains of one `verify` run, connected on first use (once per engine and chain id) and closed at the end. */
export class VerifyChains {
  private readonly found = new Map<string, Promise<Found>>();
  private readonly nodes: AnvilNode[] = [];
  private readonly temps: string[] = [];
  private readonly catalog: EngineCatalog;
  private readonly installationId: string | null;

  constructor(private readonly options: VerifyChainsOptions) {
    const exists = existsSync(options.dataDir);
    this.catalog = exists ? EngineCatalog.load(options.dataDir) : new EngineCatalog();
    this.installationId = exists ? (readInstallation(options.dataDir)?.installation_id ?? null) : null;
  }

  /** Verify options for verifyProof (the file hash and clock are the caller's). */
  verifyOptions(originalFileHash?: string): VerifyOptions {
    return {
      chainFor: (engine, chainId) => this.chainFor(engine, chainId),
      // With --rpc the endpoint is the user's choice: the genesis hash decides, not the installation.
      localInstallationId: this.options.rpcUrl === undefined && !this.options.offline ? this.installationId : undefined,
      // An engine not configured here: the proof's chain's default (the finalized tag on a known public chain).
      finality: (engine, chainId) => (this.catalog.find(engine) ? this.catalog.finality(engine) : finalityRuleFor(chainId, {})),
      explorer: (engine) => {
        const config = this.catalog.find(engine);
        return { tx: config?.explorer_tx_url ?? null, address: config?.explorer_address_url ?? null };
      },
      originalFileHash,
      network: this.options.network === true,
    };
  }

  private chainFor(engine: string, chainId: number): Promise<Found> {
    const key = `${engine}:${chainId}`;
    let found = this.found.get(key);
    if (!found) {
      found = this.open(engine, chainId);
      this.found.set(key, found);
    }
    return found;
  }

  private async open(engine: string, chainId: number): Promise<Found> {
    if (this.options.offline) return { reason: 'not checked: --offline' };
    if (this.options.rpcUrl !== undefined) return this.connect(this.options.rpcUrl, chainId);
    if (engine === 'local') return this.local(chainId);
    const config = this.catalog.find(engine);
    if (!config?.rpc_url || config.chain_id !== chainId) {
      return { reason: `no endpoint for engine "${engine}" (chain id ${chainId}) is configured in ${this.options.dataDir}: give one with --rpc URL` };
    }
    return this.connect(config.rpc_url, chainId);
  }

  private async connect(rpcUrl: string, chainId: number): Promise<Found> {
    try {
      const { ChainClient } = await import('../../chain/index.js');
      return chainReaderFor(await ChainClient.connect({ rpcUrl, chainId }));
    } catch (error) {
      if (error instanceof ChainError) return { reason: error.shortMessage };
      throw error;
    }
  }

  private async local(chainId: number): Promise<Found> {
    const { findRunningAnvil, startAnvil } = await import('../../chain/index.js');
    const stateDir = join(this.options.dataDir, 'chain', 'local');
    const running = findRunningAnvil(stateDir);
    if (running) {
      // Another process's chain can go away while we read it (its `issue` ends): then read the
      // state it saved instead, rather than answer pending for a chain that is right here.
      const copy = () => this.privateCopy(stateDir, chainId, startAnvil);
      const found = await this.connect(running.rpcUrl, chainId);
      return 'reason' in found ? copy() : this.withFallback(found, copy);
    }
    return this.privateCopy(stateDir, chainId, startAnvil);
  }

  /** A reader that, when `first` stops answering, goes on with the one `fallback` gives (once). */
  private withFallback(first: ChainReader, fallback: () => Promise<Found>): ChainReader {
    let current = first;
    let switched: Promise<Found> | undefined;
    const call = async <T>(read: (reader: ChainReader) => Promise<T>): Promise<T> => {
      try {
        return await read(current);
      } catch (error) {
        if (!(error instanceof ChainUnreachableError)) throw error;
        const next = await (switched ??= fallback());
        if ('reason' in next) throw error;
        current = next;
        return read(current);
      }
    };
    return {
      chainId: first.chainId,
      readRegistry: (address) => call((r) => r.readRegistry(address)),
      issuedAt: (address, root) => call((r) => r.issuedAt(address, root)),
      revokedAt: (address, hash) => call((r) => r.revokedAt(address, hash)),
      getReceipt: (hash) => call((r) => r.getReceipt(hash)),
      confirmations: (hash) => call((r) => r.confirmations(hash)),
      blockTimestamp: (blockNumber) => call((r) => r.blockTimestamp(blockNumber)),
      getTransaction: (hash) => call((r) => r.getTransaction(hash)),
      transactionCount: (address) => call((r) => r.transactionCount!(address)),
      finalizedBlockNumber: () => call((r) => (r.finalizedBlockNumber ? r.finalizedBlockNumber() : Promise.resolve(null))),
      genesisHash: () => call((r) => r.genesisHash!()),
    };
  }

  /** A private anvil over a copy of the saved chain state (a read-only view nobody else uses). */
  private async privateCopy(stateDir: string, chainId: number, startAnvil: (params: StartAnvilParameters) => Promise<AnvilNode>): Promise<Found> {
    const files = ['state.json', 'state.snapshot.json'].filter((name) => existsSync(join(stateDir, name)));
    if (files.length === 0) return { reason: LOCAL_CHAIN_ELSEWHERE };
    // A read-only view: the chain as its owner last saved it, in a directory only this process uses.
    const temp = mkdtempSync(join(tmpdir(), 'proofdesk-verify-chain-'));
    this.temps.push(temp);
    for (const name of files) copyFileSync(join(stateDir, name), join(temp, name));
    try {
      const node = await startAnvil({ stateDir: temp, chainId, snapshotIntervalMs: 3_600_000 });
      this.nodes.push(node);
      return this.connect(node.rpcUrl, chainId);
    } catch (error) {
      if (error instanceof ChainError) return { reason: `the local chain in ${stateDir} could not be read: ${error.shortMessage}` };
      throw error;
    }
  }

  /** Stops the throw-away chains and deletes their copies. */
  async close(): Promise<void> {
    await Promise.all(this.nodes.splice(0).map((node) => node.stop()));
    for (const temp of this.temps.splice(0)) rmSync(temp, { recursive: true, force: true });
  }
}
