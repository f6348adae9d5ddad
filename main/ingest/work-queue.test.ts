import { describe, expect, it } from 'vitest';
import { mapLimit } from './work-queue.js';

describe('mapLimit (the ingester and staging share it)', () => {
  it('keeps the order of the items whatever order the work ends in, with at most `limit` at work', async () => {
    let active = 0;
    let most = 0;
    const results = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (n) => {
      active++;
      most = Math.max(most, active);
      for (let i = 0; i < n; i++) await Promise.resolve();
      active--;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(2);
  });

  it('does nothing for no items', async () => {
    expect(await mapLimit([], 16, () => Promise.reject(new Error('never called')))).toEqual([]);
  });
});
