/**
 * The stage profiles' arithmetic and printing, shared by the benchmarks that time stages with
 * main/engine/stage-timing.ts (issuing-profile, drag-in-profile): each stage as wall and CPU µs
 * per item and as a share of the wall time, `other` being what the main thread's stages leave.
 */
import type { MachineWindow } from './machine.js';
import type { BenchResult } from './measure.js';
import type { StageTime } from '../main/engine/stage-timing.js';

/** A row of a profile, in the order the work goes through it, and what it times. */
export interface StageDef {
  name: string;
  means: string;
  /** Who runs it beside the main thread's stages (e.g. `signer threads`): its share overlaps theirs, not summed. */
  overlaps?: string;
  /** The stage it is part of (timed inside it): shown as of that stage, not summed. */
  part?: string;
  /** Work done after the measured span (off the path it profiles): shown, not summed. */
  afterwards?: true;
  /** A start-up cost, not per item. */
  fixed?: true;
  /** Asynchronous work beside other stages: the thread's CPU meanwhile is not its own, so none is shown. */
  noCpu?: true;
}

/** The engine's stages of a started job on the main thread, from its credentials read back to its transaction sent. */
export const JOB_STAGES: readonly StageDef[] = [
  { name: 'read back', means: "the job's credentials read back from the database, a chunk at a time" },
  { name: 'payload', means: 'payload built, RFC 8785 canonical JSON' },
  { name: 'signers wait', means: 'the main thread waiting for the signer threads' },
  { name: 'store', means: 'certificate rows written, one transaction per chunk' },
  { name: 'merkle', means: 'leaves read back, the tree built and stored' },
  { name: 'transaction', means: 'registry, issue transaction signed, stored, sent' },
];

/** The signer threads' stages, beside the main thread's. */
export const SIGNER_STAGES: readonly StageDef[] = [
  { name: 'workers start', means: 'signer threads started (summed over threads)', overlaps: 'signer threads' },
  { name: 'sign', means: 'SHA-256 + Ed25519 on the signer threads (summed)', overlaps: 'signer threads' },
  { name: 'compress', means: 'DEFLATE of each payload with the job dictionary, signer threads (summed)', overlaps: 'signer threads' },
];

/** One row of the profile: wall and CPU µs per item (CPU NaN where not its own), share of wall. */
export interface ProfileRow {
  name: string;
  usPer: number;
  cpuUsPer: number;
  share: number;
  overlaps: boolean;
  /** What the table says beside it: who it overlaps, or what it is part of. */
  aside?: string;
}

/** Whether a stage's time is the main thread's own and adds up to the wall time. */
function summed(def: StageDef): boolean {
  return def.overlaps === undefined && def.part === undefined && !def.afterwards && def.name !== 'other';
}

/**
 * Per stage: µs per item (wall and CPU) and share of wall; `other` is what the main thread's
 * stages leave of the wall time and of the main thread's CPU. `stages` holds `wall` (its CPU: the
 * whole process's) and `main thread` (the same span's CPU of that thread) besides the stages.
 */
export function profileOf(defs: readonly StageDef[], stages: Record<string, StageTime>, count: number): ProfileRow[] {
  const wall = stages['wall']!;
  const mainThread = defs.filter(summed).map((s) => stages[s.name] ?? { ms: 0, cpuMs: 0 });
  const other = { ms: wall.ms - mainThread.reduce((sum, t) => sum + t.ms, 0), cpuMs: stages['main thread']!.cpuMs - mainThread.reduce((sum, t) => sum + t.cpuMs, 0) };
  const all: Record<string, StageTime> = { ...stages, other };
  return defs.map((s) => {
    const t = all[s.name] ?? { ms: 0, cpuMs: 0 };
    const aside = s.overlaps !== undefined ? `${s.overlaps}, overlaps` : s.part !== undefined ? `part of ${s.part}` : s.afterwards ? 'after the span, not in it' : undefined;
    return {
      name: s.name,
      usPer: (t.ms * 1000) / count,
      cpuUsPer: s.noCpu ? Number.NaN : (t.cpuMs * 1000) / count,
      share: t.ms / wall.ms,
      overlaps: s.overlaps !== undefined,
      ...(aside ? { aside } : {}),
    };
  });
}

/** The profile as text lines: a header, then a line per stage (`per`: what an item is, e.g. `cred`). */
export function profileTable(rows: readonly ProfileRow[], per: string): string[] {
  const width = Math.max(17, ...rows.map((r) => r.name.length));
  const lines = [`  ${'stage'.padEnd(width)} ${`wall µs/${per}`.padStart(12)} ${`CPU µs/${per}`.padStart(12)} ${'of wall'.padStart(8)}`];
  for (const row of rows) {
    const cpu = Number.isNaN(row.cpuUsPer) ? '' : row.cpuUsPer.toFixed(1);
    lines.push(`  ${row.name.padEnd(width)} ${row.usPer.toFixed(1).padStart(12)} ${cpu.padStart(12)} ${`${(row.share * 100).toFixed(1)}%`.padStart(8)}${row.aside ? `  (${row.aside})` : ''}`);
  }
  return lines;
}

/** The profile's rows of the results table, named `${prefix}: ${stage}`, in `unit` (e.g. `µs/file`). */
export function profileResults(prefix: string, rows: readonly ProfileRow[], unit: string, machine: MachineWindow): BenchResult[] {
  return rows.map((row) => ({
    name: `${prefix}: ${row.name}`,
    value: row.usPer,
    unit,
    machine,
    notes: [`${(row.share * 100).toFixed(1)}% of wall`, ...(Number.isNaN(row.cpuUsPer) ? [] : [`CPU ${row.cpuUsPer.toFixed(1)} ${unit}`]), ...(row.aside ? [row.aside] : [])],
  }));
}

/** What each stage times, a line each. */
export function stageMeanings(defs: readonly StageDef[]): string {
  return defs.map((s) => `  ${s.name}: ${s.means}`).join('\n');
}
