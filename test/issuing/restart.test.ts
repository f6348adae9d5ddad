/**
 * Restart: an Engine closed and a new one opened on the same data directory (and the same
 * encrypted secrets file) finds every certificate still valid on the local chain, whose state
 * was persisted, and goes on issuing with the same registry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import { verifyProof } from '../../main/engine/proofs/verify-proof.js';
import {
  addIssuingPartner,
  createAndSchedule,
  expectOk,
  issueNowAndFinish,
  makeTempDir,
  openIssuingEngine,
  proofOf,
  removeTempDirs,
  transactionCount,
  type IssuingFixture,
} from '../support/issuing-fixture.js';

const env = { [PASSPHRASE_ENV]: 'restart passphrase' };

describe('restarting the engine', () => {
  let dataDir: string;
  let before: IssuingFixture | undefined;
  let after: IssuingFixture | undefined;

  beforeAll(() => {
    dataDir = makeTempDir();
  });

  afterAll(async () => {
    await before?.close();
    await after?.close();
    removeTempDirs();
  });

  it('keeps every certificate verifiable, the revocations, and the registry', async () => {
    before = openIssuingEngine({ dataDir, secrets: await openSecretStore({ dataDir, env }), keepDir: true });
    const partner = await addIssuingPartner(before.engine, 'Restarted University');
    await createAndSchedule(partner.service, 'local', 10, 'First');
    const firstJob = await issueNowAndFinish(before.engine, partner.service, 'local');
    await createAndSchedule(partner.service, 'local', 5, 'Second');
    const secondJob = await issueNowAndFinish(before.engine, partner.service, 'local');
    const all = (await partner.service.listCertificates({ per_page: 0 })).items.map((c) => c.certificate.uid);
    expect(all).toHaveLength(15);
    const revoked = all[3]!;
    const { revoked_date } = await partner.service.revokeCertificate(revoked);
    const registry = (await proofOf(partner.service, all[0]!)).chain.registry_address;
    await before.close();
    before = undefined;

    after = openIssuingEngine({ dataDir, secrets: await openSecretStore({ dataDir, env }), keepDir: true });
    const service = after.engine.serviceFor(partner.id);
    expect((await service.getJob(firstJob.uid)).status).toBe('finished');
    expect(await service.getJob(secondJob.uid)).toEqual(secondJob);

    const options = after.engine.issuing.verifyOptions();
    for (const uid of all) {
      const result = await verifyProof(await proofOf(service, uid), options);
      if (uid === revoked) {
        expect(result.result.status).toBe('revoked');
        expect(result.verification.revocation.description.revocation_date).toBe(revoked_date);
      } else {
        expectOk(result, uid);
      }
    }
    expectOk(await service.verifyCertificate(all[0]!));
    const chain = await after.engine.issuing.ctx.chains.client('local');
    // Deployment, two issues, one revocation.
    expect(await transactionCount(chain, partner.address)).toBe(4);

    // Issuing goes on with the same registry and the next nonce.
    await createAndSchedule(service, 'local', 3, 'Third');
    const thirdJob = await issueNowAndFinish(after.engine, service, 'local');
    const third = (await service.listJobCertificates(thirdJob.uid, { per_page: 0 })).items;
    const proof = await proofOf(service, third[0]!.certificate.uid);
    expect(proof.chain.registry_address).toBe(registry);
    expectOk(await service.verifyCertificate(third[0]!.certificate.uid));
    expect(await transactionCount(chain, partner.address)).toBe(5);
  });
});
