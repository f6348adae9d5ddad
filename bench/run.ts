/**
 * `npm run bench`: runs every benchmark (`npm run bench -- cli api` runs only those suites), prints a table and writes bench/results.json.
 * Benchmarks measure; they do not fail the build (targets are shown next to each figure).
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { apiBenchmarks } from './api.bench.js';
import { cliBenchmarks } from './cli.bench.js';
import { engineBenchmarks } from './engine.bench.js';
import { ingestBenchmarks } from './ingest.bench.js';
import { issuingBenchmarks } from './issuing.bench.js';
import { meetsTarget, type BenchResult } from './measure.js';
import { workspaceBenchmarks } from './workspace.bench.js';
import { stagingUiBenchmarks } from './staging-ui.bench.js';
import { uiBenchmarks } from './ui.bench.js';
import { verifyUiBenchmarks } from './verify-ui.bench.js'; // H9

const log = (line: string) => process.stderr.write(`${line}\n`);

function format(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(2);
}

const SUITES = { engine: engineBenchmarks, issuing: issuingBenchmarks, api: apiBenchmarks, ingest: ingestBenchmarks, cli: cliBenchmarks, workspace: workspaceBenchmarks, 'staging-ui': stagingUiBenchmarks, ui: uiBenchmarks, 'verify-ui': verifyUiBenchmarks /* H9 */ };
const only = process.argv.slice(2);
const results: BenchResult[] = [];
for (const [name, suite] of Object.entries(SUITES)) if (only.length === 0 || only.includes(name)) results.push(...(await suite(log)));

const rows = results.map((r) => {
  const met = meetsTarget(r);
  const target = r.target ? `${r.target.better === 'higher' ? '>=' : '<='} ${format(r.target.value)}` : '';
  return [r.name, `${format(r.value)} ${r.unit}`, target, met === undefined ? '' : met ? 'met' : 'MISSED'];
});
const headers = ['benchmark', 'measured', 'target', ''];
const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
console.log([line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));

const out = fileURLToPath(new URL('./results.json', import.meta.url));
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, results }, null, 2)}\n`,
);
log(`results written to ${out}`);
