/**
 * Which chain a proof was anchored on, beyond its chain id. Two local development chains share
 * chain id 31337 and nothing else: a verifier on another machine that asked its own local chain
 * would find nothing and call a genuine proof `failed`. So a proof names
 *
 * - `chain.genesis_hash`: the hash of block 0 of the chain it was anchored on (any engine), and
 * - `chain.installation_id`: for the `local` engine, the issuing installation, a random id kept in
 *   the data directory's `installation.json` (made once, never changed; it travels with a copied
 *   data directory, which carries the local chain with it).
 *
 * `installation.json` also records each engine's genesis hash as seen when the engine first
 * connected to its chain, so that proofs can be written without asking the chain.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const INSTALLATION_FILE = 'installation.json';

/** The text of the reason a local-chain proof gets on a machine that is not the issuer's. */
export const LOCAL_CHAIN_ELSEWHERE =
  "this proof was anchored on the issuer's local development chain, which this machine does not have; verify it where it was issued, or with --rpc URL of that chain";

export interface InstallationRecord {
  installation_id: string;
  /** Genesis block hash (0x hex) per engine id, with the chain id it was read for. */
  chains: Record<string, { chain_id: number; genesis_hash: string }>;
  /**
   * The local chain's genesis time (seconds), fixed when it is first made: a local chain rebuilt
   * after a loss starts from the same genesis block, so proofs that name its hash stay valid.
   */
  local_genesis_timestamp?: number;
}

const GENESIS = /^0x[0-9a-fA-F]{64}$/;

/** The installation record of a data directory, or undefined when it has none (never creates one). */
export function readInstallation(dataDir: string): InstallationRecord | undefined {
  const path = join(dataDir, INSTALLATION_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<InstallationRecord>;
    if (typeof value.installation_id !== 'string' || value.installation_id.length === 0) return undefined;
    const chains = typeof value.chains === 'object' && value.chains !== null ? value.chains : {};
    const record: InstallationRecord = { installation_id: value.installation_id, chains };
    if (Number.isSafeInteger(value.local_genesis_timestamp)) record.local_genesis_timestamp = value.local_genesis_timestamp!;
    return record;
  } catch {
    return undefined;
  }
}

function write(dataDir: string, record: InstallationRecord): void {
  const path = join(dataDir, INSTALLATION_FILE);
  // Atomic: a reader never sees half a file (the id must never change once proofs carry it).
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

/** The data directory's installation record, made (with a new random id) when it has none. */
export function ensureInstallation(dataDir: string): InstallationRecord {
  const existing = readInstallation(dataDir);
  if (existing) return existing;
  const record: InstallationRecord = { installation_id: randomUUID(), chains: {} };
  write(dataDir, record);
  return readInstallation(dataDir) ?? record;
}

/** Records the genesis hash of an engine's chain (when it is new or changed: a reset local chain). */
export function recordGenesis(dataDir: string, engine: string, chainId: number, genesisHash: string): void {
  if (!GENESIS.test(genesisHash)) return;
  const record = ensureInstallation(dataDir);
  const known = record.chains[engine];
  if (known && known.chain_id === chainId && known.genesis_hash.toLowerCase() === genesisHash.toLowerCase()) return;
  write(dataDir, { ...record, chains: { ...record.chains, [engine]: { chain_id: chainId, genesis_hash: genesisHash.toLowerCase() } } });
}

/**
 * The genesis time for a new (or rebuilt) local chain. Recorded once, before the first local chain
 * is made, and reused for every rebuild, so the genesis block (and its hash in the proofs) is the same.
 * A data directory from before this record existed has none for its existing chain: a rebuild then
 * starts just before the first block the engine recorded (`fallback`), as close as can be had.
 */
export function localGenesisTimestamp(dataDir: string, fallback: number | undefined, nowSeconds: number): number {
  const record = ensureInstallation(dataDir);
  if (record.local_genesis_timestamp !== undefined) return record.local_genesis_timestamp;
  if (fallback !== undefined) return fallback;
  write(dataDir, { ...record, local_genesis_timestamp: nowSeconds });
  return nowSeconds;
}

/** What a proof of `engine` says about its chain beyond the chain id (the fields it can fill). */
export function proofChainIdentity(record: InstallationRecord | undefined, engine: string, chainId: number): { genesis_hash?: string; installation_id?: string } {
  const identity: { genesis_hash?: string; installation_id?: string } = {};
  const chain = record?.chains[engine];
  if (chain && chain.chain_id === chainId) identity.genesis_hash = chain.genesis_hash;
  if (engine === 'local' && record) identity.installation_id = record.installation_id;
  return identity;
}
