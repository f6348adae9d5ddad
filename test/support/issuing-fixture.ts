/**
 * Real issuing for the test/issuing suite: engines on temporary data directories with a
 * secret store, a second anvil for a configured engine, and the small helpers every issuing
 * test needs (tick until a job gets somewhere, count an account's transactions, verify proofs).
 * Nothing here is mocked: SQLite, anvil and the signing workers are the real ones.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { isServiceError, type ServiceError } from '../../common/errors.js';
import type { SecretStore } from '../../common/secret-store.js';
import type { Credential, Job, JobStatus, StepStatus, VerificationResult, VerificationStepKey } from '../../common/wire-types.js';
import { ChainClient, startAnvil, type Address, type AnvilNode, type Hex } from '../../main/chain/index.js';
import { ENGINES_FILE, Engine, type Clock, type EmbeddedService, type EngineConfig, type EngineOptions } from '../../main/engine/index.js';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { MemorySecretStore } from '../../main/secrets/index.js';
import { childArgs } from './ts-child.js';

/** The repository root (where `node --import tsx` resolves tsx). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Chain id of the second anvil: a dev chain id other than local's 31337. */
export const SECOND_CHAIN_ID = 31338;

const tempDirs = new Set<string>();

/** A new empty temp directory, removed by removeTempDirs() (or by the fixture that owns it). */
export function makeTempDir(prefix = 'proofdesk-issuing-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/** Removes every directory makeTempDir made in this process. */
export function removeTempDirs(): void {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Writes engines.json (the configured engines beside `local`) into a data directory. */
export function writeEngines(dataDir: string, engines: EngineConfig[]): void {
  writeFileSync(join(dataDir, ENGINES_FILE), JSON.stringify(engines, null, 2));
}

export interface IssuingFixture {
  dataDir: string;
  engine: Engine;
  secrets: SecretStore;
  /** Closes the engine (which stops its local anvil); deletes the data dir unless `keepDir`. Idempotent. */
  close(): Promise<void>;
}

export interface OpenIssuingEngineOptions {
  /** Default: a new temp dir. */
  dataDir?: string;
  /** Written to engines.json before opening, when given. */
  engines?: EngineConfig[];
  /** Default: a new MemorySecretStore. */
  secrets?: SecretStore;
  clock?: Clock;
  issuing?: EngineOptions['issuing'];
  /** Keep the data directory when closing (to reopen it). */
  keepDir?: boolean;
  /** The engine's data in this PostgreSQL database instead of SQLite in the data directory. */
  databaseUrl?: string;
  /** Index new credentials for search in the background, as the app, `serve` and `watch` do. */
  indexInBackground?: boolean;
}

/** Opens an Engine with a secret store and no sweeper; the scheduler only when asked. */
export function openIssuingEngine(options: OpenIssuingEngineOptions = {}): IssuingFixture {
  const dataDir = options.dataDir ?? makeTempDir();
  if (options.engines) writeEngines(dataDir, options.engines);
  const secrets = options.secrets ?? new MemorySecretStore();
  const engine = Engine.open({
    dataDir,
    clock: options.clock,
    sweepIntervalMs: false,
    secrets,
    issuing: { onError: () => undefined, ...options.issuing },
    databaseUrl: options.databaseUrl,
    indexInBackground: options.indexInBackground,
  });
  let closing: Promise<void> | undefined;
  return {
    dataDir,
    engine,
    secrets,
    close: () =>
      (closing ??= (async () => {
        await engine.close();
        if (!options.keepDir) {
          rmSync(dataDir, { recursive: true, force: true });
          tempDirs.delete(dataDir);
        }
      })()),
  };
}

export interface SecondChain {
  node: AnvilNode;
  /** A client that may fund and mine (its chain id is allowed as a dev chain). */
  client: ChainClient;
  rpcUrl: string;
  /** An engine configuration pointing at this chain. */
  engine(id: string, options?: { confirmations?: number; environment?: 'demo' | 'live' }): EngineConfig;
  stop(): Promise<void>;
}

/** Starts a second anvil (chain id 31338 by default), for an engine configured in engines.json. */
export async function startSecondChain(chainId = SECOND_CHAIN_ID): Promise<SecondChain> {
  const stateDir = makeTempDir('proofdesk-second-chain-');
  const node = await startAnvil({ stateDir, chainId });
  try {
    const client = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId, devChainIds: [chainId] });
    return {
      node,
      client,
      rpcUrl: node.rpcUrl,
      engine: (id, o = {}) => ({ id, rpc_url: node.rpcUrl, chain_id: chainId, confirmations: o.confirmations ?? 1, environment: o.environment ?? 'demo' }),
      stop: async () => {
        await node.stop();
        rmSync(stateDir, { recursive: true, force: true });
        tempDirs.delete(stateDir);
      },
    };
  } catch (error) {
    await node.stop();
    throw error;
  }
}

