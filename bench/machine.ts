/**
 * What else the machine was doing while a figure was measured: load average and CPU steal
 * (read from /proc/stat), and the CPU time a process used. On a shared 2-core machine with
 * 20-40 % steal a figure means little without these beside it.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/** The aggregate `cpu` line of /proc/stat, in clock ticks. */
export interface CpuTicks {
  /** user + nice + system + idle + iowait + irq + softirq + steal (guest time is already in user). */
  total: number;
  steal: number;
}

/** Parses the aggregate `cpu` line of /proc/stat; undefined when there is none (not Linux). */
export function parseProcStat(text: string): CpuTicks | undefined {
  const line = text.split('\n').find((l) => /^cpu\s/.test(l));
  if (!line) return undefined;
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (fields.length < 4 || fields.some((n) => !Number.isFinite(n))) return undefined;
  return { total: fields.reduce((sum, n) => sum + n, 0), steal: fields[7] ?? 0 };
}

/** Percentage of CPU time stolen by the hypervisor between two samples; undefined if none elapsed. */
export function stealPercent(start: CpuTicks | undefined, end: CpuTicks | undefined): number | undefined {
  if (!start || !end) return undefined;
  const total = end.total - start.total;
  if (total <= 0) return undefined;
  return (100 * (end.steal - start.steal)) / total;
}

function readCpuTicks(): CpuTicks | undefined {
  try {
    return parseProcStat(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined;
  }
}

/** The 1-minute load average at one instant. */
export interface MachinePoint {
  at: string;
  load1: number;
}

/** Load at the start and end of an interval, and the CPU steal over it. */
export interface MachineWindow {
  start: MachinePoint;
  end: MachinePoint;
  /** Steal over the interval, in % of all CPU time; absent where /proc/stat is not readable. */
  stealPercent?: number;
  seconds: number;
}

/** Starts observing the machine; `end()` closes the interval. */
export function observeMachine(): { end(): MachineWindow } {
  const start = { at: new Date().toISOString(), load1: loadavg()[0]! };
  const ticks = readCpuTicks();
  const began = process.hrtime.bigint();
  return {
    end() {
      const steal = stealPercent(ticks, readCpuTicks());
      return {
        start,
        end: { at: new Date().toISOString(), load1: loadavg()[0]! },
        ...(steal === undefined ? {} : { stealPercent: steal }),
        seconds: Number(process.hrtime.bigint() - began) / 1e9,
      };
    },
  };
}

/** The machine's description for the output's header and results.json. */
export function describeMachine(): { node: string; cpus: number; cpu: string | undefined } {
  return { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model };
}

/** CPU time (user + system) of another process from /proc/<pid>/stat, in ms; undefined if unreadable. */
export function processCpuMs(pid: number): number | undefined {
  try {
    return parseProcessCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * CPU time (user + system) of this process's children that have ended and been waited for (an
 * `execFileSync` once it returned), from /proc/self/stat, in ms; undefined if unreadable.
 */
export function endedChildrenCpuMs(): number | undefined {
  try {
    return parseProcessCpuMs(readFileSync('/proc/self/stat', 'utf8'), 100, 'children');
  } catch {
    return undefined;
  }
}

/**
 * utime + stime (fields 14 and 15) of a /proc/<pid>/stat line, in ms (at the usual 100 ticks/s);
 * with `of` 'children', cutime + cstime (fields 16 and 17): its waited-for children's.
 */
export function parseProcessCpuMs(text: string, ticksPerSecond = 100, of: 'self' | 'children' = 'self'): number | undefined {
  // The command name (field 2) may contain spaces and parentheses: count fields after the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const at = of === 'self' ? 11 : 13;
  const utime = Number(rest[at]);
  const stime = Number(rest[at + 1]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return ((utime + stime) * 1000) / ticksPerSecond;
}
