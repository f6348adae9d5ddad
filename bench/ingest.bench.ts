/**
 * Watched-folder benchmark: 10,000 small files dropped at once (renamed into the watched folder,
 * as a file manager's move does) → the time until every one is uploaded, made a credential and
 * scheduled, through the ingester's whole path (watcher, settling with the default 1 s stable
 * time, hashing, journal, create-and-schedule on the embedded engine). Issuing is not part of it
 * (the Partner's interval is an hour). Its peer, measured in the same run: reading the same
 * files from disk and hashing them with SHA-256, one after the other.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../main/engine/index.js';
import { Ingester } from '../main/ingest/index.js';
import { observeMachine } from './machine.js';
import { RssSampler, repeatUntilStable, repeatedFigure, timed, type BenchResult } from './measure.js';

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

    log(`the peer: SHA-256 of the same ${COUNT} files read from disk...`);
    const raw = await repeatUntilStable(async () => {
      const { ms } = await timed(() => {
        for (let i = 0; i < COUNT; i++) createHash('sha256').update(readFileSync(join(staging, `certificate-${i}.txt`))).digest();
      });
      return COUNT / (ms / 1000);
    });

    log(`dropping ${COUNT} files into a watched folder...`);
    const dropping = observeMachine();
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
    const machine = dropping.end();
    const peak = rss.peakMiB();
    rss.stop();
    const rate = COUNT / seconds;
    const once = ['too long to repeat'];
    return [
      { name: `watched folder: ${COUNT} files dropped → all scheduled`, value: seconds, unit: 's', machine, notes: once },
      {
        name: 'watched folder: files scheduled per second (1 s stable time included)',
        value: rate,
        unit: 'files/s',
        target: { value: 1_000, better: 'higher' },
        machine,
        ratio: { value: rate / raw.value, against: 'raw read+SHA-256' },
        notes: once,
      },
      { name: 'peer: read + SHA-256 of the same files, one by one', ...repeatedFigure(raw), unit: 'files/s' },
      { name: 'watched folder, peak RSS', value: peak, unit: 'MiB', machine },
    ];
  } finally {
    await ingester?.stop();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
