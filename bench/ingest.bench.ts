/**
 * Watched-folder benchmark: 10,000 small files dropped at once (renamed into the watched folder,
 * as a file manager's move does) → the time until every one is uploaded, made a credential and
 * scheduled, through the ingester's whole path (watcher, settling with the default 1 s stable
 * time, hashing, journal, create-and-schedule on the embedded engine). Issuing is not part of it
 * (the Partner's interval is an hour).
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../main/engine/index.js';
import { Ingester } from '../main/ingest/index.js';
import { RssSampler, type BenchResult } from './measure.js';

const COUNT = 10_000;

export async function ingestBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'proofdesk-bench-ingest-'));
  const inbox = join(dir, 'inbox');
  const staging = join(dir, 'staging');
  mkdirSync(inbox);
  mkdirSync(staging);
  const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false });
  let ingester: Ingester | undefined;
  try {
    log(`writing ${COUNT} small files to drop...`);
    for (let i = 0; i < COUNT; i++) writeFileSync(join(staging, `certificate-${i}.txt`), `Certificate of attendance no. ${i}, issued to participant ${i}\n`);
    const partner = engine.partners.add({ name: 'Bench Hot Folder', issuingIntervalSeconds: 3600 });
    ingester = await Ingester.start({ service: engine.serviceFor(partner.partner_id), dataDir: join(dir, 'data'), folders: [{ path: inbox }] });

    log(`dropping ${COUNT} files into a watched folder...`);
    const rss = new RssSampler();
    const started = process.hrtime.bigint();
    for (let i = 0; i < COUNT; i++) renameSync(join(staging, `certificate-${i}.txt`), join(inbox, `certificate-${i}.txt`));
    for (;;) {
      const progress = ingester.progress();
      if (progress.waitingForJob >= COUNT) break;
      if (progress.failed + progress.duplicates > 0) throw new Error(`unexpected: ${JSON.stringify(progress)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const peak = rss.peakMiB();
    rss.stop();
    return [
      { name: `watched folder: ${COUNT} files dropped → all scheduled`, value: seconds, unit: 's' },
      { name: 'watched folder: files scheduled per second (1 s stable time included)', value: COUNT / seconds, unit: 'files/s', target: { value: 1_000, better: 'higher' } },
      { name: 'watched folder, peak RSS', value: peak, unit: 'MiB' },
    ];
  } finally {
    await ingester?.stop();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
