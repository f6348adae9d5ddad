import { describe, expect, it } from 'vitest';
import { formatMachine, formatRatio, formatSpread, renderTable } from './table.js';

describe('ratio formatting', () => {
  it('shows two significant digits below 10 and whole numbers above', () => {
    expect(formatRatio({ value: 0.4234, against: 'SHA-256 + Ed25519 limit' })).toBe('0.42× SHA-256 + Ed25519 limit');
    expect(formatRatio({ value: 1.05, against: 'trivial route' })).toBe('1.1× trivial route');
    expect(formatRatio({ value: 36.4, against: 'peer' })).toBe('36× peer');
  });

  it('says n/a when the peer could not be measured, and nothing without a peer', () => {
    expect(formatRatio({ value: Number.POSITIVE_INFINITY, against: 'raw SHA-256' })).toBe('n/a vs raw SHA-256');
    expect(formatRatio(undefined)).toBe('');
  });
});

describe('spread and machine columns', () => {
  it('marks figures that did not converge as noisy', () => {
    expect(formatSpread({ runs: 5, spread: 0.031, converged: true })).toBe('±3.1% (5 runs)');
    expect(formatSpread({ runs: 8, spread: 0.123, converged: false })).toBe('noisy: ±12% (8 runs)');
    expect(formatSpread(undefined)).toBe('1 run');
  });

  it('shows load at start and end and the steal over the interval', () => {
    const machine = { start: { at: '', load1: 3.14 }, end: { at: '', load1: 4.2 }, stealPercent: 12.4, seconds: 1 };
    expect(formatMachine(machine)).toEqual({ load: '3.1→4.2', steal: '12%' });
    expect(formatMachine({ ...machine, stealPercent: undefined }).steal).toBe('n/a');
  });

  it('keeps rows from benchmarks that know nothing of the new fields', () => {
    const table = renderTable([{ name: 'old row', value: 1234.5, unit: 'files/s', target: { value: 1000, better: 'higher' } }]);
    expect(table).toContain('old row');
    expect(table).toMatch(/1,235 files\/s\s+1 run\s+>= 1,000 met/);
  });
});
