import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from './errors.js';
import { formatDuration, parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['30s', 30],
    ['5m', 300],
    ['24h', 86_400],
    ['7d', 604_800],
    ['45', 45],
    ['1', 1],
    ['5M', 300],
    ['2H', 7200],
    [' 5 m ', 300],
    ['90m', 5400],
  ])('%j is %d seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', '0', '0s', '0d', '-5m', '1.5h', '5 minutes', '5w', 'm', 'h5', '5m30s', '99999999999999999d', 'ten'])('%j is invalid_value', (text) => {
    try {
      parseDuration(text);
    } catch (error) {
      const e = error as { id: string; status: number; message: string };
      expect({ id: e.id, status: e.status }).toEqual({ id: 'invalid_value', status: ERROR_STATUS.invalid_value });
      expect(e.message).toContain('30s');
      return;
    }
    throw new Error(`${JSON.stringify(text)} was accepted`);
  });
});

describe('formatDuration', () => {
  it('uses the largest exact unit', () => {
    expect(formatDuration(86_400)).toBe('1d');
    expect(formatDuration(172_800)).toBe('2d');
    expect(formatDuration(3600)).toBe('1h');
    expect(formatDuration(90_000)).toBe('25h');
    expect(formatDuration(120)).toBe('2m');
    expect(formatDuration(90)).toBe('90s');
    expect(formatDuration(1)).toBe('1s');
  });

  it('parses back to the same number of seconds', () => {
    for (const seconds of [1, 59, 60, 61, 3599, 3600, 3660, 86_399, 86_400, 90_061, 604_800, 31_536_000]) {
      expect(parseDuration(formatDuration(seconds))).toBe(seconds);
    }
  });
});
