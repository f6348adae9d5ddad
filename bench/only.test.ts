import { describe, expect, it } from 'vitest';
import { onlyPattern } from './only.js';

describe('--only', () => {
  it('takes a case-insensitive pattern in either form', () => {
    expect(onlyPattern(['--only', 'API'])?.test('api')).toBe(true);
    expect(onlyPattern(['--only=engine|ingest'])?.test('ingest')).toBe(true);
    expect(onlyPattern([])).toBeUndefined();
  });

  it('refuses a missing pattern with a sentence saying how to give one', () => {
    expect(() => onlyPattern(['--only'])).toThrow(/--only needs a pattern/);
  });
});
