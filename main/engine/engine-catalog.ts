import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceError } from '../../common/errors.js';
import type { EngineInfo } from '../../common/wire-types.js';

/** An engine's configuration as kept in `engines.json` in the data directory. */
export interface EngineConfig {
  id: string;
  /** JSON-RPC endpoint; absent for `local`, whose node the engine starts itself. */
  rpc_url?: string;
  chain_id: number | null;
  confirmations: number;
  /** Explorer URL of a transaction, `{tx}` standing for its hash. */
  explorer_tx_url?: string;
  /** Explorer URL of an address (the registry), `{address}` standing for it. */
  explorer_address_url?: string;
  environment: 'live' | 'demo';
}

export const ENGINES_FILE = 'engines.json';

/** The embedded dev chain: always present, a demo environment (nothing issued there is valid). */
export const LOCAL_ENGINE: EngineConfig = { id: 'local', chain_id: 31337, confirmations: 1, environment: 'demo' };

const ENGINE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

function parseEngine(value: unknown, where: string): EngineConfig {
  const e = value as Partial<EngineConfig> | null;
  const bad = (why: string): never => {
    throw new Error(`${where}: ${why}`);
  };
  if (typeof e !== 'object' || e === null) bad('each engine must be an object');
  if (typeof e!.id !== 'string' || !ENGINE_ID.test(e!.id)) bad('id must be lowercase letters, digits, "_" or "-"');
  if (e!.id === LOCAL_ENGINE.id) bad('"local" is built in and cannot be configured');
  if (typeof e!.rpc_url !== 'string' || !/^https?:\/\//.test(e!.rpc_url)) bad(`engine ${e!.id}: rpc_url must be an http(s) URL`);
  if (!Number.isSafeInteger(e!.chain_id) || (e!.chain_id as number) < 1) bad(`engine ${e!.id}: chain_id must be a positive integer`);
  if (!Number.isSafeInteger(e!.confirmations) || (e!.confirmations as number) < 1) bad(`engine ${e!.id}: confirmations must be at least 1`);
  if (e!.environment !== 'live' && e!.environment !== 'demo') bad(`engine ${e!.id}: environment must be "live" or "demo"`);
  return {
    id: e!.id!,
    rpc_url: e!.rpc_url!,
    chain_id: e!.chain_id!,
    confirmations: e!.confirmations!,
    environment: e!.environment!,
    explorer_tx_url: e!.explorer_tx_url,
    explorer_address_url: e!.explorer_address_url,
  };
}

/**
 * The blockchain engines a data directory knows: `local`, plus those configured in
 * `engines.json` (an array of EngineConfig). A broken file is an error at start, not later.
 */
export class EngineCatalog {
  private readonly engines: Map<string, EngineConfig>;

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

  /** The engine with this id; `wrong_blockchain_engine` (422) for any other. */
  get(id: unknown): EngineConfig {
    const engine = typeof id === 'string' ? this.engines.get(id) : undefined;
    if (!engine) {
      throw new ServiceError('wrong_blockchain_engine', `Unknown blockchain engine ${JSON.stringify(id)}; known engines: ${[...this.engines.keys()].join(', ')}`);
    }
    return engine;
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

  /** The engine with this id, or undefined. */
  find(id: string): EngineConfig | undefined {
    return this.engines.get(id);
  }

  list(): EngineInfo[] {
    return [...this.engines.values()].map((e) => ({ id: e.id, chain_id: e.chain_id, environment: e.environment, confirmations: e.confirmations }));
  }
}
