import { describe, expect, it } from 'vitest';
import { shortUid } from './short-uid.js';

describe('shortUid', () => {
  it('tells apart jobs opened in the same minute (UUIDv7 uids share their leading time digits)', () => {
    const a = '01a20abc-64eb-7855-b3f5-aa2ea9abd942';
    const b = '01a20abc-64ec-7001-8a11-0c3f5e2b7d10';
    expect(shortUid(a)).not.toBe(shortUid(b));
    expect(shortUid(a)).toBe('a9abd942');
  });
});
