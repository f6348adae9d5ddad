/**
 * Verification outcomes of issued certificates through the service and by a verifier holding
 * only the proof file (and an RPC endpoint): ok, failed at the file, expired, revoked, pending
 * while the chain is away; and the errors of revocation.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential } from '../../common/wire-types.js';
import { ChainClient } from '../../main/chain/index.js';
import { ManualClock } from '../../main/engine/index.js';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { chainReaderFor } from '../../main/engine/proofs/verify-chain-reader.js';
import { verifyProof, type VerifyOptions } from '../../main/engine/proofs/verify-proof.js';
import {
  addIssuingPartner,
  errorOf,
  expectOk,
  issueNowAndFinish,
  openIssuingEngine,
  proofOf,
  removeTempDirs,
  sha256Hex,
  stepStatuses,
  type IssuingFixture,
  type IssuingPartner,
} from '../support/issuing-fixture.js';

const OTHER = 'otherchain';
const DIPLOMA = new TextEncoder().encode(`%PDF-1.7 diploma of Ada Lovelace ${randomUUID()}`);
const OTHER_FILE = new TextEncoder().encode(`a file no credential carries ${randomUUID()}`);

/** A verifier with nothing but the proof file and the chain's RPC endpoint. */
function standaloneVerifier(rpcUrl: string): VerifyOptions {
  return { chainFor: async (_engine, chainId) => chainReaderFor(await ChainClient.connect({ rpcUrl, chainId })) };
}

