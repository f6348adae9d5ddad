/**
 * REST server benchmarks: `serve` (the real command, its own process) on loopback, loaded by
 * autocannon with 50 connections — GET /api/credentials?per_page=20 over a Partner's 1,000
 * credentials, and POST /api/credentials — reporting requests/s, p50 and p99 latency.
 * Each is repeated in runs of a few seconds until the runs agree, and compared with a trivial
 * fastify route (bench/trivial-server.ts) loaded by the same client right after. autocannon
 * runs in this process and shares the two cores with the server: its CPU time and the
 * server's are noted, and a figure is marked client-bound when the client used ~a whole core.
 */
import { createRequire } from 'node:module';
import { Engine } from '../main/engine/index.js';
import { processCpuMs } from './machine.js';
import { benchDir, convergence, repeatUntilStable, type BenchResult } from './measure.js';
import { startServer, type ServeChild } from './serve-child.js';

/** The part of autocannon's programmatic API used here (it ships no types). */
interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: {
  url: string;
  method?: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  body?: string;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const CREDENTIALS = 1_000;
const CONNECTIONS = 50;
/** Seconds per run; runs repeat (3 to 5) until their requests/s agree within ±5 %. */
const SECONDS = 5;
const WARMUP_SECONDS = 2;
const REPEAT = { minRuns: 3, maxRuns: 5, maxMs: 40_000 };
/** A client that used this share of one core or more was the bottleneck, not the server. */
const CLIENT_BOUND = 0.9;

/** An access token for a Partner's client, from the server's token endpoint. */
export async function token(authUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${authUrl}/realms/proofdesk/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  if (!response.ok) throw new Error(`token request failed: HTTP ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** One endpoint's figures: requests/s (repeated), latencies, and who used the CPU. */
interface Loaded {
  rows: BenchResult[];
  requestsPerSecond: number;
}

async function load(name: string, options: Parameters<Autocannon>[0], server: ServeChild, log: (line: string) => void): Promise<Loaded> {
  await autocannon({ ...options, duration: WARMUP_SECONDS });
  const p50s: number[] = [];
  const p99s: number[] = [];
  let clientMs = 0;
  let serverMs = 0;
  let wallMs = 0;
  const repeated = await repeatUntilStable(async () => {
    const client = process.cpuUsage();
    const serverBefore = processCpuMs(server.pid);
    const began = process.hrtime.bigint();
    const result = await autocannon({ ...options, duration: SECONDS });
    wallMs += Number(process.hrtime.bigint() - began) / 1e6;
    const used = process.cpuUsage(client);
    clientMs += (used.user + used.system) / 1000;
    const serverAfter = processCpuMs(server.pid);
    serverMs += serverBefore === undefined || serverAfter === undefined ? Number.NaN : serverAfter - serverBefore;
    const failed = result.non2xx + result.errors + result.timeouts;
    log(`${name}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms${failed ? `, ${failed} failed` : ''}`);
    if (failed > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
    p50s.push(result.latency.p50);
    p99s.push(result.latency.p99);
    return result.requests.average;
  }, REPEAT);
  const clientCores = clientMs / wallMs;
  const serverCores = serverMs / wallMs;
  const budget = [
    `client ${Math.round(100 * clientCores)}% of a core${clientCores >= CLIENT_BOUND ? ' — CLIENT-BOUND' : ''}`,
    `server ${Number.isFinite(serverCores) ? `${Math.round(100 * serverCores)}%` : 'n/a'}`,
  ].join(', ');
  const latency = (samples: number[]) => {
    const state = convergence(samples, REPEAT);
    return { value: state.value, repeat: { runs: samples.length, spread: state.spread, converged: state.converged } };
  };
  return {
    requestsPerSecond: repeated.value,
    rows: [
      { name: `${name}, ${CONNECTIONS} connections`, value: repeated.value, repeat: repeated.repeat, machine: repeated.machine, unit: 'requests/s', notes: [budget] },
      { name: `${name}, p50`, ...latency(p50s), machine: repeated.machine, unit: 'ms' },
      { name: `${name}, p99`, ...latency(p99s), machine: repeated.machine, unit: 'ms', target: { value: 25, better: 'lower' } },
    ],
  };
}

/** The real endpoint's figures with the peer's, and the ratio of their requests/s. */
function withPeer(real: Loaded, peer: Loaded, target: number): BenchResult[] {
  const [throughput, ...latencies] = real.rows;
  return [
    { ...throughput!, target: { value: target, better: 'higher' }, ratio: { value: real.requestsPerSecond / peer.requestsPerSecond, against: 'trivial fastify route' } },
    ...latencies,
    { ...peer.rows[0]!, name: `peer: ${peer.rows[0]!.name}` },
  ];
}

export async function apiBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-api-bench-');
  let serve: ServeChild | undefined;
  let trivial: ServeChild | undefined;
  try {
    const engine = Engine.open({ dataDir: dir, sweepIntervalMs: false });
    const partner = engine.partners.add({ name: 'Bench University' });
    log(`REST server: ${CREDENTIALS} credentials for the listing...`);
    await engine.serviceFor(partner.partner_id).createCredentials(
      Array.from({ length: CREDENTIALS }, (_, i) => ({ title: `Diploma ${i}`, metadata: { student: `Student ${i}`, programme: 'Computer Science', grade: (i % 40) / 10 }, tags: ['cohort-2026'] })),
    );
    await engine.close();

    serve = await startServer(['main/cli/index.ts', 'serve', '--port', '0', '--data', dir]);
    trivial = await startServer(['bench/trivial-server.ts']);
    const authorization = `Bearer ${await token(serve.authUrl, partner.client_id, partner.client_secret)}`;
    log(`REST server at ${serve.baseUrl}: runs of ${SECONDS} s per endpoint with ${CONNECTIONS} connections (autocannon), each followed by a trivial route...`);
    const results: BenchResult[] = [];
    const get = { connections: CONNECTIONS, duration: SECONDS, headers: { authorization } };
    const realGet = await load('GET /api/credentials?per_page=20', { ...get, url: `${serve.baseUrl}/credentials?per_page=20` }, serve, log);
    const peerGet = await load('GET /trivial', { ...get, url: `${trivial.baseUrl}/trivial` }, trivial, log);
    results.push(...withPeer(realGet, peerGet, 5_000));

    const post = {
      method: 'POST',
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Benchmark diploma', metadata: { student: 'Ada Lovelace', programme: 'Mathematics' }, tags: ['bench'] }),
    };
    const realPost = await load('POST /api/credentials', { ...post, url: `${serve.baseUrl}/credentials` }, serve, log);
    const peerPost = await load('POST /trivial', { ...post, url: `${trivial.baseUrl}/trivial` }, trivial, log);
    results.push(...withPeer(realPost, peerPost, 2_000));
    return results;
  } finally {
    await serve?.stop();
    await trivial?.stop();
  }
}
