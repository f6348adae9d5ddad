import { describe, expect, it } from 'vitest';
import { isUuid } from '../../common/validate.js';
import { uuidV7 } from './uuid-v7.js';

describe('uuidV7', () => {
  it('is a well-formed version 7, variant 1 UUID carrying its timestamp', () => {
    const ms = Date.UTC(2026, 10, 22, 12, 0, 0, 123);
    const uid = uuidV7(ms);
    expect(isUuid(uid)).toBe(true);
    expect(uid[14]).toBe('7');
    expect('89ab').toContain(uid[19]);
    expect(parseInt(uid.replace(/-/g, '').slice(0, 12), 16)).toBe(ms);
  });

  it('sorts by time and never repeats', () => {
    const uids = Array.from({ length: 10_000 }, (_, i) => uuidV7(1_700_000_000_000 + Math.floor(i / 100)));
    expect(new Set(uids).size).toBe(uids.length);
    const firstOfEachMs = uids.filter((_, i) => i % 100 === 0);
    expect([...firstOfEachMs].sort()).toEqual(firstOfEachMs);
  });
});
