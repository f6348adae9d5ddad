/**
 * Two data directories open in one process (the app's "second machine" after a key restore, or
 * two engines in a test): the same Partner, the same job ids, but each its own jobs. A proof
 * built in one must never use the other's Merkle tree or payload dictionary.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { addIssuingPartner, createAndSchedule, expectOk, issueNowAndFinish, openIssuingEngine, proofOf, removeTempDirs, certificateUidsOfJob, type IssuingFixture } from '../support/issuing-fixture.js';

const open: IssuingFixture[] = [];
afterAll(async () => {
  await Promise.all(open.map((f) => f.close()));
  removeTempDirs();
});

describe('two data directories in one process', () => {
  it('the restored Partner\'s job 1 on the second machine verifies, though the first machine\'s job 1 was read just before', async () => {
    const first = openIssuingEngine();
    open.push(first);
    const partner = await addIssuingPartner(first.engine, 'Acme University');
    const a = await createAndSchedule(partner.service, 'local', 3, 'First machine');
    const jobA = await issueNowAndFinish(first.engine, partner.service, 'local');
    expect(jobA.uid).toBe(a.job.uid);
    // Reading a proof of the first machine's job 1 keeps its tree and dictionary at hand.
    const [certA] = await certificateUidsOfJob(partner.service, jobA.uid);
    await proofOf(partner.service, certA!);

    const second = openIssuingEngine();
    open.push(second);
    await second.engine.restorePartner(await first.engine.backupPartner(partner.id));
    const restored = second.engine.serviceFor(partner.id);
    const b = await createAndSchedule(restored, 'local', 2, 'Second machine, other titles');
    const jobB = await issueNowAndFinish(second.engine, restored, 'local');
    expect(jobB.uid).toBe(b.job.uid);

    for (const credential of b.credentials) {
      const [result] = (await restored.verifyCredential(credential.uid)).items;
      expectOk(result!, `credential ${credential.title} of the second machine`);
    }
    const [certB] = await certificateUidsOfJob(restored, jobB.uid);
    expect(((await proofOf(restored, certB!)).certificate as unknown as { credential: { title: string } }).credential.title).toMatch(/^Second machine/);
    // And the first machine's proofs are still its own.
    const [again] = (await partner.service.verifyCredential(a.credentials[0]!.uid)).items;
    expectOk(again!, 'the first machine after the second');
  }, 120_000);
});
