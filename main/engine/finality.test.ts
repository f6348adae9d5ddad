import { describe, expect, it } from 'vitest';
import { EngineCatalog } from './engine-catalog.js';
import { finalityOf, finalityRuleFor } from './finality.js';

const engine = (over: Record<string, unknown>) => ({ id: 'e', rpc_url: 'http://127.0.0.1:8545', environment: 'live', ...over });

describe('the finality rule of an engine', () => {
  it('known public chains default to the finalized tag with their depth as fallback; others to the configured depth', () => {
    expect(finalityRuleFor(1, {})).toEqual({ finalizedTag: true, confirmations: 64 });
    expect(finalityRuleFor(137, {})).toEqual({ finalizedTag: true, confirmations: 128 });
    expect(finalityRuleFor(8453, { confirmations: 10 })).toEqual({ finalizedTag: true, confirmations: 10 });
    expect(finalityRuleFor(11155111, { finality: 'confirmations', confirmations: 3 })).toEqual({ finalizedTag: false, confirmations: 3 });
    expect(finalityRuleFor(31338, { confirmations: 2 })).toEqual({ finalizedTag: false, confirmations: 2 });
    expect(finalityRuleFor(31338, { finality: 'finalized', confirmations: 2 })).toEqual({ finalizedTag: true, confirmations: 2 });
  });

  it('engines.json may leave confirmations out for a known chain only, and names a bad finality', () => {
    const catalog = new EngineCatalog();
    expect(catalog.check(engine({ chain_id: 42161 })).confirmations).toBe(4800);
    expect(() => catalog.check(engine({ chain_id: 31338 }))).toThrow(/confirmations must be given for chain id 31338/);
    expect(() => catalog.check(engine({ chain_id: 1, finality: 'safe' }))).toThrow(/finality must be "finalized" or "confirmations"/);
    expect(() => catalog.check(engine({ chain_id: 1, confirmations: 0 }))).toThrow(/confirmations must be at least 1/);
  });

  it('a block is final by the tag where the node serves it, else by depth', async () => {
    const reader = (head: bigint, finalized: bigint | null) => ({ blockNumber: async () => head, finalizedBlockNumber: async () => finalized });
    expect(await finalityOf(reader(110n, 100n), { finalizedTag: true, confirmations: 3 }, 100n)).toEqual({ final: true, confirmations: 11, required: null });
    expect(await finalityOf(reader(110n, 99n), { finalizedTag: true, confirmations: 3 }, 100n)).toEqual({ final: false, confirmations: 11, required: null });
    expect(await finalityOf(reader(102n, null), { finalizedTag: true, confirmations: 3 }, 100n)).toEqual({ final: true, confirmations: 3, required: 3 });
    expect(await finalityOf(reader(101n, 200n), { finalizedTag: false, confirmations: 3 }, 100n)).toEqual({ final: false, confirmations: 2, required: 3 });
  });
});
