/**
 * List exports on a Partner with 100,000 credentials on a real SQLite file: the Records list
 * (every row, the table's columns) written to CSV and to an Excel workbook as main writes them
 * (main/workspace/list-export), with the rows per second and how much main's resident memory grew
 * while writing (the export streams: it should not grow with the list).
 *
 * `npm run bench -- --only list-export` runs it; `npx tsx bench/list-export.bench.ts` alone.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ListExportFormat } from '../common/ipc/list-export.js';
import { DEFAULT_RECORD_SORT } from '../common/records.js';
import type { TaskContext } from '../common/tasks.js';
import { Engine } from '../main/engine/index.js';
import { recordRows } from '../main/workspace/list-export/list-rows.js';
import { writeListExport } from '../main/workspace/list-export/write-list-export.js';
import { recordWindow } from '../main/workspace/record-query.js';
import { RssSampler, benchDir, timed, type BenchResult } from './measure.js';

const COUNT = 100_000;
const COLUMNS = ['uid', 'title', 'tags', 'files', 'linked', 'upload_date', 'expiry', 'state:local'];

function task(): TaskContext {
  return { signal: new AbortController().signal, progress: () => undefined };
}

export async function listExportBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-list-export-');
  const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false });
  const results: BenchResult[] = [];
  try {
    const partnerId = engine.partners.add({ name: 'List export' }).partner_id;
    const service = engine.serviceFor(partnerId);
    log(`list-export: creating ${COUNT} credentials...`);
    for (let start = 0; start < COUNT; start += 10_000) {
      await service.createCredentials(Array.from({ length: 10_000 }, (_, k) => ({ title: `Diploma, "class" ${start + k}`, metadata: { n: start + k }, tags: ['class-2026', `cohort-${(start + k) % 20}`] })));
    }
    const scope = engine.scopeFor(partnerId);
    for (const format of ['csv', 'xlsx'] as ListExportFormat[]) {
      log(`list-export: ${COUNT} records to ${format}...`);
      const path = join(dir, `records.${format}`);
      global.gc?.();
      const before = process.memoryUsage().rss / 1024 / 1024;
      const rss = new RssSampler(10);
      const written = await timed(() => writeListExport({ format, path, sheetName: 'Records' }, recordRows(async (w) => recordWindow(scope, w), {}, DEFAULT_RECORD_SORT, COLUMNS), task()));
      const peak = rss.peakMiB();
      rss.stop();
      if (written.result !== COUNT) throw new Error(`wrote ${written.result} of ${COUNT} rows`);
      results.push({ name: `list-export: 100,000 records to ${format.toUpperCase()}`, value: COUNT / (written.ms / 1000), unit: 'rows/s' });
      results.push({ name: `list-export: 100,000 records to ${format.toUpperCase()}, wall time`, value: written.ms, unit: 'ms' });
      results.push({ name: `list-export: 100,000 records to ${format.toUpperCase()}, RSS growth while writing`, value: peak - before, unit: 'MiB' });
      results.push({ name: `list-export: 100,000 records to ${format.toUpperCase()}, file size`, value: statSync(path).size / 1024 / 1024, unit: 'MiB' });
    }
    return results;
  } finally {
    await engine.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await listExportBenchmarks((line) => process.stderr.write(`${line}\n`));
  for (const r of results) console.log(`${r.name}: ${r.value.toFixed(2)} ${r.unit}${r.target ? ` (target ${r.target.better === 'lower' ? '<=' : '>='} ${r.target.value})` : ''}`);
}
