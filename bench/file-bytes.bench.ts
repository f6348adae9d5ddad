/**
 * Uploaded files' bytes in and out of each store: a 300 MB upload streamed into the data
 * directory (SQLite) and into the database (PostgreSQL, a throwaway cluster started here), then
 * read back, in MB/s, with how much the process grew meanwhile (RSS sampled at every piece).
 *
 * `npm run bench -- --only file-bytes` runs it; `npx tsx bench/file-bytes.bench.ts` alone.
 */
import { randomFillSync } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../main/engine/clock.js';
import { openDatabase, type Db } from '../main/engine/database.js';
import { openFileBytes } from '../main/engine/file-bytes.js';
import { openPostgresDatabase } from '../main/engine/store/open-postgres.js';
import startPostgresCluster from '../test/support/postgres-cluster.js';
import { createTestDatabase } from '../test/support/postgres-database.js';
import { benchDir, type BenchResult } from './measure.js';

const MiB = 1024 * 1024;
const SIZE = 300 * MiB;
const PIECE = 64 * 1024;

/** Streams SIZE bytes into the store of `db` and back; figures named after `label`. */
async function measure(label: string, db: Db, dataDir: string, log: (line: string) => void): Promise<BenchResult[]> {
  const bytes = openFileBytes(db, dataDir, systemClock);
  // 17 pieces made once, cycled: the bench makes no garbage of its own.
  const pieces = Array.from({ length: 17 }, () => randomFillSync(Buffer.allocUnsafe(PIECE)));
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  async function* upload() {
    for (let i = 0; i < SIZE / PIECE; i++) {
      sample();
      yield pieces[i % pieces.length]!;
    }
  }
  try {
    log(`file-bytes: ${label}, 300 MB in...`);
    const t0 = performance.now();
    const staged = await bytes.stage({ data: upload() });
    bytes.commit(staged);
    const inMs = performance.now() - t0;
    const inPeak = peak;
    log(`file-bytes: ${label}, 300 MB out...`);
    const t1 = performance.now();
    let read = 0;
    for await (const piece of bytes.read(staged.hash) as AsyncIterable<Buffer>) {
      sample();
      read += piece.length;
    }
    if (read !== SIZE) throw new Error(`${label}: read back ${read} bytes of ${SIZE}`);
    const outMs = performance.now() - t1;
    return [
      { name: `file-bytes: ${label}, 300 MB upload streamed in`, value: SIZE / MiB / (inMs / 1000), unit: 'MiB/s', notes: [`RSS +${((inPeak - before) / MiB).toFixed(0)} MiB`] },
      { name: `file-bytes: ${label}, 300 MB read back`, value: SIZE / MiB / (outMs / 1000), unit: 'MiB/s', notes: [`RSS +${((peak - before) / MiB).toFixed(0)} MiB in and out`] },
    ];
  } finally {
    bytes.close();
  }
}

export async function fileBytesBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-file-bytes-');
  const sqlite = openDatabase(join(dir, 'data'));
  const results: BenchResult[] = [];
  try {
    results.push(...(await measure('SQLite (data directory)', sqlite, join(dir, 'data'), log)));
  } finally {
    sqlite.close();
  }
  log('file-bytes: starting a PostgreSQL cluster...');
  const stopCluster = await startPostgresCluster();
  try {
    const database = createTestDatabase();
    const postgres = openPostgresDatabase(database.url);
    try {
      results.push(...(await measure('PostgreSQL (database)', postgres, join(dir, 'unused'), log)));
    } finally {
      postgres.close();
      database.drop();
    }
  } finally {
    await stopCluster();
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await fileBytesBenchmarks((line) => process.stderr.write(`${line}\n`));
  for (const r of results) process.stdout.write(`${r.name}: ${r.value.toFixed(1)} ${r.unit} (${r.notes?.join('; ')})\n`);
}
