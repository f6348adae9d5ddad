/**
 * The behaviour suite of part 2 (issuing, certificates, download, verification, revocation),
 * written against the IssuingService interface only, so that the same assertions run against
 * the embedded engine and against the remote client talking to `serve`.
 *
 * The context gives one Partner on a service whose `local` engine issues for real (the
 * engine's anvil) with a scheduler running, so that a job moves on by itself, and a second
 * engine that is configured but never issued on.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, isServiceError, type ErrorId, type ServiceError } from '../../common/errors.js';
import type { IssuingService } from '../../common/issuing-service.js';
import type { Credential, Job, VerificationResult, VerificationStepKey } from '../../common/wire-types.js';

export interface LifecycleContext {
  service: IssuingService;
  close(): Promise<void>;
}

const WIRE_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const STEPS: VerificationStepKey[] = ['certificate', 'blockchain', 'issuer', 'file', 'expiry', 'revocation'];

async function expectError(promise: Promise<unknown>, id: ErrorId): Promise<ServiceError> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  expect(isServiceError(error), `expected a ServiceError ${id}, got ${String(error)}`).toBe(true);
  const e = error as ServiceError;
  expect({ id: e.id, status: e.status }, e.message).toEqual({ id, status: ERROR_STATUS[id] });
  return e;
}

function statuses(result: VerificationResult): Record<string, string> {
  return Object.fromEntries(STEPS.map((k) => [k, result.verification[k].status]));
}

function expectAllPassed(result: VerificationResult): void {
  expect({ status: result.result.status, steps: statuses(result) }).toEqual({ status: 'ok', steps: Object.fromEntries(STEPS.map((k) => [k, 'passed'])) });
  expect(result.result.timestamp).toMatch(WIRE_DATE);
}

async function waitForStatus(service: IssuingService, uid: string, status: Job['status'], timeoutMs = 60_000): Promise<Job> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await service.getJob(uid);
    if (job.status === status) return job;
    if (job.status === 'failed' || Date.now() > until) throw new Error(`job ${uid} is ${job.status}, waited for ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function describeIssuingLifecycle(label: string, makeContext: () => Promise<LifecycleContext>): void {
  describe(`${label}: issuing, certificates, verification, revocation`, () => {
    let ctx: LifecycleContext;
    let svc: IssuingService;
    let dir: string;
    let originalPath: string;
    let originalBytes: Buffer;
    let credential: Credential;
    let metaOnly: Credential;
    let job: Job;
    let certificateUid: string;
    let proofText: string;

    beforeAll(async () => {
      ctx = await makeContext();
      svc = ctx.service;
      dir = mkdtempSync(join(tmpdir(), 'proofdesk-lifecycle-'));
      originalBytes = Buffer.from(`%PDF-1.4\n% diploma of Ada Lovelace ${randomUUID()}\n%%EOF\n`);
      originalPath = join(dir, 'diploma.pdf');
      writeFileSync(originalPath, originalBytes);
    });
    afterAll(async () => {
      await ctx?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('a credential made with a file from disk is issued at once on local and its job reaches finished', async () => {
      credential = await svc.createAndScheduleCredential('local', {
        file: { path: originalPath },
        credential_details: { title: 'Diploma', metadata: { holder: 'Ada Lovelace' }, tags: ['wire-test'] },
      });
      expect(credential.files).toEqual([{ file_hash: createHash('sha256').update(originalBytes).digest('hex'), file_type: 'application/pdf' }]);
      metaOnly = await svc.createCredential({ title: 'Transcript', metadata: { holder: 'Ada Lovelace', grades: ['A', 'A+'] } });
      const scheduled = await svc.scheduleCredentials({ engine: 'local', credentials: [metaOnly.uid] });
      const started = await svc.issueJobNow({ engine: 'local' });
      expect(started.uid).toBe(scheduled.uid);
      expect(['started', 'unconfirmed', 'finished']).toContain(started.status);
      expect(started.start_date).toMatch(WIRE_DATE);
      job = await waitForStatus(svc, started.uid, 'finished');
      expect(job).toMatchObject({ uid: started.uid, chain: 'local', status: 'finished', failed_date: null });
      expect(job.issued_date).toMatch(WIRE_DATE);
      expect(job.finished_date).toMatch(WIRE_DATE);
      expect((await svc.listJobs({ status: 'finished' })).items.map((j) => j.uid)).toEqual([job.uid]);
      expect((await svc.listJobCredentials(job.uid, { per_page: 0 })).items.map((c) => c.uid)).toEqual([credential.uid, metaOnly.uid]);
      // Issued: it cannot be scheduled on local again.
      await expectError(svc.scheduleCredentials({ engine: 'local', credentials: [credential.uid] }), 'credential_already_scheduled_or_issued');
    });

    it('its certificates are listed, with every filter, one per credential', async () => {
      const all = await svc.listCertificates({ per_page: 0 });
      expect(all.total_items).toBe(2);
      const mine = await svc.listCertificates({ credential_uid: credential.uid });
      expect(mine.items).toHaveLength(1);
      const certificate = mine.items[0]!;
      certificateUid = certificate.certificate.uid;
      expect(certificate).toMatchObject({ revoked_date: null, certificate: { credential: { uid: credential.uid, title: 'Diploma' } } });
      expect(certificate.certificate.issued_date).toMatch(WIRE_DATE);
      expect(typeof certificate.certificate.signature).toBe('string');
      expect((await svc.listCertificates({ uid: certificateUid })).items).toEqual([certificate]);
      expect((await svc.listCertificates({ job_uid: job.uid, per_page: 0 })).total_items).toBe(2);
      expect((await svc.listCertificates({ and_credential_tags: ['wire-test'] })).items.map((c) => c.certificate.uid)).toEqual([certificateUid]);
      expect((await svc.listCertificates({ or_credential_tags: 'nope,wire-test' })).total_items).toBe(1);
      expect((await svc.listCertificates({ and_job_tags: 'never-tagged' })).total_items).toBe(0);
      expect((await svc.listJobCertificates(job.uid, { per_page: 0 })).items.map((c) => c.certificate.uid).sort()).toEqual(all.items.map((c) => c.certificate.uid).sort());
      expect((await svc.listCertificates({ issued_date_until: '2000-01-01' })).total_items).toBe(0);
    });

    it('the certificate downloads as a Verifiable Credential of the same certificate', async () => {
      const credential = JSON.parse(await svc.downloadCertificateVc(certificateUid)) as { id: string; type: string[]; proof: { type: string }[] };
      expect(credential.id).toBe(`urn:uuid:${certificateUid}`);
      expect(credential.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
      expect(credential.proof.map((p) => p.type)).toEqual(['DataIntegrityProof', 'ProofdeskAnchorProof']);
      await expectError(svc.downloadCertificateVc(randomUUID()), 'missing_certificate');
    });

    it('the downloaded proof file verifies as uploaded (from disk and from bytes), and so does the original file', async () => {
      proofText = await svc.downloadCertificate(certificateUid);
      const proof = JSON.parse(proofText) as { certificate: { uid: string }; chain: { engine: string } };
      expect(proof.certificate.uid).toBe(certificateUid);
      expect(proof.chain.engine).toBe('local');
      const proofPath = join(dir, 'proof.json');
      writeFileSync(proofPath, proofText);
      expectAllPassed(await svc.verifyProofFile({ path: proofPath }));
      expectAllPassed(await svc.verifyProofFile({ data: new TextEncoder().encode(proofText), name: 'proof.json' }));
      expectAllPassed(await svc.verifyCertificate(certificateUid));
      const byFile = await svc.verifyOriginalFile({ path: originalPath });
      expect({ total_items: byFile.total_items, page: byFile.page }).toEqual({ total_items: 1, page: 1 });
      expectAllPassed(byFile.items[0]!);
      expect(byFile.items[0]!.verification.file.description).toMatchObject({ actual_file_hash: credential.files[0]!.file_hash });
      const byCredential = await svc.verifyCredential(credential.uid);
      expect(byCredential.total_items).toBe(1);
      expectAllPassed(byCredential.items[0]!);
      const listed = (await svc.listCertificates({ uid: certificateUid })).items[0]!;
      expect(listed.last_verification?.status).toBe('ok');
    });

    it('a tampered proof fails at its step; verification errors are the spec\'s', async () => {
      const tampered = JSON.parse(proofText) as { certificate: { credential: { title: string } } };
      tampered.certificate.credential.title = 'Doctor of Philosophy';
      const result = await svc.verifyProofFile({ data: new TextEncoder().encode(JSON.stringify(tampered)), name: 'proof.json' });
      expect(result.result.status).toBe('failed');
      expect(result.verification.certificate.status).toBe('failed');
      expect(result.verification.revocation.status).toBe('not_started');
      await expectError(svc.verifyProofFile(undefined), 'no_file_on_payload');
      await expectError(svc.verifyOriginalFile(undefined), 'no_file_on_payload');
      await expectError(svc.verifyProofFile({ data: new TextEncoder().encode('not json at all') }), 'invalid_value');
      await expectError(svc.verifyOriginalFile({ data: new TextEncoder().encode(`no credential carries this ${randomUUID()}`) }), 'missing_certificate');
      await expectError(svc.verifyCertificate(randomUUID()), 'missing_certificate');
      await expectError(svc.downloadCertificate(randomUUID()), 'missing_certificate');
      await expectError(svc.verifyCredential(randomUUID()), 'missing_credential');
      await expectError(svc.verifyOriginalFile({ path: originalPath }, { per_page: 'x' }), 'wrong_pagination_argument');
    });

    it('issuing errors: nothing scheduled, an empty job, an unknown engine, a chain that cannot be reached, no body', async () => {
      await expectError(svc.issueJobNow({ engine: 'local' }), 'missing_job');
      await expectError(svc.issueJobNow({ engine: 'nowhere' }), 'wrong_blockchain_engine');
      await expectError(svc.issueJobNow(null as never), 'no_json');
      await expectError(svc.issueJobNow({} as never), 'missing_field');
      // A job left empty by unscheduling its only credential.
      const lonely = await svc.createCredential({ title: 'Lonely', metadata: { n: 1 } });
      const empty = await svc.scheduleCredentials({ engine: 'local', credentials: [lonely.uid] });
      expect((await svc.unscheduleCredential(lonely.uid, 'local')).credential_deleted).toBe(true);
      await expectError(svc.issueJobNow({ engine: 'local' }), 'empty_credential_list');
      expect((await svc.getJob(empty.uid)).status).toBe('scheduled');
      // The second engine's RPC endpoint is not there: ask again later, and nothing started.
      const { other } = { other: (await svc.listEngines()).map((e) => e.id).find((id) => id !== 'local')! };
      const waiting = await svc.createCredential({ title: 'Waiting', metadata: { n: 2 } });
      const otherJob = await svc.scheduleCredentials({ engine: other, credentials: [waiting.uid] });
      await expectError(svc.issueJobNow({ engine: other }), 'try_again_later');
      expect((await svc.getJob(otherJob.uid)).status).toBe('scheduled');
    });

    it('revoking the certificate makes every verification say revoked; revoking again is certificate_already_revoked', async () => {
      const revoked = await svc.revokeCertificate(certificateUid);
      expect(revoked.revoked_date).toMatch(WIRE_DATE);
      const byUid = await svc.verifyCertificate(certificateUid);
      expect(byUid.result.status).toBe('revoked');
      expect(byUid.verification.revocation).toMatchObject({ status: 'failed', description: { is_revoked: true } });
      expect((await svc.verifyProofFile({ data: new TextEncoder().encode(proofText) })).result.status).toBe('revoked');
      expect((await svc.verifyOriginalFile({ path: originalPath })).items[0]!.result.status).toBe('revoked');
      expect((await svc.listCertificates({ uid: certificateUid })).items[0]!.revoked_date).toBe(revoked.revoked_date);
      await expectError(svc.revokeCertificate(certificateUid), 'certificate_already_revoked');
      await expectError(svc.revokeCredential(credential.uid, 'local'), 'certificate_already_revoked');
    });

    it('revoking by credential and engine works too; the errors of revocation are the spec\'s', async () => {
      const { other } = await (async () => ({ other: (await svc.listEngines()).map((e) => e.id).find((id) => id !== 'local')! }))();
      await expectError(svc.revokeCredential(metaOnly.uid, other), 'missing_certificate_by_credential');
      await expectError(svc.revokeCredential(randomUUID(), 'local'), 'missing_credential');
      await expectError(svc.revokeCertificate(randomUUID()), 'missing_certificate');
      const revoked = await svc.revokeCredential(metaOnly.uid, 'local');
      expect(revoked.revoked_date).toMatch(WIRE_DATE);
      const [result] = (await svc.verifyCredential(metaOnly.uid)).items;
      expect(result!.result.status).toBe('revoked');
    });
  });
}
