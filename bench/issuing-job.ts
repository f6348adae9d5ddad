/**
 * One issuing job in a process of its own, so its peak RSS is the kernel's high-water mark
 * (getrusage maxrss) of nothing but creating, scheduling and issuing it — a sampling timer
 * misses the peak of a long synchronous step. Run by issuing.bench.ts:
 * `node --import tsx bench/issuing-job.ts COUNT DATA_DIR`; prints one JSON line on stdout.
 * The data directory stays, with its MemorySecretStore keys gone: what follows only reads.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../main/engine/index.js';
import { MemorySecretStore } from '../main/secrets/index.js';

const BATCH = 10_000;

const WORDS = 'advanced applied algebra analysis art biology calculus chemistry civil data design digital economics ethics finance french geometry history law logic marketing media music networks optics physics policy robotics security statistics systems theory writing'.split(' ');

/**
 * ~1 KB of metadata (a transcript), varied per credential the way real records are: what the
 * issue's "~4.1 KB per credential for ~1 KB of metadata" was measured with.
 */
function metadataOf(n: number): Record<string, unknown> {
  let seed = n * 2_654_435_761;
  const next = (k: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648), seed % k);
  const phrase = (words: number) => Array.from({ length: words }, () => WORDS[next(WORDS.length)]).join(' ');
  return {
    student: `Student ${n}`,
    student_number: `S${String(n).padStart(8, '0')}`,
    programme: 'Computer Science',
    grade: (n % 40) / 10,
    transcript: Array.from({ length: 12 }, () => ({ course: phrase(3), grade: next(100) / 10, credits: 5 })),
    remarks: phrase(12),
  };
}

export interface IssuingJobFigures {
  count: number;
  jobUid: string;
  partnerId: string;
  /** Create → finished. */
  ms: number;
  peakRssMiB: number;
  /** Database file + WAL after a checkpoint. */
  databaseBytes: number;
  /** Bytes of the credentials' metadata JSON. */
  metadataBytes: number;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Memory at a phase, on stderr (where the peak comes from). */
function phase(name: string): void {
  const m = process.memoryUsage();
  const mib = (n: number) => (n / 1024 / 1024).toFixed(0);
  process.stderr.write(`  [${name}] rss ${mib(m.rss)} MiB (peak ${mib(process.resourceUsage().maxRSS * 1024)}), heap ${mib(m.heapUsed)}/${mib(m.heapTotal)}, external ${mib(m.external)}\n`);
}

async function main(count: number, dataDir: string): Promise<IssuingJobFigures> {
  const engine = Engine.open({ dataDir, sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { onError: () => undefined } });
  let jobUid: string;
  let partnerId: string;
  const start = process.hrtime.bigint();
  try {
    const partner = await engine.addPartner({ name: 'Bench University' });
    partnerId = partner.partner_id;
    const service = engine.serviceFor(partner.partner_id);
    await engine.issuing.ctx.chains.client('local'); // start anvil before the clock runs
    for (let from = 0; from < count; from += BATCH) {
      const credentials = await service.createCredentials(
        Array.from({ length: Math.min(BATCH, count - from) }, (_, k) => ({
          title: `Diploma ${from + k}`,
          metadata: metadataOf(from + k),
          tags: ['graduates-2026'],
        })),
      );
      await service.scheduleCredentials({ engine: 'local', credentials: credentials.map((c) => c.uid) });
      if ((from / BATCH) % 10 === 9) phase(`${from + BATCH} created and scheduled`);
    }
    phase('all created and scheduled');
    const job = await service.issueJobNow({ engine: 'local' });
    phase('issued now (certificates built, transaction sent)');
    while ((await service.getJob(job.uid)).status !== 'finished') await engine.issuing.tick();
    phase('finished');
    jobUid = job.uid;
  } finally {
    await engine.close();
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const file = join(dataDir, 'proofdesk.sqlite');
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const metadataBytes = db.prepare('SELECT sum(length(CAST(metadata AS BLOB))) FROM credentials').pluck().get() as number;
  db.close();
  return {
    count,
    jobUid,
    partnerId,
    ms,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    databaseBytes: sizeOf(file) + sizeOf(`${file}-wal`),
    metadataBytes,
  };
}

const [count, dataDir] = process.argv.slice(2);
if (!count || !dataDir) throw new Error('usage: issuing-job.ts COUNT DATA_DIR');
process.stdout.write(`${JSON.stringify(await main(Number(count), dataDir))}\n`);
process.exit(0);
