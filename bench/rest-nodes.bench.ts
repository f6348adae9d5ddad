/**
 * The REST service on each store and on two nodes: the built CLI's `serve` (out/cli, each node a
 * process of its own on loopback) on SQLite, on PostgreSQL, and two nodes sharing one PostgreSQL
 * database behind a round-robin client. Each set-up starts from a fresh store holding one Partner
 * with 1,000 credentials and is driven for a fixed time by the same mix of authenticated requests
 * (undici, CONCURRENCY requests in flight, the token fetched once): of every 10, 4 list a page of
 * 20 credentials (pages 1-50), 3 get one, 2 create one and 1 adds a tag to one. Requests/s, p50
 * and p99 per set-up, each also as a ratio to one node on SQLite. PostgreSQL is the tests'
 * throwaway cluster on the same machine (test/support/postgres-cluster.ts, durability off).
 *
 * `npm run bench -- --only rest-nodes`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { Engine } from '../main/engine/index.js';
import startPostgresCluster from '../test/support/postgres-cluster.js';
import { createTestDatabase, type TestDatabase } from '../test/support/postgres-database.js';
import { token } from './api.bench.js';
import { observeMachine, processCpuMs, type MachineWindow } from './machine.js';
import { benchDir, percentile, type BenchResult } from './measure.js';
import { startServer, type ServeChild } from './serve-child.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'out/cli/index.js');
const CREDENTIALS = 1_000;
const CONCURRENCY = 32;
const SECONDS = Number(process.env['PROOFDESK_BENCH_REST_NODES_SECONDS'] ?? 20);
const WARMUP_SECONDS = 3;

/** The mix, one letter per request in turn: list, get, create, tag (4 : 3 : 2 : 1). */
const MIX = ['list', 'get', 'list', 'create', 'get', 'list', 'tag', 'get', 'list', 'create'] as const;
type Kind = (typeof MIX)[number];

interface SetUp {
  name: string;
  store: 'sqlite' | 'postgres';
  nodes: number;
}

const SET_UPS: SetUp[] = [
  { name: 'one node on SQLite', store: 'sqlite', nodes: 1 },
  { name: 'one node on PostgreSQL', store: 'postgres', nodes: 1 },
  { name: 'two nodes on PostgreSQL', store: 'postgres', nodes: 2 },
];

interface Figures {
  setUp: SetUp;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  byKind: Record<Kind, number>;
  clientCores: number;
  serverCores: number[];
  /** The PostgreSQL cluster's share of a core; absent on SQLite. */
  databaseCores?: number;
  machine: MachineWindow;
}

/**
 * The CPU time (ms) of the PostgreSQL cluster listening on `port`: its postmaster and the
 * processes it started (a backend per connection, the background workers), from /proc.
 */
function clusterCpuMs(port: string): number {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const read = (pid: string, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8');
    } catch {
      return '';
    }
  };
  const postmaster = pids.find((pid) => {
    const args = read(pid, 'cmdline').split('\0');
    return args[0]!.endsWith('/postgres') && args[args.indexOf('-p') + 1] === port;
  });
  if (!postmaster) return Number.NaN;
  const parentOf = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  return pids.filter((pid) => pid === postmaster || parentOf(read(pid, 'stat')) === postmaster).reduce((sum, pid) => sum + (processCpuMs(Number(pid)) ?? 0), 0);
}

/** One request of the mix against a node: its path, method and body. */
function request(kind: Kind, n: number, uids: string[]): { method: 'GET' | 'POST' | 'PATCH'; path: string; body?: string } {
  switch (kind) {
    case 'list':
      return { method: 'GET', path: `/api/credentials?per_page=20&page=${1 + (n % 50)}` };
    case 'get':
      return { method: 'GET', path: `/api/credentials/${uids[(n * 7) % uids.length]}` };
    case 'create':
      return {
        method: 'POST',
        path: '/api/credentials',
        body: JSON.stringify({ title: `Bench diploma ${n}`, metadata: { student: `Student ${n}`, programme: 'Mathematics' }, tags: ['bench'] }),
      };
    case 'tag':
      return { method: 'PATCH', path: '/api/credentials', body: JSON.stringify({ credentials: [{ credential_uid: uids[(n * 13) % uids.length], tags: [`tag-${n % 8}`] }] }) };
  }
}

/**
 * Drives the nodes with CONCURRENCY loops of the mix for `seconds`, the nodes taken in turn
 * request by request; the latencies of every request, or an error at the first failed one.
 */
async function drive(pools: Pool[], authorization: string, uids: string[], seconds: number): Promise<{ count: number; latencies: number[]; byKind: Record<Kind, number>; ms: number }> {
  const latencies: number[] = [];
  const byKind: Record<Kind, number> = { list: 0, get: 0, create: 0, tag: 0 };
  let next = 0;
  const began = performance.now();
  const until = began + seconds * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const n = next++;
      const kind = MIX[n % MIX.length]!;
      const { method, path, body } = request(kind, n, uids);
      const headers: Record<string, string> = { authorization };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const t0 = performance.now();
      const answer = await pools[n % pools.length]!.request({ method, path, headers, ...(body === undefined ? {} : { body }) });
      const text = await answer.body.text();
      if (answer.statusCode >= 300) throw new Error(`${method} ${path}: HTTP ${answer.statusCode} ${text.slice(0, 300)}`);
      latencies.push(performance.now() - t0);
      byKind[kind]++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  return { count: latencies.length, latencies, byKind, ms: performance.now() - began };
}

