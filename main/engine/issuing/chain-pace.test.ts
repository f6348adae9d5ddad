import { describe, expect, it } from 'vitest';
import { ChainPace, UNREACHABLE_AFTER_MS } from './chain-pace.js';

function paced(random = 0.5) {
  const clock = { t: 1_000_000 };
  const pace = new ChainPace(() => 12_000, () => clock.t, () => random);
  return { clock, pace };
}

describe('ChainPace', () => {
  it('allows one look per block time while waiting, and the next at once after progress', () => {
    const { clock, pace } = paced();
    expect(pace.ready('sepolia')).toBe(true);
    pace.waiting('sepolia');
    expect(pace.ready('sepolia')).toBe(false);
    expect(pace.ready('base')).toBe(true);
    clock.t += 11_999;
    expect(pace.ready('sepolia')).toBe(false);
    clock.t += 1;
    expect(pace.ready('sepolia')).toBe(true);
    pace.waiting('sepolia');
    pace.moved('sepolia');
    expect(pace.ready('sepolia')).toBe(true);
  });

  it('backs off exponentially with jitter after errors, up to a minute, and honours Retry-After', () => {
    const waits: number[] = [];
    for (const random of [0, 1]) {
      const { clock, pace } = paced(random);
      const seen: number[] = [];
      for (let i = 0; i < 8; i++) {
        const start = clock.t;
        pace.failed('x');
        while (!pace.ready('x')) clock.t += 1;
        seen.push(clock.t - start);
      }
      waits.push(...seen);
      expect(seen).toEqual(random === 0 ? [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000] : [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    }
    const { clock, pace } = paced(0);
    pace.failed('x', { retryAfterMs: 7_000 });
    clock.t += 6_999;
    expect(pace.ready('x')).toBe(false);
    clock.t += 1;
    expect(pace.ready('x')).toBe(true);
    expect(waits.length).toBe(16);
  });

  it('counts how long an endpoint has been silent, until it answers', () => {
    const { clock, pace } = paced();
    pace.failed('x', { unreachable: true });
    clock.t += UNREACHABLE_AFTER_MS;
    pace.failed('x', { unreachable: true });
    expect(pace.silentFor('x')).toBe(UNREACHABLE_AFTER_MS);
    pace.waiting('x');
    expect(pace.silentFor('x')).toBe(0);
  });
});
