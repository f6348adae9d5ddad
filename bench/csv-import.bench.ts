/**
 * CSV import's check in the dialog, on a real engine: the first preview of a file (read, parse,
 * check every row) and the re-check after one edited cell (the same check the import runs, the
 * file kept parsed), for 5,000 and 50,000 rows, as main's handler answers them.
 *
 * `npm run bench -- --only csv-import` runs it; `npx tsx bench/csv-import.bench.ts` alone.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppContext } from '../main/app/app-context.js';
import { createIpcHandlers } from '../main/app/ipc-handlers.js';
import { Engine } from '../main/engine/index.js';
import { benchDir, percentile, timed, type BenchResult } from './measure.js';

const SIZES = [5_000, 50_000];
const EDITS = 9;

/** A term's transcripts: every third row links to the one before; one row in 997 has no title, one in 1,009 a bad date. */
function csvText(rows: number): string {
  const lines = Array.from({ length: rows }, (_, i) => {
    const title = i % 997 === 0 ? '' : `Transcript ${i}`;
    const expiry = i % 1009 === 0 ? '31/12/2030' : '';
    const link = i > 0 && i % 3 === 0 ? `k${i - 1}` : '';
    return `${title},k${i},transcript;spring-2026,${expiry},${link},Student ${i},Mathematics,A`;
  });
  return ['title,key,tags,expiry_date,link,meta.student,meta.course,meta.grade', ...lines].join('\n');
}

export async function csvImportBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-csv-import-');
  const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false });
  const results: BenchResult[] = [];
  try {
    const added = engine.partners.add({ name: 'CSV import' });
    const handlers = createIpcHandlers(createAppContext({ engine, partner: { id: added.partner_id, name: added.name } }));
    for (const rows of SIZES) {
      const path = join(dir, `transcripts-${rows}.csv`);
      writeFileSync(path, csvText(rows));
      log(`csv-import: ${rows} rows...`);
      const first = await timed(() => handlers['csvImport:preview'](path, null, []));
      const mapping = first.result.mapping;
      const samples: number[] = [];
      const edits: { row: number; column: string; value: string }[] = [];
      for (let e = 0; e < EDITS; e++) {
        edits.push({ row: 1 + e * 500, column: 'title', value: `Fixed ${e}` });
        samples.push((await timed(() => handlers['csvImport:preview'](path, mapping, edits))).ms);
      }
      const label = rows.toLocaleString('en-US');
      results.push({ name: `csv-import: ${label} rows, first preview`, value: first.ms, unit: 'ms' });
      results.push({ name: `csv-import: ${label} rows, re-check after an edited cell (median)`, value: percentile(samples, 50), unit: 'ms' });
    }
    return results;
  } finally {
    await engine.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await csvImportBenchmarks((line) => process.stderr.write(`${line}\n`));
  for (const r of results) console.log(`${r.name}: ${r.value.toFixed(2)} ${r.unit}`);
}
