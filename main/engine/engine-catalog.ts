import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceError } from '../../common/errors.js';
import type { EngineInfo } from '../../common/wire-types.js';
import { KNOWN_CHAIN_FINALITY, finalityRuleFor, type FinalityRule } from './finality.js';

/** An engine's configuration as kept in `engines.json` in the data directory. */
export interface EngineConfig {
  id: string;
  /** JSON-RPC endpoint; absent for `local`, whose node the engine starts itself. */
  rpc_url?: string;
  /** Every JSON-RPC endpoint of the chain, in order of preference: a call one cannot answer goes to the next. rpc_url is then its first. */
  rpc_urls?: string[];
  chain_id: number | null;
  /** The depth that makes a block final (where the `finalized` tag is not used or not served). */
  confirmations: number;
  /**
   * `finalized`: the chain's finalized block tag decides (the default on known public chains);
   * `confirmations`: the depth does (the default elsewhere). See finality.ts.
   */
  finality?: 'finalized' | 'confirmations';
  /** Explorer URL of a transaction, `{tx}` standing for its hash. */
  explorer_tx_url?: string;
  /** Explorer URL of an address (the registry), `{address}` standing for it. */
  explorer_address_url?: string;
  environment: 'live' | 'demo';
  /** The most a transaction may offer per gas, in gwei (default DEFAULT_FEE_CAP_GWEI). */
  fee_cap_gwei?: number;
  /** A transaction not mined after this many blocks is replaced with higher fees (default DEFAULT_REPLACE_AFTER_BLOCKS). */
  replace_after_blocks?: number;
  /** Seconds between blocks: the chain is asked at most once per block while work waits (default: learned from the chain, chain-pace.ts). */
  block_time_s?: number;
}

/** Default fee cap: what an anchoring transaction may offer per gas, in gwei (docs/chain.md). */
export const DEFAULT_FEE_CAP_GWEI = 200;
/** Default patience before a stuck transaction is replaced, in blocks. */
export const DEFAULT_REPLACE_AFTER_BLOCKS = 3;

export const ENGINES_FILE = 'engines.json';

/** The embedded dev chain: always present, a demo environment (nothing issued there is valid). */
export const LOCAL_ENGINE: EngineConfig = { id: 'local', chain_id: 31337, confirmations: 1, environment: 'demo' };

const ENGINE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

