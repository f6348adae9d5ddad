import { describe, expect, it } from 'vitest';
import { intakeStages } from './issue-profile.bench.js';
import { profileOf } from './issuing-profile.bench.js';
import { profileOf as profileRows, profileResults, profileTable, type StageDef } from './profile-tables.js';
import type { MachineWindow } from './machine.js';

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

describe('a stage profile', () => {
  const defs: StageDef[] = [
    { name: 'insert', means: 'the transaction' },
    { name: 'insert: store files', means: 'renames', part: 'insert' },
    { name: 'other', means: 'the rest' },
    { name: 'read', means: 'beside the others', overlaps: 'main thread, async', noCpu: true },
  ];
  const t = (ms: number, cpuMs: number) => ({ ms, cpuMs });
  const rows = profileRows(defs, { wall: t(1000, 1500), 'main thread': t(1000, 700), insert: t(600, 400), 'insert: store files': t(100, 50), read: t(900, 800) }, 100);
  const row = (name: string) => rows.find((r) => r.name === name)!;

  it('counts a part within its stage and an overlapping stage beside the main thread, not in `other`', () => {
    expect(row('other')).toMatchObject({ usPer: 4000, cpuUsPer: 3000, share: 0.4 });
    expect(row('insert: store files')).toMatchObject({ usPer: 1000, share: 0.1, overlaps: false, aside: 'part of insert' });
    expect(row('read')).toMatchObject({ usPer: 9000, share: 0.9, overlaps: true, aside: 'main thread, async, overlaps' });
  });

  it("shows no CPU for a stage whose thread's CPU meanwhile is not its own, in the table and in the results", () => {
    expect(row('read').cpuUsPer).toBeNaN();
    const lines = profileTable(rows, 'file');
    expect(lines[0]).toMatch(/^ {2}stage +wall µs\/file +CPU µs\/file +of wall$/);
    expect(lines.find((l) => l.trimStart().startsWith('read '))).toMatch(/^ {2}read +9000\.0 +90\.0% {2}\(main thread, async, overlaps\)$/);
    expect(lines.find((l) => l.trimStart().startsWith('insert '))).toMatch(/6000\.0 +4000\.0 +60\.0%$/);
    const machine = {} as MachineWindow;
    const results = profileResults('drag-in profile 100 files', rows, 'µs/file', machine);
    expect(results.find((r) => r.name === 'drag-in profile 100 files: read')!.notes).toEqual(['90.0% of wall', 'main thread, async, overlaps']);
    expect(results.find((r) => r.name === 'drag-in profile 100 files: insert')!.notes).toEqual(['60.0% of wall', 'CPU 4000.0 µs/file']);
  });
});
