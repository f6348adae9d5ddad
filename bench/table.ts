/** The results table `npm run bench` prints: each figure with its spread, ratio, load and steal. */
import type { MachineWindow } from './machine.js';
import { meetsTarget, type BenchResult, type RepeatSummary } from './measure.js';

export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Math.abs(value) >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(2);
}

/** "0.42× SHA-256 + Ed25519 limit": two significant digits below 10, whole numbers above. */
export function formatRatio(ratio: { value: number; against: string } | undefined): string {
  if (!ratio) return '';
  if (!Number.isFinite(ratio.value)) return `n/a vs ${ratio.against}`;
  const x = ratio.value >= 10 ? Math.round(ratio.value).toString() : ratio.value.toPrecision(2);
  return `${x}× ${ratio.against}`;
}

/** "±3.1 % (5 runs)" when stable, "noisy: ±12 % (8 runs)" when not, "1 run" when not repeated. */
export function formatSpread(repeat: RepeatSummary | undefined): string {
  if (!repeat) return '1 run';
  const runs = `(${repeat.runs} run${repeat.runs === 1 ? '' : 's'})`;
  if (!Number.isFinite(repeat.spread)) return `noisy: spread unknown ${runs}`;
  const pct = repeat.spread * 100;
  const spread = `±${pct >= 10 ? Math.round(pct) : pct.toFixed(1)}%`;
  return repeat.converged ? `${spread} ${runs}` : `noisy: ${spread} ${runs}`;
}

/** "load 3.1→4.2" and "steal 12%" over the figure's own interval. */
export function formatMachine(machine: MachineWindow | undefined): { load: string; steal: string } {
  if (!machine) return { load: '', steal: '' };
  return {
    load: `${machine.start.load1.toFixed(1)}→${machine.end.load1.toFixed(1)}`,
    steal: machine.stealPercent === undefined ? 'n/a' : `${Math.round(machine.stealPercent)}%`,
  };
}

function formatTarget(r: BenchResult): string {
  if (!r.target) return '';
  const met = meetsTarget(r) ? 'met' : 'MISSED';
  return `${r.target.better === 'higher' ? '>=' : '<='} ${formatValue(r.target.value)} ${met}`;
}

/** The table, one row per figure, columns padded to fit. */
export function renderTable(results: BenchResult[]): string {
  const headers = ['benchmark', 'measured', 'spread', 'ratio', 'load 1m', 'steal', 'target', 'notes'];
  const rows = results.map((r) => {
    const { load, steal } = formatMachine(r.machine);
    return [r.name, `${formatValue(r.value)} ${r.unit}`, formatSpread(r.repeat), formatRatio(r.ratio), load, steal, formatTarget(r), (r.notes ?? []).join('; ')];
  });
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
