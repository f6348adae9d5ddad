/**
 * Each engine's chain state for the status bar: asks the engine's node for its block number
 * (the local chain starts with the engine anyway), at most every 30 seconds, and pushes an
 * `engine` event when a state changes. A remote service has no chains of ours to ask.
 */
import type { EngineStatus } from '../../common/ipc/app.js';
import type { ChainState } from '../../common/tasks.js';
import type { AppContext } from './app-context.js';

const PROBE_EVERY_MS = 30_000;
const PROBE_TIMEOUT_MS = 5_000;

export interface ChainProbe {
  /** The last known state of an engine's chain (unknown before the first probe ends). */
  state(engine: string): Pick<EngineStatus, 'chain' | 'detail'>;
  /** Probes every engine unless that was done less than 30 s ago; never throws. */
  refresh(): void;
}

export function createChainProbe(ctx: AppContext): ChainProbe {
  const states = new Map<string, { chain: ChainState; detail: string | null }>();
  let last = 0;

  const probe = async (engineId: string) => {
    const engine = ctx.engine;
    if (!engine) return;
    let next: { chain: ChainState; detail: string | null };
    try {
      const block = await Promise.race([
        engine.issuing.ctx.chains.client(engineId).then((client) => client.blockNumber()),
        new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS).unref()),
      ]);
      next = { chain: 'connected', detail: `at block ${block}` };
    } catch (error) {
      next = { chain: 'unreachable', detail: `The chain of ${engineId} does not answer: ${error instanceof Error ? error.message : String(error)}` };
    }
    const before = states.get(engineId);
    states.set(engineId, next);
    if (before?.chain !== next.chain) ctx.events.emit({ type: 'engine', engine: engineId, chain: next.chain, detail: next.detail });
  };

  return {
    state: (engine) => states.get(engine) ?? { chain: 'unknown', detail: null },
    refresh() {
      if (!ctx.engine || Date.now() - last < PROBE_EVERY_MS) return;
      last = Date.now();
      for (const { id } of ctx.engine.catalog.list()) void probe(id);
    },
  };
}
