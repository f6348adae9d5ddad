import { describe, expect, it } from 'vitest';
import { ByteGate, chunks, mapOrdered } from './pool.js';

describe('mapOrdered', () => {
  it('yields results in input order with at most `limit` calls under way, reading the input lazily', async () => {
    let active = 0;
    let most = 0;
    let pulled = 0;
    function* input() {
      for (let i = 0; i < 50; i++) {
        pulled++;
        yield i;
      }
    }
    const out: number[] = [];
    for await (const v of mapOrdered(input(), 4, async (i) => {
      active++;
      most = Math.max(most, active);
      // Finishes out of order: after 0 to 4 turns of the event loop.
      for (let turn = 0; turn < (i * 7) % 5; turn++) await new Promise((r) => setImmediate(r));
      active--;
      return i * 2;
    })) {
      out.push(v);
      // Never more than the window ahead of what was taken.
      expect(pulled - out.length).toBeLessThanOrEqual(4);
    }
    expect(out).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
    expect(most).toBe(4);
  });

  it('rejects with the first failure in order, after what came before it', async () => {
    const out: number[] = [];
    await expect(
      (async () => {
        for await (const v of mapOrdered([1, 2, 3, 4], 2, async (i) => {
          if (i === 3) throw new Error('three');
          return i;
        }))
          out.push(v);
      })(),
    ).rejects.toThrow('three');
    expect(out).toEqual([1, 2]);
  });
});

describe('chunks', () => {
  it('splits a stream into arrays of at most the size', async () => {
    const out: number[][] = [];
    for await (const c of chunks(mapOrdered([1, 2, 3, 4, 5], 2, async (i) => i), 2)) out.push(c);
    expect(out).toEqual([[1, 2], [3, 4], [5]]);
  });
});

describe('ByteGate', () => {
  it('lets in what fits, makes the rest wait in order, and lets a size larger than the budget in alone', async () => {
    const gate = new ByteGate(10);
    const entered: string[] = [];
    const enter = (name: string, size: number) => gate.acquire(size).then(() => entered.push(name));
    const a = enter('a', 6);
    const b = enter('b', 6);
    const c = enter('c', 2);
    await a;
    await Promise.resolve();
    // c would fit, but b came first: first come, first served.
    expect(entered).toEqual(['a']);
    gate.release(6);
    await Promise.all([b, c]);
    expect(entered).toEqual(['a', 'b', 'c']);
    expect(gate.used).toBe(8);
    const big = enter('big', 50);
    await Promise.resolve();
    expect(entered).toHaveLength(3);
    gate.release(6);
    gate.release(2);
    await big;
    expect(gate.used).toBe(50);
  });

});

