import { describe, expect, it } from 'vitest';
import { parseProcStat, parseProcessCpuMs, stealPercent } from './machine.js';

const stat = (user: number, idle: number, steal: number) =>
  `cpu  ${user} 0 100 ${idle} 10 0 5 ${steal} 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1 2 3\n`;

describe('CPU steal from /proc/stat', () => {
  it('reads the aggregate cpu line: the total of its first eight fields and steal', () => {
    expect(parseProcStat(stat(1000, 500, 200))).toEqual({ total: 1000 + 100 + 500 + 10 + 5 + 200, steal: 200 });
  });

  it('takes steal as a share of all CPU time elapsed between two samples', () => {
    // 400 ticks elapse (300 user, 100 steal): 25 % stolen.
    expect(stealPercent(parseProcStat(stat(1000, 500, 200)), parseProcStat(stat(1300, 500, 300)))).toBe(25);
  });

  it('says nothing when no time elapsed or a sample is missing', () => {
    const a = parseProcStat(stat(1000, 500, 200));
    expect(stealPercent(a, a)).toBeUndefined();
    expect(stealPercent(a, undefined)).toBeUndefined();
    expect(parseProcStat('intr 1 2 3\n')).toBeUndefined();
  });

  it('reads a process CPU time even when its name holds spaces and parentheses', () => {
    const line = '4242 (node (x) y) S 1 2 3 0 -1 4194304 114 0 0 0 250 50 0 0 20 0 1 0 279306';
    expect(parseProcessCpuMs(line)).toBe(3000);
  });

  it('reads the CPU time of the ended children apart from the process’s own', () => {
    const line = '4242 (node) S 1 2 3 0 -1 4194304 114 0 0 0 250 50 700 120 20 0 1 0 279306';
    expect(parseProcessCpuMs(line, 100, 'children')).toBe(8200);
    expect(parseProcessCpuMs(line)).toBe(3000);
  });
});
