import { afterEach, describe, expect, it } from 'vitest';
import { addStageTime, stage, stageTotals, timeStages, timingStages } from './stage-timing.js';

describe('stage timing', () => {
  afterEach(() => timeStages(false));

  it('is off by default: stages run and return as they are, and nothing is kept', async () => {
    expect(timingStages()).toBe(false);
    expect(stage('payload', () => 42)).toBe(42);
    await expect(stage('confirmation', async () => 'sent')).resolves.toBe('sent');
    addStageTime('sign', 1_000_000);
    expect(stageTotals()).toEqual({});
  });

  it('switched on, sums each stage over its calls, sync and async, and keeps a failing one', async () => {
    timeStages(true);
    stage('store', () => undefined);
    stage('store', () => undefined);
    await stage('transaction', () => new Promise((resolve) => setImmediate(resolve)));
    expect(() => stage('validate', () => { throw new Error('bad body'); })).toThrow('bad body');
    await expect(stage('confirmation', () => Promise.reject(new Error('chain gone')))).rejects.toThrow('chain gone');
    addStageTime('sign', 2_000_000, 1_500_000);
    addStageTime('sign', 1_000_000, 500_000);
    const totals = stageTotals();
    expect(Object.keys(totals).sort()).toEqual(['confirmation', 'sign', 'store', 'transaction', 'validate']);
    expect(totals['sign']).toEqual({ ms: 3, cpuMs: 2 });
    for (const time of Object.values(totals)) {
      expect(time.ms).toBeGreaterThanOrEqual(0);
      expect(time.cpuMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('starts from zero when switched on again', () => {
    timeStages(true);
    addStageTime('sign', 5_000_000);
    timeStages(true);
    expect(stageTotals()).toEqual({});
  });
});
