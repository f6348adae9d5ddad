/**
 * One issuing job in a process of its own, so its peak RSS is the kernel's high-water mark
 * (getrusage maxrss) of nothing but creating, scheduling and issuing it — a sampling timer
 * misses the peak of a long synchronous step. Run by issuing.bench.ts, bundled as the CLI is
 * (scripts/build-bench-job.mjs): `node out/bench/issuing-job.js COUNT DATA_DIR [profile]` (or
 * from source, `node --import tsx bench/issuing-job.ts …`); prints one JSON line on stdout.
 * With `profile`, the engine's stages are timed (stage-timing.ts) and returned as `stages`.
 * The data directory stays, with its MemorySecretStore keys gone: what follows only reads.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../main/engine/index.js';
import { stage, stageTotals, threadCpuNs, timeStages, type StageTime } from '../main/engine/stage-timing.js';
import { indexPendingCredentials } from '../main/engine/search-index.js';
import { MemorySecretStore } from '../main/secrets/index.js';
import { diskByTable, type TableBytes } from './disk-by-table.js';
import { metadataOf } from './transcript.js';

const BATCH = 10_000;

export interface IssuingJobFigures {
  count: number;
  jobUid: string;
  partnerId: string;
  /**
   * Create → finished: the first createCredentials call until the job is `finished`, with the
   * engine open, the Partner added and the chain started (as in a running app or `serve`), and
   * without the time the bench spends making the credentials' bodies.
   */
  ms: number;
  peakRssMiB: number;
  /** Database file + WAL after a checkpoint. */
  databaseBytes: number;
  /** Bytes of the credentials' metadata JSON. */
  metadataBytes: number;
  /** The database's bytes per table (its indexes included), largest first. */
  tables: TableBytes[];
  /**
   * With `profile`: wall and CPU ms per stage (stage-timing.ts); `wall` is from the process's start to
   * `finished` (its CPU: the whole process's, every thread); `main thread`, the same span's CPU of that thread.
   */
  stages?: Record<string, StageTime>;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** CPU time of the whole process so far (every thread), ms. */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Memory at a phase, on stderr (where the peak comes from). */
function phase(name: string): void {
  const m = process.memoryUsage();
  const mib = (n: number) => (n / 1024 / 1024).toFixed(0);
  process.stderr.write(`  [${name}] rss ${mib(m.rss)} MiB (peak ${mib(process.resourceUsage().maxRSS * 1024)}), heap ${mib(m.heapUsed)}/${mib(m.heapTotal)}, external ${mib(m.external)}\n`);
}

/**
 * The search index's work for the job's credentials, done apart after the job (ms): creating
 * them only queued them (search-index.ts), and here they are indexed as the next search or a
 * long-running process's background indexer does it, the same function, chunk by chunk.
 */
function indexQueued(db: Database.Database): StageTime {
  const cpu = threadCpuNs();
  const start = process.hrtime.bigint();
  indexPendingCredentials(db);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: Number(threadCpuNs() - cpu) / 1e6 };
}

async function main(count: number, dataDir: string, profile: boolean): Promise<IssuingJobFigures> {
  // Node's clock starts with the process: this is its start and the imports.
  const processStart = { ms: performance.now(), cpuMs: Number(threadCpuNs()) / 1e6 };
  timeStages(profile);
  const engine = stage('engine open', () => Engine.open({ dataDir, sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { onError: () => undefined } }));
  let jobUid: string;
  let partnerId: string;
  let finishedAt: StageTime = { ms: 0, cpuMs: 0 };
  let mainThreadCpuMs = 0;
  let ms = 0;
  try {
    const partner = await engine.addPartner({ name: 'Bench University' });
    partnerId = partner.partner_id;
    const service = engine.serviceFor(partner.partner_id);
    await stage('chain start', () => engine.issuing.ctx.chains.client('local'));
    const start = process.hrtime.bigint();
    let inputNs = 0n;
    for (let from = 0; from < count; from += BATCH) {
      const inputStart = process.hrtime.bigint();
      const bodies = stage('bench input', () =>
        Array.from({ length: Math.min(BATCH, count - from) }, (_, k) => ({
          title: `Diploma ${from + k}`,
          metadata: metadataOf(from + k),
          tags: ['graduates-2026'],
        })),
      );
      inputNs += process.hrtime.bigint() - inputStart;
      const credentials = await service.createCredentials(bodies);
      await service.scheduleCredentials({ engine: 'local', credentials: credentials.map((c) => c.uid) });
      if ((from / BATCH) % 10 === 9) phase(`${from + BATCH} created and scheduled`);
    }
    phase('all created and scheduled');
    const job = await service.issueJobNow({ engine: 'local' });
    phase('issued now (certificates built, transaction sent)');
    while ((await service.getJob(job.uid)).status !== 'finished') await engine.issuing.tick();
    ms = Number(process.hrtime.bigint() - start - inputNs) / 1e6;
    finishedAt = { ms: performance.now(), cpuMs: processCpuMs() };
    mainThreadCpuMs = Number(threadCpuNs()) / 1e6;
    phase('finished');
    jobUid = job.uid;
  } finally {
    await engine.close();
  }
  const stages: Record<string, StageTime> | undefined = profile ? { ...stageTotals(), 'process start': processStart, wall: finishedAt, 'main thread': { ms: finishedAt.ms, cpuMs: mainThreadCpuMs } } : undefined;
  const file = join(dataDir, 'proofdesk.sqlite');
  const db = new Database(file);
  // Indexed before the disk is counted, so the figures hold the search index as it ends up.
  const index = indexQueued(db);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const metadataBytes = db.prepare('SELECT sum(length(CAST(metadata AS BLOB))) FROM credentials').pluck().get() as number;
  const tables = diskByTable(db);
  if (stages) stages['index (replayed)'] = index;
  db.close();
  return {
    count,
    jobUid,
    partnerId,
    ms,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    databaseBytes: sizeOf(file) + sizeOf(`${file}-wal`),
    metadataBytes,
    tables,
    ...(stages ? { stages } : {}),
  };
}

const [count, dataDir, mode] = process.argv.slice(2);
if (!count || !dataDir) throw new Error('usage: issuing-job.ts COUNT DATA_DIR [profile]');
process.stdout.write(`${JSON.stringify(await main(Number(count), dataDir, mode === 'profile'))}\n`);
process.exit(0);
