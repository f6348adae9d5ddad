/**
 * What both torture modes share (scripts/torture.ts, scripts/torture-public-chain.ts): a seeded
 * random generator, the CLI started as the leader of its own process group and SIGKILLed at
 * random, a data directory with one Partner, and input files with a few duplicates.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../main/engine/index.js';
import { openSecretStore } from '../main/secrets/index.js';

export const REPO = fileURLToPath(new URL('..', import.meta.url));

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A small seeded generator (values in [0, 1)), so a run that found something can be repeated. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

export interface Child {
  pid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
}

/** Starts the CLI as the leader of its own process group (a local anvil it starts joins the group). */
export function startCli(argv: string[]): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/cli/index.ts', ...argv], { cwd: REPO, env: { ...process.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { pid: child.pid!, exited, output: () => output };
}

export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Kills the group after 300 ms + up to `maxMs`; returns whether the kill landed before the run ended. */
export async function killAtRandom(child: Child, maxMs: number, random: () => number): Promise<boolean> {
  const delay = 300 + random() * maxMs;
  const ended = await Promise.race([child.exited.then(() => true), sleep(delay).then(() => false)]);
  killGroup(child.pid);
  await child.exited;
  await sleep(50);
  return !ended;
}

/** A data directory with one Partner (encrypted secrets file, PROOFDESK_PASSPHRASE), issuing every `interval` seconds. */
export async function newDataDir(interval: number): Promise<{ dataDir: string; partnerId: string; address: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'proofdesk-torture-'));
  const engine = Engine.open({ dataDir, sweepIntervalMs: false, secrets: await openSecretStore({ dataDir }) });
  try {
    const partner = await engine.addPartner({ name: 'Torture University', issuingIntervalSeconds: interval });
    return { dataDir, partnerId: partner.partner_id, address: partner.address };
  } finally {
    await engine.close();
  }
}

/** Writes `count` files, a few of them with the same content as another (duplicates). */
export function writeInputs(dir: string, count: number, tag: string): string[] {
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const file = join(dir, `doc-${tag}-${i + 1}.txt`);
    // Every fourth file repeats the content of the one before it.
    const n = i % 4 === 3 ? i : i + 1;
    writeFileSync(file, `Credential ${tag} #${n}\n${'x'.repeat(n * 37)}`);
    return file;
  });
}
