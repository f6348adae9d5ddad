/**
 * Engine part 1 benchmarks: creating, filtering and scheduling 100,000 credentials on a
 * real SQLite file, through the IssuingService the app uses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../main/engine/index.js';
import type { CreateCredentialBody } from '../common/requests.js';
import { RssSampler, percentile, timed, type BenchResult } from './measure.js';

const COUNT = 100_000;
const COHORTS = 20;

function body(i: number): CreateCredentialBody {
  return {
    title: `Diploma ${i}`,
    metadata: { student: `Student ${i}`, number: i, programme: 'Computer Science', grade: (i % 40) / 10 },
    tags: [`cohort-${String(i % COHORTS).padStart(2, '0')}`, `year-${2000 + (i % 25)}`],
  };
}

export async function engineBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'proofdesk-bench-'));
  const engine = Engine.open({ dataDir: dir, sweepIntervalMs: false });
  const rss = new RssSampler();
  const results: BenchResult[] = [];
  try {
    const one = engine.serviceFor(engine.partners.add({ name: 'One at a time' }).partner_id);
    const bulk = engine.serviceFor(engine.partners.add({ name: 'Bulk' }).partner_id);

    log(`creating ${COUNT} credentials one call at a time...`);
    const single = await timed(async () => {
      for (let i = 0; i < COUNT; i++) await one.createCredential(body(i));
    });
    results.push({ name: 'create credentials, one call each', value: COUNT / (single.ms / 1000), unit: 'credentials/s', target: { value: 10_000, better: 'higher' } });

    log(`creating ${COUNT} credentials in bulk (batches of 10,000)...`);
    const batched = await timed(async () => {
      for (let start = 0; start < COUNT; start += 10_000) {
        await bulk.createCredentials(Array.from({ length: 10_000 }, (_, k) => body(start + k)));
      }
    });
    results.push({ name: 'create credentials, bulk', value: COUNT / (batched.ms / 1000), unit: 'credentials/s', target: { value: 50_000, better: 'higher' } });

    log('tag-filtered pages of 20 out of 100,000...');
    const filters = [
      { and_tags: 'cohort-03' },
      { or_tags: 'cohort-05,cohort-06' },
      { and_tags: 'cohort-07,year-2007' },
      { and_tags: 'year-2011', sort_by: 'title', order: 'desc' },
    ];
    const samples: number[] = [];
    for (let i = 0; i < 2_000; i++) {
      const filter = filters[i % filters.length]!;
      const page = 1 + (i % 50);
      const { ms, result } = await timed(() => one.listCredentials({ ...filter, per_page: 20, page }));
      if (result.items.length !== 20) throw new Error(`expected a full page for ${JSON.stringify(filter)} page ${page}`);
      samples.push(ms);
    }
    results.push({ name: 'tag-filtered page of 20, p50', value: percentile(samples, 50), unit: 'ms' });
    results.push({ name: 'tag-filtered page of 20, p99', value: percentile(samples, 99), unit: 'ms', target: { value: 5, better: 'lower' } });

    log(`scheduling ${COUNT} credentials (calls of 10,000)...`);
    const uids: string[] = [];
    for (let p = 1; uids.length < COUNT; p++) {
      const page = await bulk.listCredentials({ per_page: 10_000, page: p });
      uids.push(...page.items.map((c) => c.uid));
    }
    const scheduled = await timed(async () => {
      for (let start = 0; start < COUNT; start += 10_000) {
        await bulk.scheduleCredentials({ engine: 'local', credentials: uids.slice(start, start + 10_000) });
      }
    });
    results.push({ name: 'schedule credentials', value: COUNT / (scheduled.ms / 1000), unit: 'credentials/s' });
    results.push({ name: 'engine benchmarks, peak RSS', value: rss.peakMiB(), unit: 'MiB' });
    return results;
  } finally {
    rss.stop();
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
