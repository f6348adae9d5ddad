/**
 * Crash recovery with real processes: a child issues with PROOFDESK_FAULT_POINT set and is
 * SIGKILLed by the engine right after a transaction was signed and stored, or right after it
 * was broadcast. An Engine opened afterwards on the same data directory (same encrypted secrets)
 * finishes the job with the SAME transaction — the account never spends a second nonce on it —
 * and every certificate verifies.
 */
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { chunkSize } from '../../main/engine/issuing/certificate-builder.js';
import { rootFromPath } from '../../main/engine/proofs/merkle-tree.js';
import { verifyProof } from '../../main/engine/proofs/verify-proof.js';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import type { Address } from '../../main/chain/index.js';
import {
  errorOf,
  expectOk,
  hex0x,
  jsonLines,
  makeTempDir,
  openIssuingEngine,
  proofOf,
  removeTempDirs,
  runTsChild,
  tickUntil,
  transactionCount,
  type IssuingFixture,
} from '../support/issuing-fixture.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'crash-issuer.ts');
const PASSPHRASE = 'crash recovery passphrase';
const COUNT = 200;

interface ChildLine {
  partner_id?: string;
  address?: Address;
  job_uid?: string;
  revoking?: string;
  survived?: boolean;
}

/** Runs the child until the fault point kills it; returns what it printed before dying. */
async function crashAt(dataDir: string, faultPoint: string, mode: 'issue' | 'revoke', count = COUNT): Promise<{ partnerId: string; address: Address; jobUid: string; revoking?: string }> {
  const env = { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE, PROOFDESK_FAULT_POINT: faultPoint };
  const result = await runTsChild(CHILD, [dataDir, String(count), mode], env);
  const lines = jsonLines<ChildLine>(result.stdout);
  expect(lines.some((l) => l.survived), `the child was not killed at ${faultPoint}: ${result.stdout} ${result.stderr}`).toBe(false);
  expect(result.signal, `child stderr: ${result.stderr}`).toBe('SIGKILL');
  const first = lines.find((l) => l.job_uid);
  expect(first, `child stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBeDefined();
  return { partnerId: first!.partner_id!, address: first!.address!, jobUid: first!.job_uid!, revoking: lines.find((l) => l.revoking)?.revoking };
}

/** An Engine on the crashed data directory, with the same secrets file. */
async function reopen(dataDir: string): Promise<IssuingFixture> {
  return openIssuingEngine({ dataDir, secrets: await openSecretStore({ dataDir, env: { [PASSPHRASE_ENV]: PASSPHRASE } }) });
}

describe('crash recovery of issuing', () => {
  const open: IssuingFixture[] = [];

  afterAll(async () => {
    for (const fx of open) await fx.close();
    removeTempDirs();
  });

  it.each([
    ['after-sign-issue', 'the issue transaction was signed and stored, not broadcast'],
    ['after-broadcast-issue', 'the issue transaction was broadcast, its receipt not yet seen'],
    ['after-sign-deploy', 'the registry deployment was signed and stored, not broadcast'],
    ['after-broadcast-deploy', 'the registry deployment was broadcast, its receipt not yet seen'],
  ])('killed at %s (%s): the job finishes with one deployment and one issue transaction', async (point) => {
    const dataDir = makeTempDir();
    const crashed = await crashAt(dataDir, point, 'issue');

    const fx = await reopen(dataDir);
    open.push(fx);
    const service = fx.engine.serviceFor(crashed.partnerId);
    const before = await service.getJob(crashed.jobUid);
    expect(before.status).toBe('started');
    expect(before.start_date).not.toBeNull();

    const job = await tickUntil(fx.engine, service, crashed.jobUid, 'finished');
    expect(job.start_date).toBe(before.start_date);
    expect(job.issued_date).not.toBeNull();
    expect(job.finished_date).not.toBeNull();
    expect(job.failed_date).toBeNull();

    const chain = await fx.engine.issuing.ctx.chains.client('local');
    // Nonce 0: the registry deployment; nonce 1: the one issue transaction. Nothing else.
    expect(await transactionCount(chain, crashed.address)).toBe(2);

    const certificates = (await service.listJobCertificates(job.uid, { per_page: 0 })).items;
    expect(certificates).toHaveLength(COUNT);
    const proofs = await Promise.all(certificates.map((c) => proofOf(service, c.certificate.uid)));
    expect(new Set(proofs.map((p) => p.chain.transaction_id)).size).toBe(1);
    const tx = await chain.getTransaction(hex0x(proofs[0]!.chain.transaction_id));
    expect(tx).toMatchObject({ from: crashed.address, nonce: 1, to: proofs[0]!.chain.registry_address });
    const receipt = await chain.getReceipt(hex0x(proofs[0]!.chain.transaction_id));
    expect(job.issued_date).toBe((await chain.blockTimestamp(receipt!.blockNumber)).toISOString());

    const options = fx.engine.issuing.verifyOptions();
    const results = await Promise.all(proofs.map((p) => verifyProof(p, options)));
    results.forEach((r, i) => expectOk(r, `certificate ${certificates[i]!.certificate.uid}`));
    expectOk(await service.verifyCertificate(certificates[0]!.certificate.uid));
  });

  it.each([
    ['after-sign-revoke', 'ok'],
    ['after-broadcast-revoke', 'revoked'],
  ] as const)('killed at %s: revoking again completes with the stored transaction, not a second one', async (point, onChainBefore) => {
    const dataDir = makeTempDir();
    const crashed = await crashAt(dataDir, point, 'revoke');
    expect(crashed.revoking).toBeDefined();
    const uid = crashed.revoking!;

    const fx = await reopen(dataDir);
    open.push(fx);
    const service = fx.engine.serviceFor(crashed.partnerId);
    const chain = await fx.engine.issuing.ctx.chains.client('local');
    // What the chain says before recovery: not revoked when the transaction never left, revoked when it was mined.
    expect((await verifyProof(await proofOf(service, uid), fx.engine.issuing.verifyOptions())).result.status).toBe(onChainBefore);

    const { revoked_date } = await service.revokeCertificate(uid);
    const result = await service.verifyCertificate(uid);
    expect(result.result.status).toBe('revoked');
    expect(result.verification.revocation.description.revocation_date).toBe(revoked_date);
    expect((await errorOf(service.revokeCertificate(uid))).id).toBe('certificate_already_revoked');
    // Deployment, issue, one revocation.
    expect(await transactionCount(chain, crashed.address)).toBe(3);
  });

  it('killed after the first chunk of certificates was stored: the next run keeps it, builds the rest, and the job finishes', async () => {
    // Certificates are stored up to 2,000 per transaction (one signer thread per core): 4,500 credentials make three chunks on two cores.
    const count = 4_500;
    const chunk = chunkSize(count, availableParallelism());
    const dataDir = makeTempDir();
    const crashed = await crashAt(dataDir, 'after-certificate-chunk', 'issue', count);
    const db = new Database(join(dataDir, 'proofdesk.sqlite'), { readonly: true });
    const job = db.prepare('SELECT id, status, root FROM jobs WHERE uid = ?').get(crashed.jobUid) as { id: number; status: string; root: string | null };
    expect(job).toMatchObject({ status: 'started', root: null });
    const kept = db.prepare('SELECT uid FROM certificates WHERE job_id = ? ORDER BY leaf_index').pluck().all(job.id) as string[];
    db.close();
    expect(kept).toHaveLength(chunk);

    const fx = await reopen(dataDir);
    open.push(fx);
    const service = fx.engine.serviceFor(crashed.partnerId);
    await tickUntil(fx.engine, service, crashed.jobUid, 'finished');
    const certificates = (await service.listJobCertificates(crashed.jobUid, { per_page: 0 })).items;
    expect(certificates).toHaveLength(count);
    const uids = new Set(certificates.map((c) => c.certificate.uid));
    expect(kept.every((uid) => uids.has(uid))).toBe(true);
    expect(new Set(certificates.map((c) => c.certificate.credential.uid)).size).toBe(count);

    // Every leaf leads to the one anchored root; a sample verifies against the chain.
    const proofs = await Promise.all(certificates.map((c) => proofOf(service, c.certificate.uid)));
    for (const p of proofs) expect(rootFromPath(Buffer.from(p.leaf, 'hex'), p.merkle_path.map((h) => Buffer.from(h, 'hex'))).toString('hex')).toBe(p.root);
    expect(new Set(proofs.map((p) => p.root)).size).toBe(1);
    const options = fx.engine.issuing.verifyOptions();
    for (const p of [proofs[0]!, proofs[chunk - 1]!, proofs[chunk]!, proofs[count - 1]!]) expectOk(await verifyProof(p, options), p.certificate.uid);
    expect(await transactionCount(await fx.engine.issuing.ctx.chains.client('local'), crashed.address)).toBe(2);
  });
});
