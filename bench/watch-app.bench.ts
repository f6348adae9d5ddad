/**
 * A watch folder driven from the app: the folder is added through the app's
 * IPC handlers (as the Watch folders view does, with the app's intake settings: 1 s stable
 * time, jobs looked at every second), then 10,000 files of 10 KB are dropped into it at once
 * (renamed in, as a file manager's move does). Measured from the drop to the last proof written,
 * on the local chain (anvil), in three phases: intake (settle, hash, journal, upload, create and
 * schedule: until every file waits for its job), issuing (Issue now, as the Jobs view offers on
 * the demo engine: until the job is finished on the chain) and proofs (until every proof file is
 * written and every original filed under done/). The live counts reach the app as events.
 */
import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAppContext } from '../main/app/app-context.js';
import { stopWatchFolders } from '../main/app/handlers/watch-folders.js';
import { createIpcHandlers } from '../main/app/ipc-handlers.js';
import { observeMachine } from './machine.js';
import { benchDir, RssSampler, flushBenchWrites, type BenchResult } from './measure.js';
import { watchBenchSetup } from './watch-setup.js';

const COUNT = Number(process.env['BENCH_WATCH_COUNT'] ?? 10_000);
const SIZE = 10 * 1024;

export async function watchAppBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-watch-app-');
  const { engine, inbox, staging } = watchBenchSetup(dir);
  const out = join(dir, 'proofs');
  try {
    log(`writing ${COUNT} files of 10 KB to drop...`);
    const filler = 'x'.repeat(SIZE - 64);
    for (let i = 0; i < COUNT; i++) writeFileSync(join(staging, `diploma-${i}.txt`), `Diploma no. ${i}\n${filler}`.padEnd(SIZE, '.'));
    const added = await engine.addPartner({ name: 'Bench Watch App', issuingIntervalSeconds: 3600 });
    await engine.issuing.ctx.chains.client('local'); // start anvil before the clock runs
    const context = createAppContext({ engine, partner: { id: added.partner_id, name: added.name } });
    let events = 0;
    context.events.subscribe((event) => {
      if (event.type === 'watch-folder') events++;
    });
    const handlers = createIpcHandlers(context);
    const folder = await handlers['watchFolders:add']({ path: inbox, outDir: out, tags: ['bench-watch'] });
    const counts = async () => (await handlers['watchFolders:list']()).folders.find((f) => f.id === folder.id)!.counts;
    const until = async (what: string, done: (c: Awaited<ReturnType<typeof counts>>) => boolean) => {
      for (;;) {
        const c = await counts();
        if (c.failed + c.duplicates > 0) throw new Error(`unexpected while waiting for ${what}: ${JSON.stringify(c)}`);
        if (done(c)) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    log(`dropping ${COUNT} files into a watch folder added through the app...`);
    flushBenchWrites();
    const rss = new RssSampler();
    const started = process.hrtime.bigint();
    const since = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9;
    for (let i = 0; i < COUNT; i++) renameSync(join(staging, `diploma-${i}.txt`), join(inbox, `diploma-${i}.txt`));
    const machine = observeMachine();
    await until('every file found', (c) => c.seen >= COUNT);
    const found = since(started);
    log(`  all found and journaled after ${found.toFixed(1)} s`);
    await until('every file scheduled', (c) => c.waiting >= COUNT);
    const intake = since(started);
    log(`  all scheduled after ${intake.toFixed(1)} s; issuing now...`);

    const issuingFrom = process.hrtime.bigint();
    const job = await handlers['jobs:issueNow']('local');
    const service = context.require().service;
    while ((await service.getJob(job.uid)).status !== 'finished') await new Promise((r) => setTimeout(r, 20));
    const issuing = since(issuingFrom);
    log(`  job finished after ${issuing.toFixed(1)} s more; waiting for the proofs...`);

    const proofsFrom = process.hrtime.bigint();
    await until('every proof written', (c) => c.issued >= COUNT);
    const proofs = since(proofsFrom);
    const total = since(started);
    const peak = rss.peakMiB();
    rss.stop();
    const window = machine.end();
    const written = readdirSync(out).filter((f) => f.endsWith('.proof.json')).length;
    if (written !== COUNT) throw new Error(`expected ${COUNT} proofs in ${out}, found ${written}`);
    log(`  ${COUNT} proofs written ${proofs.toFixed(1)} s later; ${events} watch-folder events sent meanwhile`);
    const rate = (seconds: number) => `${Math.round(COUNT / Math.max(seconds, 1e-3)).toLocaleString('en-US')} files/s`;
    return [
      { name: `watch folder (app): ${COUNT} files of 10 KB, drop → all proofs written`, value: total, unit: 's', machine: window },
      { name: 'watch folder (app): files per second, drop → all proofs written', value: COUNT / total, unit: 'files/s', target: { value: 1_000, better: 'higher' }, machine: window },
      { name: 'watch folder (app): found and journaled (watcher, first look)', value: found, unit: 's', machine: window, notes: [rate(found)] },
      { name: 'watch folder (app): intake (settle 1 s, hash, upload, schedule)', value: intake, unit: 's', machine: window, notes: [`${rate(intake - found)} after all were found`] },
      { name: 'watch folder (app): issuing the job on the local chain', value: issuing, unit: 's', machine: window },
      { name: 'watch folder (app): proofs written, originals filed', value: proofs, unit: 's', machine: window, notes: [rate(proofs)] },
      { name: 'watch folder (app): watch-folder events to the window', value: events, unit: 'events' },
      { name: 'watch folder (app), peak RSS', value: peak, unit: 'MiB', machine: window },
    ];
  } finally {
    await stopWatchFolders();
    await engine.close();
  }
}
