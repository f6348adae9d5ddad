/**
 * A folder holding the proofs of two jobs of two Partners, interleaved (so each batch of the
 * worker threads mixes issuers, roots and transactions), with a proof whose certificate was
 * altered, one carrying another proof's signature, and one whose certificate was revoked on
 * chain: verified the fast way (worker threads reading the files, the chain reads shared per
 * run), by the engine and by the CLI's `verify DIR`, every proof gets the result it gets alone.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationResult } from '../../common/wire-types.js';
import { ChainClient, encodeRevoke } from '../../main/chain/index.js';
import { OFFLINE_POOL_FROM, openVerifyingRun } from '../../main/engine/proofs/verify-many.js';
import { checksOf } from '../../main/engine/proofs/verify-offline.js';
import { offlinePoolRunning } from '../../main/engine/proofs/verify-offline-pool.js';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { VERIFICATION_STEP_NAMES, verifyChecked, verifyProof } from '../../main/engine/proofs/verify-proof.js';
import { send, startNode, stopAllNodes } from '../chain/chain-fixture.js';
import { cliInProcess as cli } from '../support/cli-in-process.js';
import { copyProof, issueBatch, makeCredential, makePartner, optionsFor } from './proof-fixture.js';

const NOW = () => new Date('2027-01-01T00:00:00Z');
const PER_JOB = 40;
/** Job A's proof whose title was changed after issuing; job A's proof carrying its neighbour's signature; job B's revoked one. */
const ALTERED = 7;
const SWAPPED = 21;
const REVOKED = 13;

let root: string;
let folder: string;
let rpcUrl: string;
let direct: ChainClient;
/** The folder's proofs in file order (a0, b0, a1, b1, ...), and what each is. */
const files: { path: string; proof: ProofFile; what: 'ok' | 'altered' | 'swapped' | 'revoked' }[] = [];

beforeAll(async () => {
  const node = await startNode();
  rpcUrl = node.rpcUrl;
  direct = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: node.chainId, timeoutMs: 10_000 });
  const [ada, bob] = [await makePartner(direct, 'Ada University'), await makePartner(direct, 'Bob College')];
  const jobA = await issueBatch(direct, ada, Array.from({ length: PER_JOB }, (_, i) => makeCredential({ title: `Ada ${i}`, files: [] })));
  const jobB = await issueBatch(direct, bob, Array.from({ length: PER_JOB }, (_, i) => makeCredential({ title: `Bob ${i}`, files: [] })));
  await send(direct, bob.account.key, { to: bob.registry, data: encodeRevoke(`0x${jobB.leaves[REVOKED]!.toString('hex')}`) });

  const altered = copyProof(jobA.proofs[ALTERED]!);
  altered.certificate.credential.title = 'Ada 7 (with honours)';
  const swapped = copyProof(jobA.proofs[SWAPPED]!);
  swapped.issuer.signature = jobA.proofs[SWAPPED + 1]!.issuer.signature;

  root = mkdtempSync(join(tmpdir(), 'proofdesk-verify-mixed-'));
  folder = join(root, 'proofs');
  const write = (name: string, proof: ProofFile, what: (typeof files)[number]['what']) => files.push({ path: join(folder, name), proof, what });
  for (let i = 0; i < PER_JOB; i++) {
    write(`${String(i).padStart(3, '0')}-a.proof.json`, i === ALTERED ? altered : i === SWAPPED ? swapped : jobA.proofs[i]!, i === ALTERED ? 'altered' : i === SWAPPED ? 'swapped' : 'ok');
    write(`${String(i).padStart(3, '0')}-b.proof.json`, jobB.proofs[i]!, i === REVOKED ? 'revoked' : 'ok');
  }
  mkdirSync(folder);
  for (const f of files) writeFileSync(f.path, JSON.stringify(f.proof, null, 2));
}, 180_000);

afterAll(async () => {
  await stopAllNodes();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The status and failing step each kind of proof must show. */
const EXPECTED = {
  ok: { status: 'ok', step: '' },
  altered: { status: 'failed', step: VERIFICATION_STEP_NAMES.certificate },
  swapped: { status: 'failed', step: VERIFICATION_STEP_NAMES.issuer },
  revoked: { status: 'revoked', step: VERIFICATION_STEP_NAMES.revocation },
} as const;

describe('a folder of two jobs with altered and revoked proofs, verified the fast way', () => {
  it('the engine gives each proof, read from its file on the worker threads, the result it gets alone', async () => {
    expect(files.length).toBeGreaterThanOrEqual(OFFLINE_POOL_FROM);
    const run = openVerifyingRun(optionsFor(direct, { now: NOW }), files.length);
    const results: VerificationResult[] = [];
    try {
      const outcome = run.checkAll(files.map((f) => ({ path: f.path })));
      // The worker threads, not this thread, checked the files.
      expect(offlinePoolRunning()).toBe(true);
      await run.each(files.length, async (i) => {
        const o = await outcome(i);
        if (o.kind !== 'checked') throw new Error(`${files[i]!.path}: ${o.kind}`);
        results[i] = await verifyChecked(o.core, checksOf(o), run.options);
      });
    } finally {
      await run.close();
    }
    for (const [i, f] of files.entries()) {
      expect(results[i]!.result.status, f.path).toBe(EXPECTED[f.what].status);
      expect(results[i], f.path).toEqual(await verifyProof(f.proof, optionsFor(direct, { now: NOW })));
    }
    const revoked = results[files.findIndex((f) => f.what === 'revoked')]!;
    expect(revoked.verification.revocation.description).toMatchObject({ is_revoked: true });
    expect(revoked.verification.revocation.description.revocation_date).toMatch(/^\d{4}-\d\d-\d\dT/);
    const altered = results[files.findIndex((f) => f.what === 'altered')]!;
    expect(altered.verification.certificate.description.actual_hash).not.toBe(altered.verification.certificate.description.expected_hash);
    expect(altered.verification.blockchain.status).toBe('not_started');
  }, 120_000);

  it('`verify DIR` reports each proof with its own result and the step that stopped it', async () => {
    const report = join(root, 'report.csv');
    const { code, out } = await cli('verify', folder, '--rpc', rpcUrl, '--data', join(root, 'no-data'), '--report', report, '--json');
    expect(code).toBe(1);
    const summary = JSON.parse(out) as { total: number; counts: Record<string, number>; proofs: { path: string; result: string; step: string }[] };
    expect(summary.total).toBe(files.length);
    expect(summary.counts).toEqual({ ok: files.length - 3, failed: 2, revoked: 1 });
    for (const f of files) {
      const row = summary.proofs.find((r) => r.path === f.path);
      expect({ path: f.path, result: row?.result, step: row?.step }).toEqual({ path: f.path, result: EXPECTED[f.what].status, step: EXPECTED[f.what].step });
    }
  }, 120_000);
});
