/**
 * Where the time of the built CLI's `issue FILE... --now` goes, as a user runs it: 1,000 and
 * 10,000 files of 10 KB, local anvil, from the command's start to its exit. The stages are the
 * ones `issue` prints (`intake: ...`): process start (its start-up before the first file is
 * read), read+hash, journal, create+schedule, jobs (the job issued and followed to finished),
 * proofs; `exit` is what follows them (closing the data directory and the chain) until the
 * process has ended.
 *
 * `npm run bench -- --only issue-profile`; PROOFDESK_BENCH_ISSUE_COUNTS=1000 for others.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { observeMachine } from './machine.js';
import { benchDir, flushBenchWrites, type BenchResult } from './measure.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'out/cli/index.js');
const COUNTS = (process.env['PROOFDESK_BENCH_ISSUE_COUNTS'] ?? '1000,10000').split(',').map(Number);
const SIZE = 10 * 1024;

/** Runs the built CLI; its wall time from spawn to exit, and its stderr. */
function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; stderr: string }> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done({ ms: performance.now() - start, stderr }) : fail(new Error(`issue exited ${code}: ${stderr.slice(-500)}`))));
  });
}

/** The stages of `issue`'s `intake: N files; stage X s, ...` line, in ms. */
export function intakeStages(stderr: string): Record<string, number> {
  const line = stderr.split('\n').find((l) => l.startsWith('intake:'));
  if (!line) throw new Error('issue printed no intake: line');
  const stages: Record<string, number> = {};
  for (const [, name, seconds] of line.matchAll(/(?:; |, )([a-z+:\- ]+?) (\d+\.\d+) s/g)) stages[name!] = Number(seconds) * 1000;
  return stages;
}

export async function issueProfileBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-issue-profile-');
  const env = { PROOFDESK_PASSPHRASE: 'bench issue passphrase' };
  log('building the CLI (out/cli)...');
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { stdio: 'ignore' });
  const results: BenchResult[] = [];
  const table: string[] = [];
  for (const count of COUNTS) {
    const label = count.toLocaleString('en-US');
    const inputs = join(dir, `in-${count}`);
    const data = join(dir, `data-${count}`);
    mkdirSync(inputs);
    const files = Array.from({ length: count }, (_, i) => join(inputs, `diploma-${String(i).padStart(5, '0')}.pdf`));
    for (const file of files) writeFileSync(file, randomBytes(SIZE));
    execFileSync(process.execPath, [CLI, 'partner', 'add', '--name', 'Bench Issue University', '--issuing-interval', '1h', '--data', data], { env: { ...process.env, ...env }, stdio: 'ignore' });
    flushBenchWrites();
    log(`issue-profile: the built CLI's issue of ${label} files --now...`);
    const window = observeMachine();
    const run = await runCli(['issue', ...files, '--now', '--out', join(dir, `proofs-${count}`), '--data', data, '--json'], env);
    const machine = window.end();
    const stages = intakeStages(run.stderr);
    stages['exit'] = run.ms - Object.values(stages).reduce((a, b) => a + b, 0);
    results.push({ name: `issue profile ${label} files: wall, command start → exit`, value: run.ms, unit: 'ms', machine, notes: [`${Math.round(count / (run.ms / 1000))} files/s`, `${SIZE / 1024} KB files, --now, local anvil`] });
    table.push(`${label} files: wall ${(run.ms / 1000).toFixed(2)} s, load ${machine.start.load1.toFixed(1)}→${machine.end.load1.toFixed(1)}`);
    for (const [name, ms] of Object.entries(stages)) {
      const share = ms / run.ms;
      results.push({ name: `issue profile ${label} files: ${name}`, value: (ms * 1000) / count, unit: 'µs/file', machine, notes: [`${(share * 100).toFixed(1)}% of wall`, `${(ms / 1000).toFixed(2)} s`] });
      table.push(`  ${name.padEnd(17)} ${((ms * 1000) / count).toFixed(1).padStart(9)} µs/file  ${(share * 100).toFixed(1).padStart(5)}%  ${(ms / 1000).toFixed(2)} s`);
    }
  }
  log(['issue profile (µs per file, share of wall time):', ...table].join('\n'));
  return results;
}