/** A fresh store of `setUp.store` with one Partner and its credentials; its serve nodes' arguments. */
async function seed(setUp: SetUp, database: TestDatabase | undefined, log: (line: string) => void): Promise<{ clientId: string; clientSecret: string; dirs: string[] }> {
  const dirs = Array.from({ length: setUp.nodes }, (_, i) => benchDir(`proofdesk-bench-rest-nodes-${setUp.store}-${i}-`));
  const engine = Engine.open({ dataDir: dirs[0]!, sweepIntervalMs: false, ...(database ? { databaseUrl: database.url } : {}) });
  try {
    const partner = engine.partners.add({ name: 'Bench University' });
    log(`rest-nodes: ${setUp.name}: ${CREDENTIALS} credentials...`);
    await engine.serviceFor(partner.partner_id).createCredentials(
      Array.from({ length: CREDENTIALS }, (_, i) => ({ title: `Diploma ${i}`, metadata: { student: `Student ${i}`, programme: 'Computer Science', grade: (i % 40) / 10 }, tags: ['cohort-2026'] })),
    );
    return { clientId: partner.client_id, clientSecret: partner.client_secret, dirs };
  } finally {
    await engine.close();
  }
}

/** One set-up: seeded, its nodes started, warmed up, then driven for SECONDS. */
async function measure(setUp: SetUp, log: (line: string) => void): Promise<Figures> {
  const database = setUp.store === 'postgres' ? createTestDatabase() : undefined;
  const nodes: ServeChild[] = [];
  const pools: Pool[] = [];
  try {
    const { clientId, clientSecret, dirs } = await seed(setUp, database, log);
    for (const dir of dirs) nodes.push(await startServer([CLI, 'serve', '--port', '0', '--data', dir, ...(database ? ['--database', database.url] : [])]));
    for (const node of nodes) pools.push(new Pool(new URL(node.baseUrl).origin, { connections: CONCURRENCY }));
    const authorization = `Bearer ${await token(nodes[0]!.authUrl, clientId, clientSecret)}`;
    const listed = await pools[0]!.request({ method: 'GET', path: '/api/credentials?per_page=0', headers: { authorization } });
    const uids = ((await listed.body.json()) as { result: { items: { uid: string }[] } }).result.items.map((c) => c.uid);
    if (uids.length !== CREDENTIALS) throw new Error(`listed ${uids.length} credentials, not ${CREDENTIALS}`);
    log(`rest-nodes: ${setUp.name}: ${CONCURRENCY} requests in flight for ${WARMUP_SECONDS} s of warm-up and ${SECONDS} s...`);
    await drive(pools, authorization, uids, WARMUP_SECONDS);
    const window = observeMachine();
    const client = process.cpuUsage();
    const serversBefore = nodes.map((node) => processCpuMs(node.pid) ?? Number.NaN);
    const port = database ? new URL(database.url).port : undefined;
    const databaseBefore = port ? clusterCpuMs(port) : undefined;
    const run = await drive(pools, authorization, uids, SECONDS);
    const used = process.cpuUsage(client);
    const serverCores = nodes.map((node, i) => ((processCpuMs(node.pid) ?? Number.NaN) - serversBefore[i]!) / run.ms);
    const databaseCores = port && databaseBefore !== undefined ? (clusterCpuMs(port) - databaseBefore) / run.ms : undefined;
    const figures: Figures = {
      setUp,
      requestsPerSecond: run.count / (run.ms / 1000),
      p50: percentile(run.latencies, 50),
      p99: percentile(run.latencies, 99),
      byKind: run.byKind,
      clientCores: (used.user + used.system) / 1000 / run.ms,
      serverCores,
      ...(databaseCores === undefined ? {} : { databaseCores }),
      machine: window.end(),
    };
    log(`rest-nodes: ${setUp.name}: ${Math.round(figures.requestsPerSecond)} requests/s, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, load ${figures.machine.start.load1.toFixed(1)}→${figures.machine.end.load1.toFixed(1)}`);
    return figures;
  } finally {
    await Promise.all(pools.map((pool) => pool.close()));
    await Promise.all(nodes.map((node) => node.stop()));
    database?.drop();
  }
}

export async function restNodesBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  log('rest-nodes: building the CLI (out/cli)...');
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { stdio: 'ignore' });
  log('rest-nodes: starting a PostgreSQL cluster...');
  const stopCluster = await startPostgresCluster();
  const all: Figures[] = [];
  try {
    for (const setUp of SET_UPS) all.push(await measure(setUp, log));
  } finally {
    await stopCluster();
  }
  const first = all[0]!;
  const against = first.setUp.name;
  return all.flatMap((f) => {
    const ratio = (value: number, peer: number) => (f === first ? undefined : { value: value / peer, against });
    const name = `REST mix, ${f.setUp.name}, ${CONCURRENCY} in flight`;
    const share = (cores: number) => (Number.isFinite(cores) ? `${Math.round(100 * cores)}%` : 'n/a');
    const notes = [
      `${Object.entries(f.byKind).map(([kind, count]) => `${count} ${kind}`).join(', ')} in ${SECONDS} s`,
      [
        `client ${share(f.clientCores)} of a core`,
        `${f.serverCores.length === 1 ? 'serve' : 'serve nodes'} ${f.serverCores.map(share).join(' + ')}`,
        ...(f.databaseCores === undefined ? [] : [`PostgreSQL ${share(f.databaseCores)}`]),
      ].join(', '),
    ];
    return [
      { name, value: f.requestsPerSecond, unit: 'requests/s', machine: f.machine, ratio: ratio(f.requestsPerSecond, first.requestsPerSecond), notes },
      { name: `${name}, p50`, value: f.p50, unit: 'ms', machine: f.machine, ratio: ratio(f.p50, first.p50) },
      { name: `${name}, p99`, value: f.p99, unit: 'ms', machine: f.machine, ratio: ratio(f.p99, first.p99) },
    ];
  });
}
