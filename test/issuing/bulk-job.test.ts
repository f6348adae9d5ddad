/**
 * One job of 1,000 credentials on the local chain: one transaction anchors them all, every
 * one of the 1,000 proof files verifies, and every signer thread signed a share of them.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Credential, Job } from '../../common/wire-types.js';
import type { ChainClient } from '../../main/chain/index.js';
import { verifyProof } from '../../main/engine/proofs/verify-proof.js';
import {
  addIssuingPartner,
  createAndSchedule,
  expectOk,
  hex0x,
  openIssuingEngine,
  proofOf,
  removeTempDirs,
  tickUntil,
  transactionCount,
  type IssuingFixture,
  type IssuingPartner,
} from '../support/issuing-fixture.js';

const COUNT = 1_000;

describe('a job of 1,000 credentials', () => {
  let fx: IssuingFixture;
  let partner: IssuingPartner;
  let credentials: Credential[];
  let job: Job;
  let chain: ChainClient;
  // Every message posted to a worker thread while the job is built (the signer pool's included).
  let posted: MockInstance<Worker['postMessage']>;

  beforeAll(async () => {
    posted = vi.spyOn(Worker.prototype, 'postMessage');
    fx = openIssuingEngine();
    partner = await addIssuingPartner(fx.engine, 'Bulk University');
    ({ credentials, job } = await createAndSchedule(partner.service, 'local', COUNT, 'Bulk'));
    const started = await partner.service.issueJobNow({ engine: 'local' });
    expect(started.uid).toBe(job.uid);
    job = await tickUntil(fx.engine, partner.service, job.uid, 'finished');
    chain = await fx.engine.issuing.ctx.chains.client('local');
  });

  afterAll(async () => {
    posted?.mockRestore();
    await fx?.close();
    removeTempDirs();
  });

  it('is anchored by exactly one issue transaction (the account sent the registry deployment and one issue)', async () => {
    expect(await transactionCount(chain, partner.address)).toBe(2);
    const jobs = await partner.service.listJobs({ per_page: 0 });
    expect(jobs.items.map((j) => [j.uid, j.status])).toEqual([[job.uid, 'finished']]);
  });

  it('is signed and compressed on every signer thread, each given a share of the credentials', () => {
    const threads = fx.engine.issuing.ctx.signer.threads;
    const signing = posted.mock.calls.map(([message], i) => ({ message: message as { texts?: string[] }, worker: posted.mock.contexts[i] })).filter((m) => m.message.texts !== undefined);
    expect(new Set(signing.map((m) => m.worker)).size).toBe(threads);
    expect(signing.reduce((n, m) => n + m.message.texts!.length, 0)).toBe(COUNT);
    for (const m of signing) expect(m.message.texts!.length).toBeLessThanOrEqual(Math.ceil(COUNT / threads));
  });

  it('gives exactly one certificate per credential, all in the job', async () => {
    const page = await partner.service.listJobCertificates(job.uid, { per_page: 0 });
    expect(page.total_items).toBe(COUNT);
    expect(new Set(page.items.map((c) => c.certificate.credential.uid))).toEqual(new Set(credentials.map((c) => c.uid)));
    expect(new Set(page.items.map((c) => c.certificate.uid)).size).toBe(COUNT);
    expect((await partner.service.listCertificates({ per_page: 1 })).total_items).toBe(COUNT);
    for (const c of page.items) {
      expect(c.certificate.issued_date).toBe(job.issued_date);
      expect(c.revoked_date).toBeNull();
    }
  });

  it('every proof file verifies ok with all six steps passed, all from the one transaction', async () => {
    const page = await partner.service.listJobCertificates(job.uid, { per_page: 0 });
    const proofs = await Promise.all(page.items.map((c) => proofOf(partner.service, c.certificate.uid)));
    const transactions = new Set(proofs.map((p) => p.chain.transaction_id));
    expect(transactions.size).toBe(1);
    const roots = new Set(proofs.map((p) => p.root));
    expect(roots.size).toBe(1);

    // The one transaction is the account's second (nonce 1, after the deployment), sent to the registry.
    const txHash = hex0x([...transactions][0]!);
    const tx = await chain.getTransaction(txHash);
    expect(tx).toMatchObject({ from: partner.address, nonce: 1, to: proofs[0]!.chain.registry_address });

    const options = fx.engine.issuing.verifyOptions();
    const results = [];
    // In slices, so the chain is not asked 1,000 × 10 things at the same instant.
    for (let i = 0; i < proofs.length; i += 100) {
      results.push(...(await Promise.all(proofs.slice(i, i + 100).map((p) => verifyProof(p, options)))));
    }
    expect(results).toHaveLength(COUNT);
    results.forEach((r, i) => expectOk(r, `proof ${i} (${proofs[i]!.certificate.uid})`));
  });

  it('verification through the service records last_verification, which GET /certificates filters on', async () => {
    const page = await partner.service.listJobCertificates(job.uid, { per_page: 3 });
    const checked = page.items.map((c) => c.certificate.uid);
    for (const uid of checked) expectOk(await partner.service.verifyCertificate(uid), `verifyCertificate ${uid}`);

    const ok = await partner.service.listCertificates({ verification_status: 'ok', per_page: 0 });
    expect(ok.items.map((c) => c.certificate.uid).sort()).toEqual([...checked].sort());
    for (const c of ok.items) expect(c.last_verification).toMatchObject({ status: 'ok' });
    expect((await partner.service.listCertificates({ verification_status: 'failed', per_page: 0 })).total_items).toBe(0);
    const one = await partner.service.listCertificates({ uid: checked[0]!, per_page: 0 });
    expect(Date.parse(one.items[0]!.last_verification!.timestamp)).toBeGreaterThan(Date.parse(job.issued_date!) - 1);
  });
});