/** Switches anvil's automine on or off (off: transactions wait in the pool until a block is mined). */
export async function setAutomine(rpcUrl: string, on: boolean): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_setAutomine', params: [on] }),
  });
  const body = (await response.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`evm_setAutomine: ${body.error.message}`);
}

export interface IssuingPartner {
  id: string;
  name: string;
  address: Address;
  signingPublicKey: string;
  service: EmbeddedService;
}

/** Adds a Partner (with its chain and signing keys) and returns its service. */
export async function addIssuingPartner(engine: Engine, name: string, issuingIntervalSeconds = 3600): Promise<IssuingPartner> {
  const created = await engine.addPartner({ name, issuingIntervalSeconds });
  return { id: created.partner_id, name: created.name, address: created.address as Address, signingPublicKey: created.signing_public_key, service: engine.serviceFor(created.partner_id) };
}

/** Creates `count` metadata-only credentials in one call. */
export function createCredentials(service: EmbeddedService, count: number, prefix = 'Credential'): Promise<Credential[]> {
  return service.createCredentials(Array.from({ length: count }, (_, i) => ({ title: `${prefix} ${i + 1}`, metadata: { holder: `${prefix} holder ${i + 1}`, n: i + 1 } })));
}

/** Creates `count` credentials and schedules them on `engine`; returns them and the job. */
export async function createAndSchedule(service: EmbeddedService, engine: string, count: number, prefix?: string): Promise<{ credentials: Credential[]; job: Job }> {
  const credentials = await createCredentials(service, count, prefix);
  const job = await service.scheduleCredentials({ engine, credentials: credentials.map((c) => c.uid) });
  return { credentials, job };
}

/** Runs scheduler rounds until the job reaches `status` (at most `maxTicks`); returns the job. */
export async function tickUntil(engine: Pick<Engine, 'issuing'>, service: EmbeddedService, jobUid: string, status: JobStatus, maxTicks = 40): Promise<Job> {
  let job = await service.getJob(jobUid);
  for (let i = 0; i < maxTicks && job.status !== status; i++) {
    await engine.issuing.tick();
    job = await service.getJob(jobUid);
    if (job.status !== status) await sleep(25);
  }
  expect(job.status, `job ${jobUid} did not reach ${status}`).toBe(status);
  return job;
}

/** Issues the Partner's scheduled job on `engine` now and follows it to `finished`. */
export async function issueNowAndFinish(engine: Engine, service: EmbeddedService, engineId: string): Promise<Job> {
  const job = await service.issueJobNow({ engine: engineId });
  return tickUntil(engine, service, job.uid, 'finished');
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000, intervalMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** The ServiceError a call rejects with (fails the test when it resolves or throws anything else). */
export async function errorOf(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(isServiceError(error), `expected a ServiceError, got ${String(error)}`).toBe(true);
    return error as ServiceError;
  }
  throw new Error('Expected the call to fail');
}

/** Transactions `address` has sent on the chain (mined or pending): its next nonce. */
export function transactionCount(client: ChainClient, address: Address): Promise<number> {
  return client.nextNonce(address);
}

/** A downloaded proof file, parsed. */
export async function proofOf(service: EmbeddedService, certificateUid: string): Promise<ProofFile> {
  return JSON.parse(await service.downloadCertificate(certificateUid)) as ProofFile;
}

/** The certificate uids of a job (all of them, in one page). */
export async function certificateUidsOfJob(service: EmbeddedService, jobUid: string): Promise<string[]> {
  const page = await service.listJobCertificates(jobUid, { per_page: 0 });
  return page.items.map((c) => c.certificate.uid);
}

/** The step statuses of a verification result, by step key. */
export function stepStatuses(result: VerificationResult): Record<VerificationStepKey, StepStatus> {
  return Object.fromEntries(Object.entries(result.verification).map(([k, step]) => [k, step.status])) as Record<VerificationStepKey, StepStatus>;
}

export const ALL_PASSED: Record<VerificationStepKey, StepStatus> = {
  certificate: 'passed',
  blockchain: 'passed',
  issuer: 'passed',
  file: 'passed',
  expiry: 'passed',
  revocation: 'passed',
};

/** Asserts a verification result is `ok` with all six steps `passed`. */
export function expectOk(result: VerificationResult, what = 'verification'): void {
  expect({ status: result.result.status, steps: stepStatuses(result) }, what).toEqual({ status: 'ok', steps: ALL_PASSED });
}

/** SHA-256 of bytes, lowercase hex (the file hash of Proofdesk). */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The 0x-prefixed form of a hex string. */
export function hex0x(value: string): Hex {
  return (value.startsWith('0x') ? value : `0x${value}`) as Hex;
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript child script (childArgs: bundled for the run, else with tsx) from the repo root, and waits for it to end. */
export function runTsChild(script: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<ChildResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...childArgs(script), ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not end within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

/** The JSON lines a child printed on stdout. */
export function jsonLines<T = Record<string, unknown>>(stdout: string): T[] {
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as T);
}
