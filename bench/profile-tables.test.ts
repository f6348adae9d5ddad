import { describe, expect, it } from 'vitest';
import { intakeStages } from './issue-profile.bench.js';
import { profileOf } from './issuing-profile.bench.js';

describe('the issuing profile', () => {
  it('leaves to `other` what the fixed and main-thread stages do not cover; signer threads and the replayed index overlap', () => {
    const t = (ms: number, cpuMs = ms / 2) => ({ ms, cpuMs });
    const rows = profileOf(
      { wall: t(1000, 900), 'main thread': t(1000, 500), 'process start': t(100), insert: t(300), 'index (replayed)': t(50), payload: t(200), sign: t(600), compress: t(300) },
      1000,
    );
    const row = (name: string) => rows.find((r) => r.name === name)!;
    expect(row('other')).toMatchObject({ usPer: 400, cpuUsPer: 200, share: 0.4 });
    expect(row('insert')).toMatchObject({ usPer: 300, cpuUsPer: 150, share: 0.3, overlaps: false });
    expect(row('sign')).toMatchObject({ usPer: 600, share: 0.6, overlaps: true });
    expect(row('validate')).toMatchObject({ usPer: 0, share: 0 });
    const mainShares = rows.filter((r) => !r.overlaps && r.name !== 'index (replayed)').reduce((sum, r) => sum + r.share, 0);
    expect(mainShares).toBeCloseTo(1);
  });
});

describe('the issue profile', () => {
  it('reads the stages `issue` prints, colons and spaces in their names included', () => {
    const stderr = 'proof written\nintake: 1000 files; process start 0.87 s, read+hash 0.16 s, journal 0.22 s, create+schedule 5.27 s, proofs: build 1.16 s (single requests: the service has no batched call)\n';
    expect(intakeStages(stderr)).toEqual({ 'process start': 870, 'read+hash': 160, journal: 220, 'create+schedule': 5270, 'proofs: build': 1160 });
  });

  it('says so when `issue` printed no stages', () => {
    expect(() => intakeStages('nothing\n')).toThrow('no intake: line');
  });
});
