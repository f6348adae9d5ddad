/**
 * The records window with a word search on both stores: the same 100,000 credentials on a
 * SQLite file and in a throwaway PostgreSQL cluster (started as the tests start it), the same
 * windows of 100 with their totals, each PostgreSQL figure also as a ratio to SQLite's.
 *
 * `npm run bench -- --only records-search-stores` runs it alone.
 */
import { fileURLToPath } from 'node:url';
import type { RecordSort } from '../common/records.js';
import { ManualClock } from '../main/engine/clock.js';
import { parseCreateCredentialBody } from '../main/engine/credential-input.js';
import { insertCredentials } from '../main/engine/credentials.js';
import { openDatabase, type Db } from '../main/engine/database.js';
import { EngineCatalog } from '../main/engine/engine-catalog.js';
import { PartnerRegistry } from '../main/engine/partners.js';
import { filterWindowIds, readRecordRows } from '../main/engine/records/records-window.js';
import type { PartnerScope } from '../main/engine/scope.js';
import { openPostgresDatabase } from '../main/engine/store/open-postgres.js';
import startCluster from '../test/support/postgres-cluster.js';
import { createTestDatabase } from '../test/support/postgres-database.js';
import { benchDir, percentile, timed, type BenchResult } from './measure.js';

const COUNT = 100_000;
const FIRSTS = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Margaret', 'Niklaus', 'Radia', 'Tim', 'Ken', 'Dennis', 'Sophie', 'Karen'];
const LASTS = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'McCarthy', 'Hamilton', 'Wirth', 'Perlman', 'Berners', 'Thompson', 'Ritchie', 'Wilson', 'Jones'];
const PROGRAMMES = ['Computer Science', 'Mathematics', 'Physics', 'History', 'Chemistry', 'Biology', 'Philosophy', 'Economics'];

function body(i: number) {
  return parseCreateCredentialBody({
    title: `Diploma ${PROGRAMMES[i % PROGRAMMES.length]} ${i}`,
    metadata: {
      student: `${FIRSTS[i % FIRSTS.length]} ${LASTS[(i * 7) % LASTS.length]}`,
      number: `S${String(i).padStart(6, '0')}`,
      city: i % 3 === 0 ? 'Zürich' : i % 3 === 1 ? 'Bern' : 'Genève',
    },
    tags: [i % 2 === 0 ? 'class-2026' : 'class-2025'],
  });
}

/**
 * The searches measured, each a list of texts asked once each (a new text is a new total), in
 * one sort. A rare word matches one credential; a prefix of a surname 1 in 16; a city a third.
 */
const SEARCHES: { name: string; texts: string[]; sort: RecordSort }[] = [
  { name: 'a rare word', texts: Array.from({ length: 15 }, (_, i) => `S${String((i * 6151) % COUNT).padStart(6, '0')}`), sort: { by: 'upload_date', order: 'asc' } },
  { name: 'a prefix matching 1 in 16', texts: ['lovel', 'turin', 'hopp', 'dijk', 'lisk', 'knut', 'alle', 'mccar', 'hamil', 'wirt', 'perl'], sort: { by: 'upload_date', order: 'desc' } },
  { name: 'a word matching a third, by title', texts: ['zurich', 'Zürich', 'zuri', 'genève', 'geneve', 'gene', 'bern', 'ber'], sort: { by: 'title', order: 'asc' } },
  { name: 'two words', texts: ['ada zurich', 'grace bern', 'alan gen', 'tim zur', 'ken ber', 'sophie gen'], sort: { by: 'upload_date', order: 'asc' } },
];

/** A Partner's scope for reading and creating credentials (no files, no issuing). */
function scopeOn(db: Db, partner: { id: string; name: string }, clock: ManualClock): PartnerScope {
  return { db, partner, clock, actor: 'bench', catalog: new EngineCatalog() } as unknown as PartnerScope;
}

/** Fills a store and measures each search's windows; ms per search kind, p50. */
async function measureStore(db: Db, log: (line: string) => void, label: string): Promise<Map<string, number>> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const partner = new PartnerRegistry(db, clock).add({ name: 'Bench' });
  const scope = scopeOn(db, { id: partner.partner_id, name: 'Bench' }, clock);
  log(`records-search-stores: creating ${COUNT} credentials on ${label}...`);
  for (let start = 0; start < COUNT; start += 10_000) insertCredentials(scope, Array.from({ length: 10_000 }, (_, k) => body(start + k)));
  if (label === 'PostgreSQL') db.exec('ANALYZE');
  const window = (search: string, sort: RecordSort) => {
    const { ids } = filterWindowIds(scope, { search }, sort, 0, 100);
    return readRecordRows(scope, ids, ['local']).length;
  };
  window('warm', { by: 'upload_date', order: 'asc' });
  const out = new Map<string, number>();
  for (const search of SEARCHES) {
    const samples: number[] = [];
    for (const text of search.texts) samples.push((await timed(() => window(text, search.sort))).ms);
    out.set(search.name, percentile(samples, 50));
  }
  return out;
}

export async function recordsSearchStoresBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const sqlite = openDatabase(benchDir('proofdesk-bench-search-'));
  let onSqlite: Map<string, number>;
  try {
    onSqlite = await measureStore(sqlite, log, 'SQLite');
  } finally {
    sqlite.close();
  }
  const stopCluster = await startCluster();
  let onPostgres: Map<string, number>;
  try {
    const database = createTestDatabase({ icuLocale: 'en-US' });
    const postgres = openPostgresDatabase(database.url);
    try {
      onPostgres = await measureStore(postgres, log, 'PostgreSQL');
    } finally {
      postgres.close();
      database.drop();
    }
  } finally {
    await stopCluster();
  }
  const results: BenchResult[] = [];
  for (const { name } of SEARCHES) {
    const lite = onSqlite.get(name)!;
    const pg = onPostgres.get(name)!;
    results.push({ name: `records search, ${COUNT} credentials, SQLite: ${name} (window of 100 + total), p50`, value: lite, unit: 'ms' });
    results.push({
      name: `records search, ${COUNT} credentials, PostgreSQL: ${name} (window of 100 + total), p50`,
      value: pg,
      unit: 'ms',
      ratio: { value: pg / lite, against: 'SQLite' },
    });
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await recordsSearchStoresBenchmarks((line) => process.stderr.write(`${line}\n`))) console.log(`${r.name}: ${r.value.toFixed(1)} ${r.unit}`);
  process.exit(0);
}
