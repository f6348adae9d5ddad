/**
 * `npm run bench [-- --only PATTERN]`: runs the benchmarks (those whose name matches PATTERN,
 * a case-insensitive regular expression), prints a table with the machine's load and CPU steal
 * beside each figure and writes bench/results.json.
 * Benchmarks measure; they do not fail the build (targets are shown next to each figure).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { apiBenchmarks } from './api.bench.js';
import { chainBenchmarks } from './chain.bench.js';
import { cliBenchmarks } from './cli.bench.js';
import { engineBenchmarks } from './engine.bench.js';
import { ingestBenchmarks } from './ingest.bench.js';
import { intakeBenchmarks } from './intake.bench.js';
import { issuingBenchmarks, millionBenchmarks } from './issuing.bench.js';
import { issuingProfileBenchmarks } from './issuing-profile.bench.js';
import { issueProfileBenchmarks } from './issue-profile.bench.js';
import { dragInProfileBenchmarks } from './drag-in-profile.bench.js';
import { onlyPattern } from './only.js';
import { describeMachine, observeMachine } from './machine.js';
import { withMachine, type BenchResult } from './measure.js';
import { renderTable } from './table.js';
import { stagingUiBenchmarks } from './staging-ui.bench.js';
import { uiBenchmarks } from './ui.bench.js';
import { vcBenchmarks } from './vc.bench.js';
import { verifyUiBenchmarks } from './verify-ui.bench.js';
import { watchAppBenchmarks } from './watch-app.bench.js';
import { workspaceBenchmarks } from './workspace.bench.js';
import { remoteModeBenchmarks } from './remote-mode.bench.js';
import { publicChainBenchmarks } from './public-chain.bench.js';
import { listExportBenchmarks } from './list-export.bench.js';
import { csvImportBenchmarks } from './csv-import.bench.js';
import { recordsSearchStoresBenchmarks } from './records-search-stores.bench.js';
import { storeIssuingBenchmarks } from './store-issuing.bench.js';
import { fileBytesBenchmarks } from './file-bytes.bench.js';
import { restNodesBenchmarks } from './rest-nodes.bench.js';

/**
 * Every benchmark, by the name `--only` matches. Register new ones here. `explicit` ones run
 * only when `--only` names them (the 1,000,000-credential job takes minutes and gigabytes of disk).
 */
const BENCHMARKS: { name: string; run: (log: (line: string) => void) => Promise<BenchResult[]>; explicit?: boolean }[] = [
  { name: 'engine', run: engineBenchmarks },
  { name: 'issuing', run: issuingBenchmarks },
  { name: 'issuing-profile', run: issuingProfileBenchmarks },
  { name: 'api', run: apiBenchmarks },
  { name: 'ingest', run: ingestBenchmarks },
  { name: 'intake', run: intakeBenchmarks },
  { name: 'issue-profile', run: issueProfileBenchmarks },
  { name: 'drag-in-profile', run: dragInProfileBenchmarks },
  { name: 'chain', run: chainBenchmarks },
  { name: 'cli', run: cliBenchmarks },
  { name: 'workspace', run: workspaceBenchmarks },
  { name: 'staging-ui', run: stagingUiBenchmarks },
  { name: 'ui', run: uiBenchmarks },
  { name: 'watch-app', run: watchAppBenchmarks },
  { name: 'verify-ui', run: verifyUiBenchmarks },
  { name: 'remote-mode', run: remoteModeBenchmarks },
  { name: 'vc', run: vcBenchmarks },
  { name: 'public-chain', run: publicChainBenchmarks },
  { name: 'list-export', run: listExportBenchmarks },
  { name: 'csv-import', run: csvImportBenchmarks },
  { name: 'records-search-stores', run: recordsSearchStoresBenchmarks },
  { name: 'store-issuing', run: storeIssuingBenchmarks },
  { name: 'file-bytes', run: fileBytesBenchmarks },
  { name: 'rest-nodes', run: restNodesBenchmarks },
  { name: 'million', run: millionBenchmarks, explicit: true },
];

const log = (line: string) => process.stderr.write(`${line}\n`);

let only: RegExp | undefined;
try {
  only = onlyPattern(process.argv.slice(2));
} catch (error) {
  log((error as Error).message);
  process.exit(2);
}
const selected = BENCHMARKS.filter((b) => (only ? only.test(b.name) : !b.explicit));
if (selected.length === 0) {
  log(`No benchmark matches ${String(only)}; the benchmarks are: ${BENCHMARKS.map((b) => b.name).join(', ')}.`);
  process.exit(2);
}

const machine = describeMachine();
const describe = `node ${machine.node}, ${machine.cpus} cores, ${machine.cpu ?? 'unknown CPU'}`;
const whole = observeMachine();
log(`${describe}; load (1 min) ${loadavg()[0]!.toFixed(2)} at start; running ${selected.map((b) => b.name).join(', ')}`);
const results: (BenchResult & { benchmark: string })[] = [];
for (const benchmark of selected) {
  log(`[${benchmark.name}] start: load (1 min) ${loadavg()[0]!.toFixed(2)}`);
  const window = observeMachine();
  const rows = await benchmark.run(log);
  const own = window.end();
  log(`[${benchmark.name}] end: load (1 min) ${own.end.load1.toFixed(2)}, steal ${own.stealPercent?.toFixed(0) ?? 'n/a'}% over ${own.seconds.toFixed(0)} s`);
  results.push(...withMachine(rows, own).map((r) => ({ benchmark: benchmark.name, ...r })));
}
const overall = whole.end();

const steal = overall.stealPercent === undefined ? 'steal n/a' : `steal ${overall.stealPercent.toFixed(0)}% over the run`;
console.log(`${describe}\nload (1 min) ${overall.start.load1.toFixed(2)} at start, ${overall.end.load1.toFixed(2)} at end; ${steal}\n`);
console.log(renderTable(results));

const out = fileURLToPath(new URL('./results.json', import.meta.url));
writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), ...machine, only: only?.source, machineWindow: overall, results }, null, 2)}\n`);
log(`results written to ${out}`);
