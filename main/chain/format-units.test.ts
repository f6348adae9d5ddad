import { formatEther, formatGwei } from 'viem';
import { describe, expect, it } from 'vitest';
import { formatEtherText, formatGweiText, formatUnits } from './format-units.js';

describe('formatUnits', () => {
  it('writes wei as gwei and ether exactly as viem does', () => {
    for (const wei of [0n, 1n, 999n, 1_000_000_000n, 1_500_000_000n, 81_500_000_000n, 1_205_745_000_000_000n, 10n ** 18n, 123_456_789_012_345_678_901n]) {
      expect(formatGweiText(wei)).toBe(formatGwei(wei));
      expect(formatEtherText(wei)).toBe(formatEther(wei));
    }
    expect(formatUnits(-1_500n, 3)).toBe('-1.5');
  });
});
