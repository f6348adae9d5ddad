/**
 * Handlers of Settings › Engines: list the engines, add an EVM chain (kept in DATA/engines.json),
 * and test a chain's RPC URL with errors a person can act on.
 */
import { ServiceError } from '../../../common/errors.js';
import type { EngineSettings, EngineTestResult, SETTINGS_ENGINES_IPC } from '../../../common/ipc/settings.js';
import { ChainClient, ChainMismatchError } from '../../chain/index.js';
import type { EngineConfig } from '../../engine/index.js';
import { addEngineToDataDir } from '../../workspace/settings/engines-file.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';

const TEST_TIMEOUT_MS = 5_000;

const toSettings = (e: EngineConfig): EngineSettings => ({ ...e });

export function createSettingsEnginesHandlers(ctx: AppContext): HandlersOf<typeof SETTINGS_ENGINES_IPC> {
  const engine = () => {
    if (!ctx.engine) throw new ServiceError('not_found', 'The engines belong to the remote service this app is connected to.');
    return ctx.engine;
  };
  const list = () => {
    const catalog = engine().catalog;
    return catalog.list().map((info) => toSettings(catalog.get(info.id)));
  };
  return {
    'settings:engines': async () => list(),
    'settings:addEngine': async (input) => {
      await addEngineToDataDir(engine(), input);
      ctx.events.emit({ type: 'engine', engine: input.id, chain: 'unknown', detail: null });
      return list();
    },
    'settings:testEngine': async (rpcUrl, chainId) => testConnection(rpcUrl, chainId),
  };
}

/** Connects to the RPC URL, checks its chain id and reads its block number. */
export async function testConnection(rpcUrl: string, chainId: number): Promise<EngineTestResult> {
  if (!/^https?:\/\//i.test(rpcUrl)) return { ok: false, message: `${rpcUrl} is not an http(s) URL: an RPC URL looks like https://host/path.` };
  try {
    const client = await ChainClient.connect({ rpcUrl, chainId, timeoutMs: TEST_TIMEOUT_MS });
    const block = await client.blockNumber();
    return { ok: true, message: `Connected: chain ${chainId}, at block ${block}.` };
  } catch (error) {
    if (error instanceof ChainMismatchError) {
      return { ok: false, message: `The node at ${rpcUrl} is on chain ${error.actual}, not ${chainId}: correct the chain id, or use the RPC URL of chain ${chainId}.` };
    }
    return { ok: false, message: `Nothing answers at ${rpcUrl}: check the address and your network, and that the node is running.` };
  }
}
