import { describe, expect, it } from 'vitest';
import { ChainPace, STALLED_AFTER_MS, UNREACHABLE_AFTER_MS } from './chain-pace.js';

/** A pace on a fake clock; `configuredMs` null: no block_time_s, the block time is learned. */
function paced(random = 0.5, configuredMs: number | null = 12_000) {
  const clock = { t: 1_000_000 };
  const pace = new ChainPace(() => configuredMs ?? undefined, () => clock.t, () => random);
  return { clock, pace };
}

/** A head `n` blocks on, `blockS` seconds apart. */
const head = (n: number, blockS = 2) => ({ number: BigInt(n), timestamp: 1_700_000_000_000 + n * blockS * 1000, baseFeePerGas: null });

describe('ChainPace', () => {
  it('counts how long the chain has shown the same head, from the look that first saw it', () => {
    const { clock, pace } = paced();
    expect(pace.stalledFor('sepolia')).toBe(0);
    pace.sawHead('sepolia', head(100));
    clock.t += STALLED_AFTER_MS;
    pace.sawHead('sepolia', head(100));
    expect(pace.stalledFor('sepolia')).toBe(STALLED_AFTER_MS);
    pace.sawHead('sepolia', head(101));
    expect(pace.stalledFor('sepolia')).toBe(0);
    clock.t += 5_000;
    expect(pace.stalledFor('sepolia')).toBe(5_000);
  });

  it('asks the head once per configured block time, and says whether it is a block not seen before', () => {
    const { clock, pace } = paced();
    expect(pace.headDue('sepolia')).toBe(true);
    expect(pace.sawHead('sepolia', head(100))).toBe(true);
    expect(pace.headDue('sepolia')).toBe(false);
    expect(pace.headDue('base')).toBe(true);
    clock.t += 11_999;
    expect(pace.headDue('sepolia')).toBe(false);
    clock.t += 1;
    expect(pace.headDue('sepolia')).toBe(true);
    expect(pace.sawHead('sepolia', head(100))).toBe(false);
    expect(pace.sawHead('sepolia', head(101))).toBe(true);
    expect(pace.lastHead('sepolia')?.number).toBe(101n);
    // Configured, it is not learned: the chain's 2 s blocks do not change it.
    expect(pace.blockMs('sepolia')).toBe(12_000);
    expect(pace.wantsSample('sepolia')).toBe(false);
  });

  it('learns the block time from the timestamps of the heads (at once from an earlier block), within 250 ms and 12 s, and notices a head that went back', () => {
    const { clock, pace } = paced(0.5, null);
    expect(pace.blockMs('base')).toBe(250);
    expect(pace.wantsSample('base')).toBe(true);
    pace.sawHead('base', head(110), { number: 100n, timestamp: head(100).timestamp });
    expect(pace.blockMs('base')).toBe(2_000);
    expect(pace.wantsSample('base')).toBe(false);
    clock.t += 1_999;
    expect(pace.headDue('base')).toBe(false);
    clock.t += 1;
    expect(pace.headDue('base')).toBe(true);

    // Without a sample, from the heads as they come; a dev chain's blocks in one second count as 250 ms.
    pace.sawHead('dev', head(5, 0));
    expect(pace.blockMs('dev')).toBe(250);
    pace.sawHead('dev', head(6, 0));
    expect(pace.blockMs('dev')).toBe(250);
    pace.sawHead('slow', head(1, 60));
    pace.sawHead('slow', head(2, 60));
    expect(pace.blockMs('slow')).toBe(12_000);
    // A chain that went back (reset) starts its span over, keeping the block time learned so far.
    expect(pace.takeReorg('slow')).toBe(false);
    pace.sawHead('slow', head(1, 3));
    expect(pace.blockMs('slow')).toBe(12_000);
    // A head that went back is a reorganisation: the finished jobs are all re-checked, once.
    expect(pace.takeReorg('slow')).toBe(true);
    expect(pace.takeReorg('slow')).toBe(false);
    pace.sawHead('slow', { number: 2n, timestamp: head(1, 3).timestamp + 3_000, baseFeePerGas: null });
    expect(pace.blockMs('slow')).toBe(3_000);
  });

  it('block_time_s 0: no limit between looks; errors still back off', () => {
    const { pace } = paced(0.5, 0);
    pace.sawHead('dev', head(1));
    expect(pace.headDue('dev')).toBe(true);
    pace.failed('dev');
    expect(pace.headDue('dev')).toBe(false);
    expect(pace.ready('dev')).toBe(false);
    pace.answered('dev');
    expect(pace.headDue('dev')).toBe(true);
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
    pace.sawHead('x', head(1));
    expect(pace.silentFor('x')).toBe(0);
    expect(pace.ready('x')).toBe(true);
  });
});
