/**
 * REST server benchmarks: `serve` (the real command, its own process) on loopback, loaded by
 * autocannon with 50 connections — GET /api/credentials?per_page=20 over a Partner's 1,000
 * credentials, and POST /api/credentials — reporting requests/s, p50 and p99 latency.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../main/engine/index.js';
import type { BenchResult } from './measure.js';

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

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const CREDENTIALS = 1_000;
const CONNECTIONS = 50;
const SECONDS = 10;
const WARMUP_SECONDS = 2;

interface ServeChild {
  baseUrl: string;
  authUrl: string;
  stop(): Promise<void>;
}

/** Starts `serve` in a process of its own and reads its JSON line. */
async function startServe(dataDir: string): Promise<ServeChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/cli/index.ts', 'serve', '--port', '0', '--data', dataDir], {
    cwd: REPO,
    // Throwaway data: keys in memory (nothing is issued here anyway).
    env: { ...process.env, PROOFDESK_SECRET_STORE: 'memory', PROOFDESK_PASSPHRASE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  const line = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('\n')) done(stdout.slice(0, stdout.indexOf('\n')));
    });
    child.on('exit', (code) => fail(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const { base_url, auth_url } = JSON.parse(line) as { base_url: string; auth_url: string };
  return {
    baseUrl: base_url,
    authUrl: auth_url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function token(authUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${authUrl}/realms/proofdesk/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  if (!response.ok) throw new Error(`token request failed: HTTP ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function load(name: string, options: Parameters<Autocannon>[0], log: (line: string) => void, target: number): Promise<BenchResult[]> {
  await autocannon({ ...options, duration: WARMUP_SECONDS });
  const result = await autocannon(options);
  const failed = result.non2xx + result.errors + result.timeouts;
  log(`${name}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms${failed ? `, ${failed} failed` : ''}`);
  if (failed > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  return [
    { name: `${name}, ${CONNECTIONS} connections`, value: result.requests.average, unit: 'requests/s', target: { value: target, better: 'higher' } },
    { name: `${name}, p50`, value: result.latency.p50, unit: 'ms' },
    { name: `${name}, p99`, value: result.latency.p99, unit: 'ms', target: { value: 25, better: 'lower' } },
  ];
}

export async function apiBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'proofdesk-api-bench-'));
  let serve: ServeChild | undefined;
  try {
    const engine = Engine.open({ dataDir: dir, sweepIntervalMs: false });
    const partner = engine.partners.add({ name: 'Bench University' });
    log(`REST server: ${CREDENTIALS} credentials for the listing...`);
    await engine.serviceFor(partner.partner_id).createCredentials(
      Array.from({ length: CREDENTIALS }, (_, i) => ({ title: `Diploma ${i}`, metadata: { student: `Student ${i}`, programme: 'Computer Science', grade: (i % 40) / 10 }, tags: ['cohort-2026'] })),
    );
    await engine.close();

    serve = await startServe(dir);
    const authorization = `Bearer ${await token(serve.authUrl, partner.client_id, partner.client_secret)}`;
    log(`REST server at ${serve.baseUrl}: ${SECONDS} s per endpoint with ${CONNECTIONS} connections (autocannon)...`);
    const results: BenchResult[] = [];
    results.push(
      ...(await load('GET /api/credentials?per_page=20', { url: `${serve.baseUrl}/credentials?per_page=20`, connections: CONNECTIONS, duration: SECONDS, headers: { authorization } }, log, 5_000)),
    );
    results.push(
      ...(await load(
        'POST /api/credentials',
        {
          url: `${serve.baseUrl}/credentials`,
          method: 'POST',
          connections: CONNECTIONS,
          duration: SECONDS,
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Benchmark diploma', metadata: { student: 'Ada Lovelace', programme: 'Mathematics' }, tags: ['bench'] }),
        },
        log,
        2_000,
      )),
    );
    return results;
  } finally {
    await serve?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
