/**
 * Engine part 1 benchmarks: creating, filtering and scheduling 100,000 credentials on a
 * real SQLite file, through the IssuingService the app uses. Each figure is repeated in rounds
 * (of 20,000 credentials, or 1,000 queries) until the rounds agree; the first five rounds of
 * creation build the 100,000 the later figures need.
 */
import { Engine } from '../main/engine/index.js';
import type { CreateCredentialBody } from '../common/requests.js';
import { benchDir, RssSampler, convergence, percentile, repeatUntilStable, repeatedFigure, timed, type BenchResult } from './measure.js';

const COUNT = 100_000;
const COHORTS = 20;
const ROUND = 20_000;
/** Rounds of creation: enough for COUNT, then more only while the rounds disagree. */
const CREATE_ROUNDS = { minRuns: COUNT / ROUND, maxRuns: COUNT / ROUND + 3, maxMs: 120_000 };

function body(i: number): CreateCredentialBody {
  return {
    title: `Diploma ${i}`,
    metadata: { student: `Student ${i}`, number: i, programme: 'Computer Science', grade: (i % 40) / 10 },
    tags: [`cohort-${String(i % COHORTS).padStart(2, '0')}`, `year-${2000 + (i % 25)}`],
  };
}

export async function engineBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-');
  const engine = Engine.open({ dataDir: dir, sweepIntervalMs: false });
  const rss = new RssSampler();
  const results: BenchResult[] = [];
  try {
    const one = engine.serviceFor(engine.partners.add({ name: 'One at a time' }).partner_id);
    const bulk = engine.serviceFor(engine.partners.add({ name: 'Bulk' }).partner_id);

    log(`creating ${COUNT} credentials one call at a time (rounds of ${ROUND})...`);
    let created = 0;
    const single = await repeatUntilStable(async () => {
      const { ms } = await timed(async () => {
        for (let i = created; i < created + ROUND; i++) await one.createCredential(body(i));
      });
      created += ROUND;
      return ROUND / (ms / 1000);
    }, CREATE_ROUNDS);
    results.push({ name: 'create credentials, one call each', ...repeatedFigure(single), unit: 'credentials/s', target: { value: 10_000, better: 'higher' } });

    log(`creating ${COUNT} credentials in bulk (batches of 10,000, rounds of ${ROUND})...`);
    let bulkCreated = 0;
    const batched = await repeatUntilStable(async () => {
      const { ms } = await timed(async () => {
        for (let start = bulkCreated; start < bulkCreated + ROUND; start += 10_000) {
          await bulk.createCredentials(Array.from({ length: 10_000 }, (_, k) => body(start + k)));
        }
      });
      bulkCreated += ROUND;
      return ROUND / (ms / 1000);
    }, CREATE_ROUNDS);
    results.push({ name: 'create credentials, bulk', ...repeatedFigure(batched), unit: 'credentials/s', target: { value: 50_000, better: 'higher' } });

    log('tag-filtered pages of 20 out of 100,000...');
    const filters = [
      { and_tags: 'cohort-03' },
      { or_tags: 'cohort-05,cohort-06' },
      { and_tags: 'cohort-07,year-2007' },
      { and_tags: 'year-2011', sort_by: 'title', order: 'desc' },
    ];
    const samples: number[] = [];
    const p50s: number[] = [];
    const p99 = await repeatUntilStable(async () => {
      const round: number[] = [];
      for (let i = 0; i < 1_000; i++) {
        const filter = filters[i % filters.length]!;
        const page = 1 + (i % 50);
        const { ms, result } = await timed(() => one.listCredentials({ ...filter, per_page: 20, page }));
        if (result.items.length !== 20) throw new Error(`expected a full page for ${JSON.stringify(filter)} page ${page}`);
        round.push(ms);
      }
      samples.push(...round);
      p50s.push(percentile(round, 50));
      return percentile(round, 99);
    });
    // Each as the median of the last rounds' percentiles, with the same rule's spread.
    const p50 = convergence(p50s);
    results.push({
      name: 'tag-filtered page of 20, p50',
      value: p50.value,
      repeat: { runs: p50s.length, spread: p50.spread, converged: p50.converged },
      unit: 'ms',
      machine: p99.machine,
      notes: [`p50 of each round of 1,000 queries (${samples.length} in all)`],
    });
    results.push({ name: 'tag-filtered page of 20, p99', ...repeatedFigure(p99), unit: 'ms', target: { value: 5, better: 'lower' }, notes: ['p99 of each round of 1,000 queries'] });

    log(`scheduling ${COUNT} credentials (calls of 10,000, rounds of ${ROUND})...`);
    const uids: string[] = [];
    for (let p = 1; uids.length < bulkCreated; p++) {
      const page = await bulk.listCredentials({ per_page: 10_000, page: p });
      uids.push(...page.items.map((c) => c.uid));
    }
    let next = 0;
    // Each round schedules credentials not yet scheduled: as many rounds as there are credentials for.
    const scheduled = await repeatUntilStable(
      async () => {
        const { ms } = await timed(async () => {
          for (let start = next; start < next + ROUND; start += 10_000) {
            await bulk.scheduleCredentials({ engine: 'local', credentials: uids.slice(start, start + 10_000) });
          }
        });
        next += ROUND;
        return ROUND / (ms / 1000);
      },
      { maxRuns: Math.floor(uids.length / ROUND) },
    );
    results.push({ name: 'schedule credentials', ...repeatedFigure(scheduled), unit: 'credentials/s' });
    results.push({ name: 'engine benchmarks, peak RSS', value: rss.peakMiB(), unit: 'MiB' });
    return results;
  } finally {
    rss.stop();
    engine.close();
  }
}
