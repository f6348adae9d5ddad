/**
 * `verify` gives the same answer however many run at once (issue 11 item 4): six real CLI
 * processes started 0.3 s apart on one data directory whose local chain nobody runs. Before,
 * they shared the anvil the first one started and lost it when that one exited (pending).
 */
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
