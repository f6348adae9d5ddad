/**
 * File intake through `issue`: 10,000 files of 10 KB given to one
 * `issue FILE... --now` on the embedded engine (real anvil), from the call to every proof file
 * written, in files/s. Its limit, measured in the same run: reading the same files from disk
 * and hashing them with SHA-256, one after the other (the issue's "disk and SHA-256" bound).
 *
 * `npm run bench -- --only intake` runs it; `PROOFDESK_BENCH_INTAKE_FILES=N` changes the count.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../main/cli/run.js';
import { observeMachine } from './machine.js';
import { benchDir, RssSampler, flushBenchWrites, repeatUntilStable, repeatedFigure, timed, type BenchResult } from './measure.js';

const COUNT = Number(process.env['PROOFDESK_BENCH_INTAKE_FILES'] ?? 10_000);
const SIZE = 10 * 1024;

async function cli(argv: string[], log: (line: string) => void): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  if (code !== 0) throw new Error(`${argv[0]} exited ${code}: ${err.slice(-5).join('\n')}`);
  for (const line of err.filter((l) => l.startsWith('intake:'))) log(line);
  return out.join('\n');
}

export async function intakeBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-intake-');
  const inputs = join(dir, 'in');
  const proofs = join(dir, 'proofs');
  const data = join(dir, 'data');
  mkdirSync(inputs);
  const saved = process.env['PROOFDESK_PASSPHRASE'];
  process.env['PROOFDESK_PASSPHRASE'] = 'bench intake passphrase';
  try {
    log(`intake: writing ${COUNT} files of ${SIZE / 1024} KB...`);
    const files = Array.from({ length: COUNT }, (_, i) => join(inputs, `diploma-${String(i).padStart(5, '0')}.pdf`));
    for (const file of files) writeFileSync(file, randomBytes(SIZE));
    await cli(['partner', 'add', '--name', 'Bench Intake University', '--issuing-interval', '1h', '--data', data], log);

    log('intake: the limit: read + SHA-256 of the same files, one by one...');
    const raw = await repeatUntilStable(async () => {
      const { ms } = await timed(() => {
        for (const file of files) createHash('sha256').update(readFileSync(file)).digest();
      });
      return COUNT / (ms / 1000);
    });

    log(`intake: issue ${COUNT} files --now, until every proof is written...`);
    flushBenchWrites();
    const window = observeMachine();
    const rss = new RssSampler();
    const run = await timed(() => cli(['issue', ...files, '--now', '--out', proofs, '--data', data, '--json'], log));
    const machine = window.end();
    const peak = rss.peakMiB();
    rss.stop();
    const written = readdirSync(proofs).filter((f) => f.endsWith('.proof.json')).length;
    if (written !== COUNT) throw new Error(`issue wrote ${written} proofs for ${COUNT} files`);
    const rate = COUNT / (run.ms / 1000);
    const once = ['too long to repeat', `${COUNT} files of ${SIZE / 1024} KB, --now, local anvil`];
    return [
      { name: `issue: ${COUNT} files → all proofs written`, value: run.ms / 1000, unit: 's', machine, notes: once },
      {
        name: 'issue: files to proofs per second',
        value: rate,
        unit: 'files/s',
        target: { value: 1_000, better: 'higher' },
        machine,
        ratio: { value: rate / raw.value, against: 'raw read+SHA-256' },
        notes: once,
      },
      { name: 'limit: read + SHA-256 of the same files, one by one', ...repeatedFigure(raw), unit: 'files/s' },
      { name: 'issue: peak RSS of the process', value: peak, unit: 'MiB', machine },
    ];
  } finally {
    if (saved === undefined) delete process.env['PROOFDESK_PASSPHRASE'];
    else process.env['PROOFDESK_PASSPHRASE'] = saved;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const r of await intakeBenchmarks((line) => process.stderr.write(`${line}\n`))) {
    console.log(`${r.name}: ${r.value.toFixed(1)} ${r.unit}${r.ratio ? ` (${r.ratio.value.toFixed(3)} of ${r.ratio.against})` : ''}`);
  }
}
