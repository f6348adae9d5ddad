/**
 * Verifiable Credentials signed and checked on worker threads: certificates issued on the local
 * chain, exported many at once (the bulk download behind `certificate download UID...`), give
 * exactly the credentials signed one at a time on this thread; a missing certificate is its own
 * error; and the workers' Data Integrity check agrees with Digital Bazaar's verifier on this
 * thread, for a genuine, a changed and an unresolvable credential.
 */
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../common/errors.js';
import { staticDocumentLoader } from '../../main/engine/vc/document-loader.js';
import { VcPool } from '../../main/engine/vc/vc-pool.js';
import { verifyCredentialFile } from '../../main/engine/vc/verify-credential.js';
import { addIssuingPartner, issueNowAndFinish, openIssuingEngine, removeTempDirs, stepStatuses, type IssuingFixture, type IssuingPartner } from '../support/issuing-fixture.js';

type Json = Record<string, unknown>;

describe('Verifiable Credentials on worker threads', () => {
  let fx: IssuingFixture;
  let partner: IssuingPartner;
  let uids: string[];
  const pool = new VcPool(2);

  beforeAll(async () => {
    fx = openIssuingEngine();
    partner = await addIssuingPartner(fx.engine, 'University of Many Threads');
    const created = await Promise.all(
      Array.from({ length: 5 }, (_, i) => partner.service.createCredential({ title: `Diploma ${i}`, metadata: { student: `Student ${i}`, ects: 60 + i } })),
    );
    await partner.service.scheduleCredentials({ engine: 'local', credentials: created.map((c) => c.uid) });
    const job = await issueNowAndFinish(fx.engine, partner.service, 'local');
    uids = (await partner.service.listJobCertificates(job.uid, { per_page: 0 })).items.map((c) => c.certificate.uid);
  });

  afterAll(async () => {
    await pool.close();
    await fx?.close();
    removeTempDirs();
  });

  it('exports many certificates on the workers exactly as one at a time, a missing one as its error', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const bulk = await partner.service.downloadCertificateVcs([...uids, missing]);
    expect(bulk).toHaveLength(uids.length + 1);
    for (const [i, uid] of uids.entries()) {
      expect(bulk[i]).toBe(await partner.service.downloadCertificateVc(uid));
      const credential = JSON.parse(bulk[i] as string) as Json;
      expect(credential.id).toBe(`urn:uuid:${uid}`);
      const third = await vc.verifyCredential({ credential, suite: new DataIntegrityProof({ cryptosuite }), documentLoader: staticDocumentLoader });
      expect(third.verified).toBe(true);
    }
    expect(bulk.at(-1)).toBeInstanceOf(ServiceError);
    expect(bulk.at(-1)).toMatchObject({ id: 'missing_certificate' });
  });

  it('checks Data Integrity proofs on the workers as on this thread: genuine, changed, unresolvable', async () => {
    const credentials = (await partner.service.downloadCertificateVcs(uids)).map((text) => JSON.parse(text as string) as Json);
    const changed = { ...credentials[0]!, name: 'Diploma of something else' };
    const proofs = credentials[1]!.proof as Json[];
    const elsewhere = { ...credentials[1]!, proof: [{ ...proofs[0]!, verificationMethod: 'did:web:example.org#key-1' }, proofs[1]] };

    // Asked together: they go to the workers in batches.
    const answers = await Promise.allSettled([...credentials, changed, elsewhere].map((c) => pool.dataIntegrityHolds(c)));
    expect(answers.slice(0, credentials.length)).toEqual(credentials.map(() => ({ status: 'fulfilled', value: true })));
    expect(answers[credentials.length]).toEqual({ status: 'fulfilled', value: false });
    const refused = answers[credentials.length + 1] as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(ServiceError);
    expect((refused.reason as ServiceError).message).toContain('"did:web:example.org#key-1", which Proofdesk cannot resolve offline');

    // Proofdesk's steps give the same results with the check on the workers as on this thread.
    const options = { chainFor: () => ({ reason: 'offline' }), now: () => new Date('2027-01-01T00:00:00Z') };
    for (const credential of [credentials[2]!, changed]) {
      const here = await verifyCredentialFile(credential, options);
      const there = await verifyCredentialFile(credential, { ...options, checkDataIntegrity: pool.dataIntegrityHolds });
      expect(stepStatuses(there)).toEqual(stepStatuses(here));
    }
    expect(stepStatuses(await verifyCredentialFile(changed, { ...options, checkDataIntegrity: pool.dataIntegrityHolds })).certificate).toBe('failed');
  });
});
