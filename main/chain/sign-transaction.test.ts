import { parseGwei } from 'viem';
import { describe, expect, it } from 'vitest';
import { FeeAboveCapError } from './errors.js';
import { chooseFees } from './sign-transaction.js';

const gwei = (n: number) => parseGwei(String(n));
const market = (base: number, tip: number) => ({ type: 'eip1559' as const, baseFeePerGas: gwei(base), maxPriorityFeePerGas: gwei(tip), maxFeePerGas: gwei(2 * base + tip) });

describe('chooseFees', () => {
  it('offers twice the base fee plus the tip when nothing is replaced', () => {
    expect(chooseFees(market(10, 1), undefined, gwei(100))).toEqual({ type: 'eip1559', maxFeePerGas: gwei(21), maxPriorityFeePerGas: gwei(1) });
  });

  it('raises both fees of a replacement by at least 10 %, rounding up, even when the market is lower', () => {
    const replaces = { type: 'eip1559' as const, maxFeePerGas: gwei(30) + 1n, maxPriorityFeePerGas: gwei(2) + 1n };
    const fees = chooseFees(market(5, 1), replaces, gwei(100));
    expect(fees).toEqual({ type: 'eip1559', maxFeePerGas: gwei(33) + 2n, maxPriorityFeePerGas: gwei(2.2) + 2n });
  });

  it('takes the market when it asks more than the bump', () => {
    const replaces = { type: 'eip1559' as const, maxFeePerGas: gwei(3), maxPriorityFeePerGas: gwei(1) };
    expect(chooseFees(market(20, 1), replaces, gwei(100))).toEqual({ type: 'eip1559', maxFeePerGas: gwei(41.1), maxPriorityFeePerGas: gwei(1.1) });
  });

  it('clamps to the cap while the cap still buys a place in a block, and refuses above it', () => {
    expect(chooseFees(market(30, 1), undefined, gwei(50))).toEqual({ type: 'eip1559', maxFeePerGas: gwei(50), maxPriorityFeePerGas: gwei(1) });
    const error = (() => {
      try {
        return chooseFees(market(80, 1), undefined, gwei(50));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(FeeAboveCapError);
    expect((error as FeeAboveCapError).shortMessage).toBe('waiting for fees below 50 gwei (now 81)');
    // A replacement the cap cannot pay 10 % more for is refused too.
    expect(() => chooseFees(market(1, 1), { type: 'eip1559', maxFeePerGas: gwei(48), maxPriorityFeePerGas: gwei(1) }, gwei(50))).toThrow(FeeAboveCapError);
  });

  it('prices legacy transactions by gas price, bumped and capped the same way', () => {
    const legacy = { type: 'legacy' as const, gasPrice: gwei(12), baseFeePerGas: null };
    expect(chooseFees(legacy, undefined, gwei(100))).toEqual({ type: 'legacy', gasPrice: gwei(12) });
    expect(chooseFees(legacy, { type: 'legacy', gasPrice: gwei(20) }, gwei(100))).toEqual({ type: 'legacy', gasPrice: gwei(22) });
    expect(() => chooseFees(legacy, { type: 'legacy', gasPrice: gwei(20) }, gwei(21))).toThrow(FeeAboveCapError);
  });
});
