import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convergence, relativeHalfRange, repeatUntilStable, withMachine } from './measure.js';

describe('the convergence rule', () => {
  it('measures spread as the relative half-range around the median', () => {
    expect(relativeHalfRange([90, 100, 110])).toBeCloseTo(0.1);
    expect(relativeHalfRange([100])).toBe(Number.POSITIVE_INFINITY);
  });

  it('is stable once the last window of runs is within the tolerance', () => {
    // The first run was an outlier; the last three agree within ±1 %.
    expect(convergence([50, 100, 101, 99], { window: 3, tolerance: 0.05 })).toEqual({ value: 100, spread: 0.01, converged: true });
  });

  it('is not stable on fewer runs than the window or minRuns, however close they are', () => {
    expect(convergence([100, 100], { window: 3 }).converged).toBe(false);
    expect(convergence([100, 100, 100], { window: 3, minRuns: 5 }).converged).toBe(false);
  });

  it('is not stable when the last runs disagree by more than the tolerance', () => {
    const state = convergence([100, 130, 80], { window: 3, tolerance: 0.05 });
    expect(state.converged).toBe(false);
    expect(state.spread).toBeCloseTo(0.25);
  });
});

describe('repeatUntilStable', () => {
  it('stops as soon as the runs agree', async () => {
    const figures = [10, 20, 20, 20, 20, 20];
    const r = await repeatUntilStable((i) => figures[i]!, { window: 3, tolerance: 0.05, maxRuns: 6 });
    expect(r.samples).toEqual([10, 20, 20, 20]);
    expect(r.repeat).toEqual({ runs: 4, spread: 0, converged: true });
    expect(r.value).toBe(20);
  });

  it('stops at maxRuns and says it did not converge', async () => {
    const r = await repeatUntilStable((i) => (i % 2 ? 100 : 200), { window: 3, tolerance: 0.05, maxRuns: 5 });
    expect(r.repeat.runs).toBe(5);
    expect(r.repeat.converged).toBe(false);
  });

  it('makes minRuns runs even past maxMs, and none more', async () => {
    const r = await repeatUntilStable((i) => i + 1, { minRuns: 4, maxRuns: 10, maxMs: 0 });
    expect(r.samples).toEqual([1, 2, 3, 4]);
  });
});

describe('withMachine', () => {
  it("gives rows without their own interval the benchmark's, and keeps the others'", () => {
    const whole = { start: { at: 'a', load1: 1 }, end: { at: 'b', load1: 2 }, stealPercent: 10, seconds: 60 };
    const own = { ...whole, stealPercent: 30, seconds: 5 };
    const rows = withMachine([{ name: 'old', value: 1, unit: 'x' }, { name: 'new', value: 2, unit: 'x', machine: own }], whole);
    expect(rows.map((r) => r.machine?.stealPercent)).toEqual([10, 30]);
  });
});

describe('the benchmarks\' temporary folders', () => {
  it('are kept until the whole run ends, then removed (a clean-up must not slow the next benchmark)', () => {
    const script = `import { existsSync, writeFileSync } from 'node:fs';
      import { join } from 'node:path';
      import { benchDir } from ${JSON.stringify(join(import.meta.dirname, 'measure.ts'))};
      const first = benchDir('proofdesk-measure-test-');
      writeFileSync(join(first, 'a-file'), 'x');
      const second = benchDir('proofdesk-measure-test-');
      console.log(JSON.stringify({ first, second, kept: existsSync(join(first, 'a-file')) && existsSync(second) }));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const { first, second, kept } = JSON.parse(out.trim().split('\n').at(-1)!) as { first: string; second: string; kept: boolean };
    expect(kept).toBe(true);
    expect(existsSync(first)).toBe(false);
    expect(existsSync(second)).toBe(false);
  });
});
