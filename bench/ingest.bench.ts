/**
 * Watched-folder benchmark (the CLI's `watch`: the same FolderIntake with the CLI's defaults, in
 * this process): 10,000 files of 10 KB dropped at once (renamed into the watched folder, as a
 * file manager's move does) → the time until every one is uploaded, made a credential and
 * scheduled, and on to every proof written and every original filed under done/. The
 * Partner's interval is an hour: the job is issued with "issue now" once every file waits for
 * it (on the local chain, anvil), as in bench/watch-app.bench.ts. Each stage's milestone (all
 * found, all settled and hashed, all scheduled, job issued, all proofs written, all filed) is
 * printed, with the files per second of the time between it and the one before: the stages
 * overlap, so a stage's figure is how fast it kept up, and the slowest one is the bottleneck.
 * Its peer, measured in the same run: reading the same files from disk and hashing them with
 * SHA-256, one after the other.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolderIntake, type FileState } from '../main/intake/index.js';
import { observeMachine } from './machine.js';
import { benchDir, RssSampler, flushBenchWrites, repeatUntilStable, repeatedFigure, timed, type BenchResult } from './measure.js';
import { watchBenchSetup } from './watch-setup.js';

const COUNT = Number(process.env['BENCH_WATCH_COUNT'] ?? 10_000);
const SIZE = 10 * 1024;

export async function ingestBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-ingest-');
  const { engine, inbox, staging } = watchBenchSetup(dir);
  let intake: FolderIntake | undefined;
  try {
    log(`writing ${COUNT} files of 10 KB to drop...`);
    const filler = 'x'.repeat(SIZE - 80);
    for (let i = 0; i < COUNT; i++) writeFileSync(join(staging, `certificate-${i}.txt`), `Certificate of attendance no. ${i}, issued to participant ${i}\n${filler}`.padEnd(SIZE, '.'));
    const partner = await engine.addPartner({ name: 'Bench Hot Folder', issuingIntervalSeconds: 3600 });
    await engine.issuing.ctx.chains.client('local'); // start anvil before the clock runs
    const service = engine.serviceFor(partner.partner_id);
    intake = await FolderIntake.start({ service, dataDir: join(dir, 'data'), folders: [{ path: inbox }] });

    log(`the peer: SHA-256 of the same ${COUNT} files read from disk...`);
    const raw = await repeatUntilStable(async () => {
      const { ms } = await timed(() => {
        for (let i = 0; i < COUNT; i++) createHash('sha256').update(readFileSync(join(staging, `certificate-${i}.txt`))).digest();
      });
      return COUNT / (ms / 1000);
    });

    log(`dropping ${COUNT} files into a watched folder...`);
    flushBenchWrites();
    const dropping = observeMachine();
    const rss = new RssSampler();
    const started = process.hrtime.bigint();
    for (let i = 0; i < COUNT; i++) renameSync(join(staging, `certificate-${i}.txt`), join(inbox, `certificate-${i}.txt`));
    const since = () => Number(process.hrtime.bigint() - started) / 1e9;
    const milestones: { stage: string; at: number }[] = [];
    const watching = intake;
    const until = async (stage: string, state: FileState | 'settled') => {
      for (;;) {
        const progress = watching.progress();
        if (progress.failed + progress.duplicates > 0) throw new Error(`unexpected while waiting for ${stage}: ${JSON.stringify(progress)}`);
        if (watching.reached()[state] >= COUNT) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      milestones.push({ stage, at: since() });
      log(`  ${stage}: ${since().toFixed(1)} s`);
    };
    await until('found and journaled (watcher, first look)', 'seen');
    await until('settled (the 1 s stable time)', 'settled');
    await until('hashed, uploaded, created and scheduled', 'scheduled');
    const scheduledAt = since();
    const scheduledMachine = dropping.end();
    const job = await service.issueJobNow({ engine: 'local' });
    while ((await service.getJob(job.uid)).status !== 'finished') await new Promise((r) => setTimeout(r, 20));
    milestones.push({ stage: 'job issued on the local chain (issue now)', at: since() });
    log(`  job issued: ${since().toFixed(1)} s`);
    await until('proofs written and originals filed under done/', 'moved');
    const seconds = since();
    const machine = dropping.end();
    const peak = rss.peakMiB();
    rss.stop();
    const rate = COUNT / seconds;
    const journal = intake.journalStats();
    const once = ['too long to repeat'];
    return [
      { name: `watched folder (CLI watch): ${COUNT} files of 10 KB dropped → all scheduled`, value: scheduledAt, unit: 's', machine: scheduledMachine, notes: once },
      {
        name: 'watched folder (CLI watch): files scheduled per second (1 s stable time included)',
        value: COUNT / scheduledAt,
        unit: 'files/s',
        machine: scheduledMachine,
        ratio: { value: COUNT / scheduledAt / raw.value, against: 'raw read+SHA-256' },
        notes: once,
      },
      {
        name: 'watched folder (CLI watch): files per second, drop → all proofs written',
        value: rate,
        unit: 'files/s',
        target: { value: 1_000, better: 'higher' },
        machine,
        ratio: { value: rate / raw.value, against: 'raw read+SHA-256' },
        notes: once,
      },
      ...milestones.map(({ stage, at }, i) => {
        const from = i === 0 ? 0 : milestones[i - 1]!.at;
        return { name: `watched folder (CLI watch), stage: ${stage}`, value: COUNT / Math.max(at - from, 1e-3), unit: 'files/s', machine, notes: [`done ${at.toFixed(1)} s after the drop, ${(at - from).toFixed(1)} s after the stage before`] };
      }),
      { name: 'peer: read + SHA-256 of the same files, one by one', ...repeatedFigure(raw), unit: 'files/s' },
      { name: 'watched folder (CLI watch): journal row writes per commit (group commit)', value: journal.rowWrites / Math.max(journal.commits, 1), unit: 'writes', notes: [`${journal.commits} commits for ${COUNT} files`] },
      { name: 'watched folder (CLI watch), peak RSS', value: peak, unit: 'MiB', machine },
    ];
  } finally {
    await intake?.stop();
    await engine.close();
  }
}