describe('verification outcomes', () => {
  const clock = new ManualClock(Date.now());
  let fx: IssuingFixture;
  let partner: IssuingPartner;
  let withFile: Credential;
  let plain: Credential[];
  let expiring: Credential;
  let notIssued: Credential;
  /** Certificate uid per credential uid. */
  const certificateOf = new Map<string, string>();
  let rpcUrl: string;

  beforeAll(async () => {
    fx = openIssuingEngine({
      clock,
      // Configured but never reached: only used to ask for a certificate on an engine without one.
      engines: [{ id: OTHER, rpc_url: 'http://127.0.0.1:9', chain_id: 11155111, confirmations: 2, environment: 'demo' }],
    });
    partner = await addIssuingPartner(fx.engine, 'Verification University');
    withFile = await partner.service.createAndScheduleCredential('local', {
      file: { data: DIPLOMA, name: 'diploma.pdf' },
      credential_details: { title: 'Diploma with file', metadata: {} },
    });
    plain = await partner.service.createCredentials(Array.from({ length: 4 }, (_, i) => ({ title: `Plain ${i}`, metadata: { i } })));
    expiring = await partner.service.createCredential({ title: 'Short-lived', metadata: { pass: 'day' }, expiry_date: new Date(clock.now() + 60_000).toISOString() });
    notIssued = await partner.service.createCredential({ title: 'Never issued', metadata: { n: 0 } });
    await partner.service.scheduleCredentials({ engine: 'local', credentials: [...plain, expiring].map((c) => c.uid) });
    const job = await issueNowAndFinish(fx.engine, partner.service, 'local');
    for (const c of (await partner.service.listJobCertificates(job.uid, { per_page: 0 })).items) certificateOf.set(c.certificate.credential.uid, c.certificate.uid);
    rpcUrl = (await fx.engine.issuing.ctx.chains.client('local')).rpcUrl;
  });

  afterAll(async () => {
    await fx?.close();
    removeTempDirs();
  });

  it('by original file: ok for the issued file, missing_certificate for a file no credential carries', async () => {
    const error = await errorOf(partner.service.verifyOriginalFile({ data: OTHER_FILE }));
    expect(error.id).toBe('missing_certificate');
    expect(error.status).toBe(404);

    const page = await partner.service.verifyOriginalFile({ data: DIPLOMA, name: 'diploma.pdf' });
    expect(page.total_items).toBe(1);
    expectOk(page.items[0]!);
    expect(page.items[0]!.verification.file.description).toMatchObject({ expected_file_hash: sha256Hex(DIPLOMA), actual_file_hash: sha256Hex(DIPLOMA) });
  });

  it('a proof checked against another file fails at the file step, and the later steps are not started', async () => {
    const proof = await proofOf(partner.service, certificateOf.get(withFile.uid)!);
    expectOk(await verifyProof(proof, fx.engine.issuing.verifyOptions(sha256Hex(DIPLOMA))));

    const wrong = await verifyProof(proof, fx.engine.issuing.verifyOptions(sha256Hex(OTHER_FILE)));
    expect(wrong.result.status).toBe('failed');
    expect(stepStatuses(wrong)).toEqual({ certificate: 'passed', blockchain: 'passed', issuer: 'passed', file: 'failed', expiry: 'not_started', revocation: 'not_started' });
    expect(wrong.verification.file.description).toMatchObject({ expected_file_hash: sha256Hex(DIPLOMA), actual_file_hash: sha256Hex(OTHER_FILE) });
  });

  it('an uploaded proof file verifies ok; a tampered one fails at certificate integrity', async () => {
    const uid = certificateOf.get(plain[0]!.uid)!;
    const text = await partner.service.downloadCertificate(uid);
    expectOk(await partner.service.verifyProofFile({ data: new TextEncoder().encode(text) }));

    const tampered = JSON.parse(text) as ProofFile;
    tampered.certificate.credential.title = 'Doctor of Philosophy';
    const result = await partner.service.verifyProofFile({ data: new TextEncoder().encode(JSON.stringify(tampered)) });
    expect(result.result.status).toBe('failed');
    expect(stepStatuses(result)).toEqual({ certificate: 'failed', blockchain: 'not_started', issuer: 'not_started', file: 'not_started', expiry: 'not_started', revocation: 'not_started' });
  });

  it('a verifier with only the proof file and the RPC endpoint gets ok', async () => {
    const proof = await proofOf(partner.service, certificateOf.get(plain[1]!.uid)!);
    expectOk(await verifyProof(JSON.parse(JSON.stringify(proof)), standaloneVerifier(rpcUrl)));
  });

  it('expired once the clock passes the expiry date', async () => {
    const uid = certificateOf.get(expiring.uid)!;
    expectOk(await partner.service.verifyCertificate(uid));
    clock.advance(120_000);
    const result = await partner.service.verifyCertificate(uid);
    expect(result.result.status).toBe('expired');
    expect(stepStatuses(result)).toEqual({ certificate: 'passed', blockchain: 'passed', issuer: 'passed', file: 'passed', expiry: 'failed', revocation: 'not_started' });
    expect(result.verification.expiry.description).toMatchObject({ expiry_date: expiring.expiry_date });
    const listed = await partner.service.listCertificates({ verification_status: 'expired', per_page: 0 });
    expect(listed.items.map((c) => c.certificate.uid)).toEqual([uid]);
    // The others do not expire.
    expectOk(await partner.service.verifyCertificate(certificateOf.get(plain[3]!.uid)!));
  });

  it('revoked by certificate uid or by credential and engine — for the service and for a standalone verifier', async () => {
    const byCertificate = certificateOf.get(plain[2]!.uid)!;
    const byCredential = plain[3]!;
    const siblingProof = await proofOf(partner.service, certificateOf.get(plain[1]!.uid)!);

    const revoked = await partner.service.revokeCertificate(byCertificate);
    expect(Number.isNaN(Date.parse(revoked.revoked_date))).toBe(false);
    const viaCredential = await partner.service.revokeCredential(byCredential.uid, 'local');

    for (const [uid, date] of [
      [byCertificate, revoked.revoked_date],
      [certificateOf.get(byCredential.uid)!, viaCredential.revoked_date],
    ] as const) {
      const result = await partner.service.verifyCertificate(uid);
      expect(result.result.status).toBe('revoked');
      expect(stepStatuses(result)).toEqual({ certificate: 'passed', blockchain: 'passed', issuer: 'passed', file: 'passed', expiry: 'passed', revocation: 'failed' });
      expect(result.verification.revocation.description).toMatchObject({ is_revoked: true, revocation_date: date });
      expect((await partner.service.listCertificates({ uid, per_page: 0 })).items[0]!.revoked_date).toBe(date);

      const standalone = await verifyProof(await proofOf(partner.service, uid), standaloneVerifier(rpcUrl));
      expect(standalone.result.status).toBe('revoked');
      expect(standalone.verification.revocation.description).toMatchObject({ is_revoked: true, revocation_date: date });
    }
    // Revoking one certificate leaves the rest of its job valid.
    expectOk(await verifyProof(siblingProof, standaloneVerifier(rpcUrl)));

    // Revoked once is enough.
    expect((await errorOf(partner.service.revokeCertificate(byCertificate))).id).toBe('certificate_already_revoked');
    expect((await errorOf(partner.service.revokeCredential(byCredential.uid, 'local'))).id).toBe('certificate_already_revoked');
  });

  it('revocation errors: missing_certificate, missing_certificate_by_credential', async () => {
    expect((await errorOf(partner.service.revokeCertificate(randomUUID()))).id).toBe('missing_certificate');
    expect((await errorOf(partner.service.revokeCertificate('not-a-uid'))).id).toBe('missing_certificate');
    // Another Partner's certificate is not found either.
    const stranger = await addIssuingPartner(fx.engine, 'Stranger');
    expect((await errorOf(stranger.service.revokeCertificate(certificateOf.get(plain[0]!.uid)!))).id).toBe('missing_certificate');

    const notOnEngine = await errorOf(partner.service.revokeCredential(notIssued.uid, 'local'));
    expect(notOnEngine.id).toBe('missing_certificate_by_credential');
    expect(notOnEngine.status).toBe(404);
    expect((await errorOf(partner.service.revokeCredential(plain[0]!.uid, OTHER))).id).toBe('missing_certificate_by_credential');
    expect((await errorOf(partner.service.revokeCredential(randomUUID(), 'local'))).id).toBe('missing_credential');
    expectOk(await partner.service.verifyCertificate(certificateOf.get(plain[0]!.uid)!));
  });

  it('pending while the chain is unreachable, with the offline steps passed; ok again once it is back', async () => {
    const uid = certificateOf.get(withFile.uid)!;
    const revokedUid = certificateOf.get(plain[2]!.uid)!;
    await fx.engine.issuing.ctx.chains.stopLocalChain();
    try {
      const result = await partner.service.verifyCertificate(uid);
      expect(result.result.status).toBe('pending');
      expect(stepStatuses(result)).toEqual({ certificate: 'passed', blockchain: 'pending', issuer: 'passed', file: 'passed', expiry: 'passed', revocation: 'pending' });
      expect(result.verification.blockchain.description.reason).toEqual(expect.any(String));
      expect(result.verification.revocation.description.is_revoked).toBe(false);
      // Not even a revoked certificate is called anything but pending without its chain.
      expect((await partner.service.verifyCertificate(revokedUid)).result.status).toBe('pending');
      expect((await partner.service.listCertificates({ uid, per_page: 0 })).items[0]!.last_verification?.status).toBe('pending');
    } finally {
      fx.engine.issuing.ctx.chains.allowLocalChain();
    }
    // The chain comes back with its state: the same certificates, the same revocation.
    expectOk(await partner.service.verifyCertificate(uid));
    expect((await partner.service.verifyCertificate(revokedUid)).result.status).toBe('revoked');
  });
});
