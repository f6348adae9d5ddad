/**
 * A genuine proof is never `failed` because the verifier is on another machine:
 * real anvil, real CLI child processes, three data directories standing for three machines.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilNode } from '../../main/chain/index.js';
import { cliInProcess as cli } from '../support/cli-in-process.js';
import { runCliChild } from './cli-child.js';

const ENV = { PROOFDESK_PASSPHRASE: 'verify anywhere tests' };
process.env.PROOFDESK_PASSPHRASE = ENV.PROOFDESK_PASSPHRASE;

let root: string;
let issuer: string;
let proof: string;
let original: string;

/** Issues one file in a new data directory; returns the proof's path. */
async function issueIn(dataDir: string, name: string): Promise<string> {
  expect((await cli('partner', 'add', '--name', `Uni ${name}`, '--data', dataDir)).code).toBe(0);
  const file = join(dataDir, `${name}.txt`);
  writeFileSync(file, `${name}, BSc`);
  const issued = await cli('issue', file, '--now', '--out', join(dataDir, 'proofs'), '--data', dataDir);
  expect(issued.code, issued.err).toBe(0);
  return join(dataDir, 'proofs', `${name}.txt.proof.json`);
}

function stepOf(out: string, key: string): { status: string; description: Record<string, unknown> } {
  return (JSON.parse(out) as { verification: Record<string, { status: string; description: Record<string, unknown> }> }).verification[key]!;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'proofdesk-verify-anywhere-'));
  issuer = join(root, 'issuer');
  proof = await issueIn(issuer, 'ada');
  original = join(issuer, 'ada.txt');
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('verify on a machine that is not the issuer’s', () => {
  it('names its chain beyond the chain id: genesis hash and issuing installation', () => {
    const chain = JSON.parse(readFileSync(proof, 'utf8')).chain;
    expect(chain.genesis_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const installation = JSON.parse(readFileSync(join(issuer, 'installation.json'), 'utf8'));
    expect(chain.installation_id).toBe(installation.installation_id);
  });

  it('on the issuer’s own data directory (its chain stopped): ok', async () => {
    const ok = await runCliChild(['verify', proof, '--file', original, '--data', issuer], ENV);
    expect(ok.out, ok.err).toContain('Result: ok');
    expect(ok.code).toBe(0);
  }, 60_000);

  it('a proof written before the chain identity fields existed still verifies on the issuer’s machine', async () => {
    const old = JSON.parse(readFileSync(proof, 'utf8'));
    delete old.chain.genesis_hash;
    delete old.chain.installation_id;
    const oldPath = join(root, 'old.proof.json');
    writeFileSync(oldPath, JSON.stringify(old));
    const ok = await runCliChild(['verify', oldPath, '--data', issuer, '--json'], ENV);
    expect(JSON.parse(ok.out).result.status, ok.err).toBe('ok');
  }, 60_000);

  it('with an empty data directory: pending with the reason, and no directory created', async () => {
    const empty = join(root, 'nobody-here');
    const home = mkdtempSync(join(root, 'home-'));
    const result = await runCliChild(['verify', proof, '--file', original, '--data', empty, '--json'], ENV);
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.out);
    expect(parsed.result.status).toBe('pending');
    expect(stepOf(result.out, 'blockchain').description.reason).toContain("the issuer's local development chain, which this machine does not have");
    expect(existsSync(empty)).toBe(false);
    // The README's example without --data, on a fresh machine: the default directory stays absent too.
    const fresh = await runCliChild(['verify', proof], { ...ENV, HOME: home, XDG_CONFIG_HOME: '', PROOFDESK_DATA: '' });
    expect(fresh.out, fresh.err).toContain('Result: pending');
    expect(fresh.out).toContain('not checked (no file given');
    expect(existsSync(join(home, '.config'))).toBe(false);
  }, 60_000);

  it('on a second installation whose own local chain has the same chain id 31337: pending, not failed', async () => {
    const second = join(root, 'second');
    await issueIn(second, 'grace');
    const result = await runCliChild(['verify', proof, '--file', original, '--data', second, '--json'], ENV);
    const parsed = JSON.parse(result.out);
    expect(parsed.result.status, result.out).toBe('pending');
    expect(stepOf(result.out, 'blockchain').status).toBe('pending');
    expect(stepOf(result.out, 'blockchain').description.reason).toContain('local development chain');
    expect(stepOf(result.out, 'revocation').status).toBe('pending');
  }, 120_000);

  it('with --rpc to the issuer’s running chain, from nothing but the proof: ok; to another chain: pending', async () => {
    let node: AnvilNode | undefined;
    let other: AnvilNode | undefined;
    try {
      node = await startAnvil({ stateDir: join(issuer, 'chain', 'local') });
      const empty = join(root, 'rpc-only');
      const ok = await runCliChild(['verify', proof, '--file', original, '--rpc', node.rpcUrl, '--data', empty], ENV);
      expect(ok.out, ok.err).toContain('Result: ok');
      expect(ok.code).toBe(0);
      expect(existsSync(empty)).toBe(false);
      // Another chain with the same chain id: its genesis differs, so the proof is pending there.
      other = await startAnvil({ stateDir: mkdtempSync(join(root, 'other-chain-')) });
      const elsewhere = await runCliChild(['verify', proof, '--rpc', other.rpcUrl, '--json'], ENV);
      expect(JSON.parse(elsewhere.out).result.status).toBe('pending');
      expect(stepOf(elsewhere.out, 'blockchain').description.reason).toContain('local development chain');
    } finally {
      await node?.stop();
      await other?.stop();
    }
  }, 120_000);
});
