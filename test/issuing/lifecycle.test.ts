/**
 * A job's way through its states and dates on a configured engine that requires 3
 * confirmations (a second anvil, chain id 31338), and a credential issued on two engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther } from 'viem';
import type { Job } from '../../common/wire-types.js';
import {
  addIssuingPartner,
  createAndSchedule,
  errorOf,
  expectOk,
  hex0x,
  issueNowAndFinish,
  openIssuingEngine,
  proofOf,
  removeTempDirs,
  setAutomine,
  startSecondChain,
  stepStatuses,
  tickUntil,
  transactionCount,
  type IssuingFixture,
  type SecondChain,
} from '../support/issuing-fixture.js';

const SLOW = 'slowchain';

// One local engine plus a second anvil whose engine needs 3 confirmations, shared by every test
// here (each test has a Partner of its own).
describe('job lifecycle on an engine requiring 3 confirmations', () => {
  let chain: SecondChain;
  let fx: IssuingFixture;

  beforeAll(async () => {
    chain = await startSecondChain();
    fx = openIssuingEngine({ engines: [chain.engine(SLOW, { confirmations: 3 })] });
  });

  afterAll(async () => {
    await fx?.close();
    await chain?.stop();
    removeTempDirs();
  });

  it('goes scheduled → started → unconfirmed → finished, with its dates set as it goes', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Lifecycle University');
    await chain.client.fund(partner.address, parseEther('10'));
    const { job: scheduled } = await createAndSchedule(partner.service, SLOW, 5, 'Lifecycle');
    expect(scheduled).toMatchObject({ status: 'scheduled', chain: SLOW, start_date: null, issued_date: null, finished_date: null, failed_date: null });
    expect(scheduled.scheduled_date).not.toBeNull();

    // Hold the blocks back, so that the job is seen while its transactions wait.
    await setAutomine(chain.rpcUrl, false);
    let job: Job;
    try {
      job = await partner.service.issueJobNow({ engine: SLOW });
      expect(job).toMatchObject({ uid: scheduled.uid, status: 'started', issued_date: null, finished_date: null });
      expect(job.start_date).not.toBeNull();
      // Nothing is issued before the transaction is mined: no certificate is listed yet.
      expect((await partner.service.listCertificates()).total_items).toBe(0);
      await fx.engine.issuing.tick();
      expect((await partner.service.getJob(job.uid)).status).toBe('started');

      // Block 1 mines the registry deployment; the issue transaction is then signed and sent.
      await chain.client.mine(1);
      await fx.engine.issuing.tick();
      expect((await partner.service.getJob(job.uid)).status).toBe('started');
      // Block 2 mines the issue transaction: one confirmation of three.
      await chain.client.mine(1);
      await fx.engine.issuing.tick();
    } finally {
      await setAutomine(chain.rpcUrl, true);
    }
    job = await partner.service.getJob(job.uid);
    expect(job).toMatchObject({ status: 'unconfirmed', finished_date: null, failed_date: null });

    // issued_date is the time of the block that mined the issue transaction.
    const [certificate] = (await partner.service.listJobCertificates(job.uid, { per_page: 1 })).items;
    const proof = await proofOf(partner.service, certificate!.certificate.uid);
    const receipt = await chain.client.getReceipt(hex0x(proof.chain.transaction_id));
    expect(receipt?.status).toBe('success');
    const blockTime = await chain.client.blockTimestamp(receipt!.blockNumber);
    expect(job.issued_date).toBe(blockTime.toISOString());
    expect(certificate!.certificate.issued_date).toBe(job.issued_date);
    expect(proof.issued_date).toBe(job.issued_date);

    // Verification meanwhile: pending at the chain step, every other step passed.
    let result = await partner.service.verifyCertificate(certificate!.certificate.uid);
    expect(result.result.status).toBe('pending');
    expect(stepStatuses(result)).toEqual({ certificate: 'passed', blockchain: 'pending', issuer: 'passed', file: 'passed', expiry: 'passed', revocation: 'passed' });
    expect(result.verification.blockchain.description.confirmations).toBe('1');

    // A second block: two confirmations, still not enough.
    await chain.client.mine(1);
    await fx.engine.issuing.tick();
    expect((await partner.service.getJob(job.uid)).status).toBe('unconfirmed');
    result = await partner.service.verifyCertificate(certificate!.certificate.uid);
    expect(result.result.status).toBe('pending');
    expect(result.verification.blockchain.description.confirmations).toBe('2');

    // The third confirmation finishes the job.
    await chain.client.mine(1);
    job = await tickUntil(fx.engine, partner.service, job.uid, 'finished', 3);
    expect(job.finished_date).not.toBeNull();
    expect(job.issued_date).toBe(blockTime.toISOString());
    expect(Date.parse(job.finished_date!)).toBeGreaterThanOrEqual(Date.parse(job.start_date!));
    expect(Date.parse(job.start_date!)).toBeGreaterThanOrEqual(Date.parse(job.created_date));
    expect(job.failed_date).toBeNull();
    result = await partner.service.verifyCertificate(certificate!.certificate.uid);
    expectOk(result);
    expect(result.verification.blockchain.description.confirmations).toBe('3');
    // The deployment and one issue transaction.
    expect(await transactionCount(chain.client, partner.address)).toBe(2);

    const finished = await partner.service.listJobs({ status: 'finished', per_page: 0 });
    expect(finished.items.map((j) => j.uid)).toEqual([job.uid]);
  });

  it('stays unconfirmed until 2 more blocks are mined; revoking is refused meanwhile', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Patient College');
    await chain.client.fund(partner.address, parseEther('10'));
    const { credentials } = await createAndSchedule(partner.service, SLOW, 3, 'Patient');
    const job = await partner.service.issueJobNow({ engine: SLOW });
    // Mined at once (automine), though the registry's receipt may only be seen in the next round.
    await tickUntil(fx.engine, partner.service, job.uid, 'unconfirmed');
    for (let i = 0; i < 3; i++) await fx.engine.issuing.tick();
    expect((await partner.service.getJob(job.uid)).status).toBe('unconfirmed');

    const uid = (await partner.service.listJobCertificates(job.uid, { per_page: 1 })).items[0]!.certificate.uid;
    expect((await partner.service.verifyCertificate(uid)).result.status).toBe('pending');
    expect((await errorOf(partner.service.revokeCertificate(uid))).id).toBe('unconfirmed_certificate_transaction');
    expect((await errorOf(partner.service.revokeCredential(credentials[0]!.uid, SLOW))).id).toBe('unconfirmed_certificate_transaction');
    expect((await partner.service.listCertificates({ uid, per_page: 0 })).items[0]!.revoked_date).toBeNull();

    await chain.client.mine(1);
    await fx.engine.issuing.tick();
    expect((await partner.service.getJob(job.uid)).status).toBe('unconfirmed');
    await chain.client.mine(1);
    await tickUntil(fx.engine, partner.service, job.uid, 'finished', 2);
    expectOk(await partner.service.verifyCertificate(uid));
  });

  describe('a credential issued on two engines', () => {

    it('has one certificate per engine, both verify ok, and cannot be scheduled on either again', async () => {
      const partner = await addIssuingPartner(fx.engine, 'Two Chains Institute');
      await chain.client.fund(partner.address, parseEther('10'));
      const credential = await partner.service.createCredential({ title: 'Twice anchored', metadata: { holder: 'Ada' } });
      const other = await partner.service.createCredential({ title: 'Local only', metadata: { holder: 'Bob' } });
      await partner.service.scheduleCredentials({ engine: 'local', credentials: [credential.uid, other.uid] });
      await partner.service.scheduleCredentials({ engine: SLOW, credentials: [credential.uid] });

      const localJob = await issueNowAndFinish(fx.engine, partner.service, 'local');
      const slowJob = await partner.service.issueJobNow({ engine: SLOW });
      await tickUntil(fx.engine, partner.service, slowJob.uid, 'unconfirmed');
      await chain.client.mine(2);
      await tickUntil(fx.engine, partner.service, slowJob.uid, 'finished');

      const certificates = await partner.service.listCertificates({ credential_uid: credential.uid, per_page: 0 });
      expect(certificates.total_items).toBe(2);
      const proofs = await Promise.all(certificates.items.map((c) => proofOf(partner.service, c.certificate.uid)));
      expect(proofs.map((p) => [p.chain.engine, p.chain.chain_id]).sort()).toEqual([
        ['local', 31337],
        [SLOW, 31338],
      ]);
      expect(new Set(proofs.map((p) => p.certificate.credential.uid))).toEqual(new Set([credential.uid]));
      expect(localJob.chain).toBe('local');

      const results = await partner.service.verifyCredential(credential.uid);
      expect(results.total_items).toBe(2);
      expect(results.items).toHaveLength(2);
      for (const r of results.items) expectOk(r);

      for (const engine of ['local', SLOW]) {
        expect((await errorOf(partner.service.scheduleCredentials({ engine, credentials: [credential.uid] }))).id).toBe('credential_already_scheduled_or_issued');
        // All or nothing: with an issued one in the list, the free one is not scheduled either.
        expect((await errorOf(partner.service.scheduleCredentials({ engine, credentials: [other.uid, credential.uid] }))).id).toBe('credential_already_scheduled_or_issued');
      }
      // The failed calls changed nothing: no job was opened for `other` on the slow engine.
      expect((await partner.service.listJobs({ status: 'scheduled', per_page: 0 })).total_items).toBe(0);

      // Revoking one engine's certificate leaves the other's valid.
      await partner.service.revokeCredential(credential.uid, SLOW);
      const after = await partner.service.verifyCredential(credential.uid);
      const byEngine = Object.fromEntries(
        await Promise.all(
          after.items.map(async (r) => {
            const txId = r.verification.blockchain.description.tx_id as string;
            const proof = proofs.find((p) => p.chain.transaction_id === txId)!;
            return [proof.chain.engine, r.result.status] as const;
          }),
        ),
      );
      expect(byEngine).toEqual({ local: 'ok', [SLOW]: 'revoked' });
    });
  });
});
