/**
 * Settings › Engines: adds an EVM chain to the data directory's engines.json, in the form the
 * engine reads at start (EngineCatalog.load), and to the running engine's catalog so that it
 * can be used at once. The file is replaced atomically and stays private (0600).
 */
import { join } from 'node:path';
import { ServiceError } from '../../../common/errors.js';
import { ENGINES_FILE, type Engine, type EngineConfig } from '../../engine/index.js';
import { writeFileAtomic } from '../../secrets/encrypted-file-store.js';

/**
 * Checks and adds an engine; `invalid_value` with the reason (and nothing written) when the
 * configuration does not fit or the id is taken.
 *
 * @example await addEngineToDataDir(engine, { id: 'sepolia', rpc_url, chain_id: 11155111, confirmations: 3, environment: 'live' })
 */
export async function addEngineToDataDir(engine: Engine, input: unknown): Promise<EngineConfig> {
  const config = engine.catalog.check(input);
  const all = [...engine.catalog.configured(), config];
  const path = join(engine.dataDir, ENGINES_FILE);
  try {
    await writeFileAtomic(path, `${JSON.stringify(all, null, 2)}\n`);
  } catch {
    throw new ServiceError('try_again_later', `${path} cannot be written; check the disk and the data directory's permissions, then try again.`);
  }
  engine.catalog.add(config);
  return config;
}
