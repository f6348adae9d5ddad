/**
 * Helpers of the intake tests: the engine, a watched folder, temporary folders, waiting for a
 * condition, listing a folder tree, hashing. Nothing is mocked: the tests use real folders, the
 * real engine and the real chain (anvil).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { Credential } from '../../common/wire-types.js';
import { Engine, type EmbeddedService } from '../../main/engine/index.js';
import { FolderIntake, type FolderIntakeEvent, type FolderIntakeOptions, type WatchFolderOptions } from '../../main/intake/index.js';
import { MemorySecretStore } from '../../main/secrets/index.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const made = new Set<string>();

export function tempDir(prefix = 'proofdesk-ingest-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `probe` until it returns something other than undefined / false. */
export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Every file under `dir` (not folders), as sorted paths relative to it with forward slashes. */
export function filesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).split('\\').join('/'))
    .sort();
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The real engine on `dataDir`, its scheduler ticking every 100 ms, with anvil up before the issuing clocks start. */
export async function openEngine(dataDir: string): Promise<Engine> {
  const engine = Engine.open({ dataDir, sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { scheduler: true, tickMs: 100, onError: () => undefined } });
  await engine.issuing.ctx.chains.client('local');
  return engine;
}

/** An engine with one Partner issuing every `issuingIntervalSeconds`, and its service. */
export async function openPartner(dataDir: string, name: string, issuingIntervalSeconds = 1): Promise<{ engine: Engine; service: EmbeddedService }> {
  const engine = await openEngine(dataDir);
  const partner = await engine.addPartner({ name, issuingIntervalSeconds });
  return { engine, service: engine.serviceFor(partner.partner_id) };
}

/**
 * One engine and Partner for a whole test file, opened before its tests and closed after them
 * (with every intake the tests put in `running`). `opened` hands the engine, the service and
 * the data directory to the file's own variables.
 */
export function usePartner(
  name: string,
  { issuingIntervalSeconds, running, opened }: { issuingIntervalSeconds?: number; running: FolderIntake[]; opened: (partner: { engine: Engine; service: EmbeddedService; dataDir: string }) => void },
): void {
  let engine: Engine | undefined;
  beforeAll(async () => {
    const dataDir = join(tempDir(), 'data');
    const partner = await openPartner(dataDir, name, issuingIntervalSeconds);
    engine = partner.engine;
    opened({ ...partner, dataDir });
  });
  afterAll(async () => {
    for (const intake of running) await intake.stop();
    await engine?.close();
    removeTempDirs();
  });
}

/**
 * A new inbox folder with a fast intake on it (its credentials carry `tag`); the intake is
 * added to `running` for the test file's afterAll to stop. `options` overrides the defaults.
 */
export async function watchInbox(
  running: FolderIntake[],
  { service, dataDir, tag, folder = {}, ...options }: { service: EmbeddedService; dataDir: string; tag: string; folder?: Partial<WatchFolderOptions> } & Partial<Omit<FolderIntakeOptions, 'service' | 'dataDir' | 'folders'>>,
): Promise<{ root: string; intake: FolderIntake; events: FolderIntakeEvent[] }> {
  const root = join(tempDir(), 'inbox');
  mkdirSync(root);
  const events: FolderIntakeEvent[] = [];
  const intake = await FolderIntake.start({
    service,
    dataDir,
    folders: [{ path: root, tags: [tag], ...folder }],
    target: 'partner:test',
    stableMs: 300,
    jobPollMs: 200,
    rescanMs: 1_000,
    onEvent: (e) => events.push(e),
    ...options,
  });
  running.push(intake);
  return { root, intake, events };
}

export async function credentialsOf(service: EmbeddedService, tag: string): Promise<Credential[]> {
  return (await service.listCredentials({ and_tags: tag, per_page: 0 })).items;
}

export async function certificatesOf(service: EmbeddedService, tag: string): Promise<number> {
  return (await service.listCertificates({ and_credential_tags: tag, per_page: 1 })).total_items;
}
