/**
 * Each engine's chain state for the status bar: asks the engine's node for its block number
 * (the local chain starts with the engine anyway), at most every 30 seconds, and pushes an
 * `engine` event when a state changes. A remote service has no chains of ours to ask.
 *
 * On every chain but the local one (which funds itself) it also asks what the active Partner's
 * account can pay for: its balance against one job's cost at today's fees — the registry's issue
 * gas (with the signing headroom) × the max fee a transaction would be signed with now, capped by
 * the engine's fee cap. Fewer than LOW_FUNDS_JOBS jobs paid for: the status bar and Settings
 * warn. While the app runs, the probe repeats every 30 seconds, so funding the account clears
 * the warning by itself.
 */
import { LOW_FUNDS_JOBS, type EngineFunds, type EngineStatus } from '../../common/ipc/app.js';
import type { ChainState } from '../../common/tasks.js';
import type { Address } from '../chain/index.js';
import { formatEtherText } from '../chain/format-units.js';
import type { Engine } from '../engine/index.js';
import { ISSUE_GAS_ALLOWANCE } from '../engine/issuing/job-issuer.js';
import type { AppContext } from './app-context.js';

const PROBE_EVERY_MS = 30_000;
const PROBE_TIMEOUT_MS = 5_000;

export interface ChainProbe {
  /** The last known state of an engine's chain (unknown before the first probe ends). */
  state(engine: string): Pick<EngineStatus, 'chain' | 'detail' | 'block' | 'funds'>;
  /** Probes every engine unless that was done less than 30 s ago; never throws. */
  refresh(): void;
}

type Probed = { chain: ChainState; detail: string | null; block: number | null; funds: EngineFunds | null };

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS).unref())]);
}

/** The active Partner's balance against one job's cost on a chain the engine does not fund itself; null where that does not apply. */
async function fundsOf(engine: Engine, engineId: string, partnerId: string | undefined): Promise<EngineFunds | null> {
  if (!partnerId || engine.issuing.ctx.chains.isLocal(engineId)) return null;
  const address = engine.partners.find(partnerId)?.chain_address;
  if (!address) return null;
  const client = await engine.issuing.ctx.chains.client(engineId);
  const { needed, balance } = await client.estimateCost(address as Address, [{ data: '0x', gas: ISSUE_GAS_ALLOWANCE }], engine.issuing.issuer.feeCap(engineId));
  const jobs = needed === 0n ? Number.MAX_SAFE_INTEGER : Number(balance / needed);
  return { address, balance: formatEtherText(balance), job_cost: formatEtherText(needed), jobs_covered: jobs, low: jobs < LOW_FUNDS_JOBS };
}

/** `everyMs`: how often the chains are asked (30 s; tests ask sooner). */
export function createChainProbe(ctx: AppContext, everyMs = PROBE_EVERY_MS): ChainProbe {
  const states = new Map<string, Probed>();
  let last = 0;
  let timer: NodeJS.Timeout | undefined;

  const probe = async (engineId: string) => {
    const engine = ctx.engine;
    if (!engine) return;
    let next: Probed;
    try {
      const block = await withTimeout(engine.issuing.ctx.chains.client(engineId).then((client) => client.blockNumber()));
      // Fees above the cap or a slow answer leave the last known funds as they were.
      const funds = await withTimeout(fundsOf(engine, engineId, ctx.partner()?.id)).catch(() => states.get(engineId)?.funds ?? null);
      next = { chain: 'connected', detail: `at block ${block}`, block: Number(block), funds };
    } catch (error) {
      next = { chain: 'unreachable', detail: error instanceof Error ? error.message : String(error), block: null, funds: states.get(engineId)?.funds ?? null };
    }
    const before = states.get(engineId);
    states.set(engineId, next);
    if (before?.chain !== next.chain || before?.funds?.low !== next.funds?.low || before?.funds?.jobs_covered !== next.funds?.jobs_covered) {
      ctx.events.emit({ type: 'engine', engine: engineId, chain: next.chain, detail: next.detail });
    }
  };

  const probeAll = () => {
    if (!ctx.engine) return;
    last = Date.now();
    for (const { id } of ctx.engine.catalog.list()) void probe(id);
  };

  return {
    state: (engine) => states.get(engine) ?? { chain: 'unknown', detail: null, block: null, funds: null },
    refresh() {
      if (!ctx.engine) return;
      // From the first look on, the chains are asked again every `everyMs` while the app runs.
      timer ??= setInterval(probeAll, everyMs).unref();
      if (Date.now() - last < everyMs) return;
      probeAll();
    },
  };
}