function parseEngine(value: unknown, where: string): EngineConfig {
  let e = value as Partial<EngineConfig> | null;
  const bad = (why: string): never => {
    throw new Error(`${where}: ${why}`);
  };
  if (typeof e !== 'object' || e === null) bad('each engine must be an object');
  if (typeof e!.id !== 'string' || !ENGINE_ID.test(e!.id)) bad('id must be lowercase letters, digits, "_" or "-"');
  if (e!.id === LOCAL_ENGINE.id) bad('"local" is built in and cannot be configured');
  if (e!.rpc_urls !== undefined) {
    if (!Array.isArray(e!.rpc_urls) || e!.rpc_urls.length === 0 || !e!.rpc_urls.every((u) => typeof u === 'string' && /^https?:\/\//.test(u))) {
      bad(`engine ${e!.id}: rpc_urls must be a non-empty list of http(s) URLs`);
    }
    // The list is the order of preference; an rpc_url beside it is kept, after the list.
    const urls = [...new Set([...e!.rpc_urls!, ...(typeof e!.rpc_url === 'string' ? [e!.rpc_url] : [])])];
    e = { ...e!, rpc_url: urls[0], rpc_urls: urls };
  }
  if (typeof e!.rpc_url !== 'string' || !/^https?:\/\//.test(e!.rpc_url)) bad(`engine ${e!.id}: rpc_url must be an http(s) URL`);
  if (!Number.isSafeInteger(e!.chain_id) || (e!.chain_id as number) < 1) bad(`engine ${e!.id}: chain_id must be a positive integer`);
  const known = KNOWN_CHAIN_FINALITY[e!.chain_id!];
  // A known public chain has a default depth; any other chain needs one said.
  if (e!.confirmations === undefined && !known) bad(`engine ${e!.id}: confirmations must be given for chain id ${e!.chain_id}`);
  if (e!.confirmations !== undefined && (!Number.isSafeInteger(e!.confirmations) || (e!.confirmations as number) < 1)) bad(`engine ${e!.id}: confirmations must be at least 1`);
  if (e!.finality !== undefined && e!.finality !== 'finalized' && e!.finality !== 'confirmations') bad(`engine ${e!.id}: finality must be "finalized" or "confirmations"`);
  if (e!.environment !== 'live' && e!.environment !== 'demo') bad(`engine ${e!.id}: environment must be "live" or "demo"`);
  if (e!.fee_cap_gwei !== undefined && !(typeof e!.fee_cap_gwei === 'number' && Number.isFinite(e!.fee_cap_gwei) && e!.fee_cap_gwei > 0)) bad(`engine ${e!.id}: fee_cap_gwei must be a positive number`);
  if (e!.replace_after_blocks !== undefined && !(Number.isSafeInteger(e!.replace_after_blocks) && (e!.replace_after_blocks as number) >= 1)) {
    bad(`engine ${e!.id}: replace_after_blocks must be a whole number of at least 1`);
  }
  if (e!.block_time_s !== undefined && !(typeof e!.block_time_s === 'number' && Number.isFinite(e!.block_time_s) && e!.block_time_s >= 0 && e!.block_time_s <= 3600)) {
    bad(`engine ${e!.id}: block_time_s must be a number of seconds from 0 to 3600`);
  }
  return {
    id: e!.id!,
    rpc_url: e!.rpc_url!,
    chain_id: e!.chain_id!,
    confirmations: e!.confirmations ?? known!.confirmations,
    ...(e!.finality !== undefined ? { finality: e!.finality } : {}),
    environment: e!.environment!,
    explorer_tx_url: e!.explorer_tx_url,
    explorer_address_url: e!.explorer_address_url,
    ...(e!.fee_cap_gwei !== undefined ? { fee_cap_gwei: e!.fee_cap_gwei } : {}),
    ...(e!.replace_after_blocks !== undefined ? { replace_after_blocks: e!.replace_after_blocks } : {}),
    ...(e!.block_time_s !== undefined ? { block_time_s: e!.block_time_s } : {}),
    ...(e!.rpc_urls !== undefined ? { rpc_urls: e!.rpc_urls } : {}),
  };
}

/** What GET /engines shows of an engine (its endpoints stay on the server). */
function engineInfo(e: EngineConfig): EngineInfo {
  return { id: e.id, chain_id: e.chain_id, environment: e.environment, confirmations: e.confirmations };
}

/**
 * The blockchain engines a data directory knows: `local`, plus those configured in
 * `engines.json` (an array of EngineConfig). A broken file is an error at start, not later.
 */
export class EngineCatalog {
  private readonly engines: Map<string, EngineConfig>;
  /**
   * Why `local` is not offered here (its chain is another data directory's), or undefined where
   * it is; `claim`: the caller uses the local chain (issuing/local-chain-home.ts).
   */
  private localGate: ((claim: boolean) => string | undefined) | undefined;

  constructor(configured: EngineConfig[] = []) {
    this.engines = new Map([[LOCAL_ENGINE.id, LOCAL_ENGINE], ...configured.map((e) => [e.id, e] as const)]);
  }

  static load(dataDir: string): EngineCatalog {
    const path = join(dataDir, ENGINES_FILE);
    if (!existsSync(path)) return new EngineCatalog();
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed)) throw new Error(`${path} must hold an array of engines`);
    const engines = parsed.map((e, i) => parseEngine(e, `${path} entry ${i + 1}`));
    const ids = new Set<string>();
    for (const e of engines) {
      if (ids.has(e.id)) throw new Error(`${path}: engine ${e.id} is configured twice`);
      ids.add(e.id);
    }
    return new EngineCatalog(engines);
  }

  /**
   * The engine with this id; `wrong_blockchain_engine` (422) for any other, and for `local` once
   * another data directory is its home (asking claims nothing).
   */
  get(id: unknown): EngineConfig {
    return this.resolve(id, false);
  }

  /**
   * The engine whose chain the caller is about to use (to issue on it): as `get`, and the first
   * use of `local` on a shared database makes this data directory its home.
   */
  use(id: string): EngineConfig {
    return this.resolve(id, true);
  }

  private resolve(id: unknown, claim: boolean): EngineConfig {
    const elsewhere = id === LOCAL_ENGINE.id ? this.localGate?.(claim) : undefined;
    if (elsewhere !== undefined) throw new ServiceError('wrong_blockchain_engine', elsewhere);
    const engine = typeof id === 'string' ? this.engines.get(id) : undefined;
    if (!engine) {
      throw new ServiceError('wrong_blockchain_engine', `Unknown blockchain engine ${JSON.stringify(id)}; known engines: ${this.list().map((e) => e.id).join(', ')}`);
    }
    return engine;
  }

  /**
   * The engine a stored record names, for reading what was done on it (a proof file): as `get`,
   * and also `local` where its chain is in another data directory.
   */
  recorded(id: string): EngineConfig {
    return id === LOCAL_ENGINE.id ? LOCAL_ENGINE : this.get(id);
  }

  /**
   * Asks `gate` before offering `local`: on a shared database its chain may be another data
   * directory's (issuing/local-chain-home.ts). Where the gate gives a reason, `local` is neither
   * listed nor found, and `get` and `use` refuse it with that reason.
   */
  gateLocal(gate: (claim: boolean) => string | undefined): void {
    this.localGate = gate;
  }

  // Settings › Engines: an engine added while the app runs; engines.json is written by the caller.
  /** Checks a new engine's configuration; `invalid_value` with the reason. Changes nothing. */
  check(value: unknown): EngineConfig {
    let config: EngineConfig;
    try {
      config = parseEngine(value, 'The new engine');
    } catch (error) {
      throw new ServiceError('invalid_value', `${(error as Error).message}.`);
    }
    if (this.engines.has(config.id)) throw new ServiceError('invalid_value', `There is already an engine named ${config.id}: pick another id.`);
    return config;
  }

  /** Adds a checked engine, usable at once. */
  add(config: EngineConfig): void {
    this.engines.set(config.id, this.check(config));
  }

  /** The engines of engines.json (all but the built-in `local`). */
  configured(): EngineConfig[] {
    return [...this.engines.values()].filter((e) => e.id !== LOCAL_ENGINE.id);
  }

  /** When a block of the engine's chain is final (finality.ts); `wrong_blockchain_engine` for an unknown id. */
  finality(id: string): FinalityRule {
    const engine = this.get(id);
    return finalityRuleFor(engine.chain_id, engine);
  }

  /** The engine with this id, or undefined. */
  find(id: string): EngineConfig | undefined {
    return id === LOCAL_ENGINE.id && this.localGate?.(false) !== undefined ? undefined : this.engines.get(id);
  }

  list(): EngineInfo[] {
    const offered = this.localGate?.(false) === undefined ? [...this.engines.values()] : this.configured();
    return offered.map(engineInfo);
  }

  /** The engine as `list` shows it; refused as `get` refuses it (with the reason, claiming nothing). */
  info(id: string): EngineInfo {
    return engineInfo(this.get(id));
  }
}
