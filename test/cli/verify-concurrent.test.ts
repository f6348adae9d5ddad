/**
 * `verify` gives the same answer however many run at once: six real CLI
 * processes started 0.3 s apart on one data directory whose local chain nobody runs.
 * None of them may lose the local chain when the one that started it exits (a `pending` answer).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../main/cli/run.js';
import { runCliChild, type ChildResult } from './cli-child.js';

const ENV = { PROOFDESK_PASSPHRASE: 'concurrent verify tests' };
process.env.PROOFDESK_PASSPHRASE = ENV.PROOFDESK_PASSPHRASE;

let data: string;
let proof: string;

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'proofdesk-verify-concurrent-'));
  const quiet = { stdout: () => undefined, stderr: () => undefined };
  expect(await runCli(['partner', 'add', '--name', 'Uni', '--data', data], quiet)).toBe(0);
  const file = join(data, 'ada.txt');
  writeFileSync(file, 'Ada Lovelace, BSc');
  expect(await runCli(['issue', file, '--now', '--out', join(data, 'proofs'), '--data', data], quiet)).toBe(0);
  proof = join(data, 'proofs', 'ada.txt.proof.json');
}, 120_000);

afterAll(() => rmSync(data, { recursive: true, force: true }));

it('six verify processes started 0.3 s apart on one data directory all answer ok', async () => {
  const runs: Promise<ChildResult>[] = [];
  for (let i = 0; i < 6; i++) {
    runs.push(runCliChild(['verify', proof, '--json', '--data', data], ENV));
    await new Promise((r) => setTimeout(r, 300));
  }
  const results = await Promise.all(runs);
  for (const r of results) expect(JSON.parse(r.out).result.status, r.out + r.err).toBe('ok');
  // None of them took the data directory's chain: nothing runs there and the lock is gone.
  expect(existsSync(join(data, 'chain', 'local', 'anvil.lock.json'))).toBe(false);
}, 180_000);

it('a chain another process runs there that stops answering: verify reads the saved state instead (ok, not pending)', async () => {
  // A lock as a live owner (this test) leaves it, naming a live process that looks like anvil
  // but whose endpoint is gone: the chain of an `issue` that is ending.
  const stand = spawn('bash', ['-c', 'exec -a anvil sleep 60'], { stdio: 'ignore' });
  const lock = join(data, 'chain', 'local', 'anvil.lock.json');
  try {
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(lock, JSON.stringify({ pid: stand.pid, ownerPid: process.pid, rpcUrl: 'http://127.0.0.1:9', startedAt: new Date().toISOString() }));
    const result = await runCliChild(['verify', proof, '--json', '--data', data], ENV);
    expect(JSON.parse(result.out).result.status, result.out + result.err).toBe('ok');
  } finally {
    stand.kill('SIGKILL');
    rmSync(lock, { force: true });
  }
}, 120_000);
