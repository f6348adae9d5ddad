/**
 * Every endpoint of the spec reachable over HTTP with its success status and the `{result,
 * meta}` envelope, on a real engine issuing on the local chain: files, credentials, tags,
 * scheduling, jobs, immediate issuing, certificates, the proof file, verification, revocation.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate, Credential, FileRecord, Job, Page, RevokeResult, UnscheduleResult, VerificationResult } from '../../common/wire-types.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectError, expectNoContent, expectResult, formOf, startApiFixture, type ApiFixture } from './api-fixture.js';

const DIPLOMA = 'Ada Lovelace, BSc Mathematics, first class honours';
const SCHEDULED_FILE = 'Transcript of Ada Lovelace';

async function waitForJob(api: ApiFixture, uid: string, status: string): Promise<Job> {
  const until = Date.now() + 30_000;
  for (;;) {
    const job = expectResult<Job>(await api.call('GET', `/jobs/${uid}`), 200);
    if (job.status === status) return job;
    if (Date.now() > until) throw new Error(`job ${uid} is ${job.status}, not ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('every endpoint over HTTP (demo server, local chain)', () => {
  let api: ApiFixture;
  let file: FileRecord;
  let credential: Credential;
  let scheduledByForm: Credential;
  let job: Job;
  let certificates: Certificate[];

  beforeAll(async () => {
    api = await startApiFixture();
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it('GET /engines lists local', async () => {
    const engines = expectResult<unknown[]>(await api.call('GET', '/engines'), 200);
    expect(engines).toContainEqual({ id: 'local', chain_id: 31337, environment: 'demo', confirmations: 1 });
  });

  it('GET /engines/<engine> gives one engine, and 422 wrong_blockchain_engine for one the service does not offer', async () => {
    expect(expectResult(await api.call('GET', '/engines/local'), 200)).toEqual({ id: 'local', chain_id: 31337, environment: 'demo', confirmations: 1 });
    const unknown = await api.call('GET', '/engines/nowhere');
    expectError(unknown, 'wrong_blockchain_engine');
    expect(unknown.body.error.message).toContain('Unknown blockchain engine "nowhere"');
  });

  it('POST /files uploads (201), GET /files lists, GET /files/<hash> reads', async () => {
    file = expectResult<FileRecord>(await api.call('POST', '/files', { body: formOf([], { data: DIPLOMA, name: 'diploma.txt' }) }), 201);
    expect(file).toEqual({ file_hash: createHash('sha256').update(DIPLOMA).digest('hex'), file_type: 'text/plain' });
    const page = expectResult<Page<FileRecord>>(await api.call('GET', '/files?per_page=5'), 200);
    expect(page).toEqual({ page: 1, total_pages: 1, per_page: 5, total_items: 1, items: [file] });
    expect(expectResult(await api.call('GET', `/files/${file.file_hash}`), 200)).toEqual(file);
    expect(expectResult<Page<FileRecord>>(await api.call('GET', `/files?file_hash=${file.file_hash}`), 200).total_items).toBe(1);
  });

  it('POST /credentials creates (201); GET /credentials and /credentials/<uid> read', async () => {
    credential = expectResult<Credential>(
      await api.call('POST', '/credentials', { json: { title: 'BSc Mathematics', metadata: { student: 'Ada' }, files: [file.file_hash], tags: ['cohort-2026'] } }),
      201,
    );
    expect(credential).toMatchObject({ title: 'BSc Mathematics', metadata: { student: 'Ada' }, files: [file], tags: ['cohort-2026'], expiry_date: null });
    const page = expectResult<Page<Credential>>(await api.call('GET', '/credentials?and_tags=cohort-2026&sort_by=title&order=desc'), 200);
    expect(page.items.map((c) => c.uid)).toEqual([credential.uid]);
    expect(expectResult(await api.call('GET', `/credentials/${credential.uid}`), 200)).toEqual(credential);
    expect(expectResult<Page<Credential>>(await api.call('GET', `/credentials?uid=${credential.uid}`), 200).total_items).toBe(1);
  });

  it('PATCH /credentials adds tags, PUT replaces them, PATCH .../delete_tag removes one: 200 with result null', async () => {
    expectNoContent(await api.call('PATCH', '/credentials', { json: { credentials: [{ credential_uid: credential.uid, tags: ['honours'] }] } }));
    expect(expectResult<Credential>(await api.call('GET', `/credentials/${credential.uid}`), 200).tags).toEqual(['cohort-2026', 'honours']);
    expectNoContent(await api.call('PUT', '/credentials', { json: { credentials: [{ credential_uid: credential.uid, tags: ['maths', 'first-class'] }] } }));
    expectNoContent(await api.call('PATCH', `/credentials/${credential.uid}/delete_tag?tag=first-class`));
    expect(expectResult<Credential>(await api.call('GET', `/credentials/${credential.uid}`), 200).tags).toEqual(['maths']);
  });

  it('POST /credentials/schedule/<engine> uploads, creates and schedules from a form (201)', async () => {
    const details = JSON.stringify({ title: 'Transcript', metadata: {}, tags: ['transcript'] });
    scheduledByForm = expectResult<Credential>(
      await api.call('POST', '/credentials/schedule/local', { body: formOf([['credential_details', details]], { data: SCHEDULED_FILE, name: 'transcript.txt' }) }),
      201,
    );
    expect(scheduledByForm).toMatchObject({ title: 'Transcript', metadata: {}, tags: ['transcript'], files: [{ file_hash: createHash('sha256').update(SCHEDULED_FILE).digest('hex') }] });
  });

  it('POST /credentials/schedule adds credentials to the scheduled job (201, a Job)', async () => {
    job = expectResult<Job>(await api.call('POST', '/credentials/schedule', { json: { engine: 'local', credentials: [credential.uid] } }), 201);
    expect(job).toMatchObject({ chain: 'local', status: 'scheduled', partner: { id: api.a.id, name: api.a.name } });
  });

  it('DELETE /credentials/<uid>/unschedule/<engine> answers what happened (200)', async () => {
    const extra = expectResult<Credential>(await api.call('POST', '/credentials', { json: { title: 'Withdrawn', metadata: { n: 1 } } }), 201);
    expectResult(await api.call('POST', '/credentials/schedule', { json: { engine: 'local', credentials: [extra.uid] } }), 201);
    const result = expectResult<UnscheduleResult>(await api.call('DELETE', `/credentials/${extra.uid}/unschedule/local`), 200);
    expect(result).toEqual({ credential_uid: extra.uid, engine: 'local', credential_deleted: true });
    expectError(await api.call('GET', `/credentials/${extra.uid}`), 'missing_credential');
  });

  it('GET /jobs, /jobs/<uid>, PATCH and PUT /jobs, /jobs/<uid>/credentials', async () => {
    const page = expectResult<Page<Job>>(await api.call('GET', '/jobs?status=scheduled'), 200);
    expect(page.items.map((j) => j.uid)).toEqual([job.uid]);
    expect(expectResult<Page<Job>>(await api.call('GET', `/jobs?uid=${credential.uid}`), 200).total_items).toBe(1);
    expectNoContent(await api.call('PATCH', '/jobs', { json: { jobs: [{ job_uid: job.uid, tags: ['batch-1'] }] } }));
    expectNoContent(await api.call('PUT', '/jobs', { json: { jobs: [{ job_uid: job.uid, tags: ['spring', 'batch-1'] }] } }));
    expect(expectResult<Job>(await api.call('GET', `/jobs/${job.uid}`), 200).tags).toEqual(['spring', 'batch-1']);
    const credentials = expectResult<Page<Credential>>(await api.call('GET', `/jobs/${job.uid}/credentials?per_page=0`), 200);
    expect(credentials.items.map((c) => c.uid).sort()).toEqual([credential.uid, scheduledByForm.uid].sort());
  });

  it('POST /jobs/immediate issues the scheduled job at once (201); the job finishes', async () => {
    const started = expectResult<Job>(await api.call('POST', '/jobs/immediate', { json: { engine: 'local' } }), 201);
    expect(started.uid).toBe(job.uid);
    expect(['started', 'unconfirmed', 'finished']).toContain(started.status);
    job = await waitForJob(api, job.uid, 'finished');
    expect(job.issued_date).not.toBeNull();
  });

  it('GET /jobs/<uid>/certificates and /certificates list the certificates', async () => {
    certificates = expectResult<Page<Certificate>>(await api.call('GET', `/jobs/${job.uid}/certificates`), 200).items;
    expect(certificates).toHaveLength(2);
    const page = expectResult<Page<Certificate>>(await api.call(`GET`, `/certificates?credential_uid=${credential.uid}&and_job_tags=spring`), 200);
    expect(page.items.map((c) => c.certificate.credential.uid)).toEqual([credential.uid]);
  });

  it('GET /certificates/<uid>/download answers the proof file itself, byte for byte', async () => {
    const uid = certificates[0]!.certificate.uid;
    const answer = await api.call('GET', `/certificates/${uid}/download`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="${uid}.proof.json"`);
    expect(answer.text).toBe(await api.engine.serviceFor(api.a.id).downloadCertificate(uid));
    expect(answer.body).toMatchObject({ format: 'proofdesk-proof/1', certificate: { uid } });
  });

  it('GET /certificates/<uid>/download?format=vc answers the Verifiable Credential; an unknown format is 400 invalid_value', async () => {
    const uid = certificates[0]!.certificate.uid;
    const answer = await api.call('GET', `/certificates/${uid}/download?format=vc`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="${uid}.vc.json"`);
    expect(answer.text).toBe(await api.engine.serviceFor(api.a.id).downloadCertificateVc(uid));
    expect(answer.body).toMatchObject({ id: `urn:uuid:${uid}`, type: ['VerifiableCredential', 'OpenBadgeCredential'] });
    expect((await api.call('GET', `/certificates/${uid}/download?format=proof`)).body).toMatchObject({ format: 'proofdesk-proof/1' });
    const bad = await api.call('GET', `/certificates/${uid}/download?format=pdf`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { id: 'invalid_value' } });
  });

  it('verifies by certificate, by credential, by proof file and by original file (200)', async () => {
    const certificate = certificates.find((c) => c.certificate.credential.uid === credential.uid)!;
    const uid = certificate.certificate.uid;
    const one = expectResult<VerificationResult>(await api.call('GET', `/verify/${uid}`), 200);
    expect(one.result.status).toBe('ok');
    const byCredential = expectResult<Page<VerificationResult>>(await api.call('GET', `/verify/credential/${credential.uid}`), 200);
    expect(byCredential.items.map((r) => r.result.status)).toEqual(['ok']);
    const proof = (await api.call('GET', `/certificates/${uid}/download`)).text;
    const byProof = expectResult<VerificationResult>(await api.call('POST', '/verify/upload/certificate', { body: formOf([], { data: proof, name: 'x.proof.json' }) }), 200);
    expect(byProof.result.status).toBe('ok');
    const byFile = expectResult<Page<VerificationResult>>(await api.call('POST', '/verify/upload/file?per_page=5', { body: formOf([], { data: DIPLOMA, name: 'diploma.txt' }) }), 200);
    expect(byFile.items.map((r) => [r.result.status, r.verification.file.status])).toEqual([['ok', 'passed']]);
  });

  it('POST /certificates/<uid>/revoke and POST /credentials/<uid>/revoke/<engine> answer the revocation date (200)', async () => {
    const byCertificate = certificates.find((c) => c.certificate.credential.uid === credential.uid)!.certificate.uid;
    const revoked = expectResult<RevokeResult>(await api.call('POST', `/certificates/${byCertificate}/revoke`), 200);
    expect(Object.keys(revoked)).toEqual(['revoked_date']);
    expect(Date.parse(revoked.revoked_date)).not.toBeNaN();
    expectError(await api.call('POST', `/certificates/${byCertificate}/revoke`), 'certificate_already_revoked');
    expect(expectResult<VerificationResult>(await api.call('GET', `/verify/${byCertificate}`), 200).result.status).toBe('revoked');

    const viaCredential = expectResult<RevokeResult>(await api.call('POST', `/credentials/${scheduledByForm.uid}/revoke/local`), 200);
    expect(Date.parse(viaCredential.revoked_date)).not.toBeNaN();
    const listed = expectResult<Page<Certificate>>(await api.call('GET', `/certificates?credential_uid=${scheduledByForm.uid}`), 200);
    expect(listed.items[0]!.revoked_date).toBe(viaCredential.revoked_date);
  });

  it('GET /openapi.json needs no token', async () => {
    const answer = await api.call('GET', '/openapi.json', { token: null });
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
  });
});

describe('a server running as live', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApiFixture({ environment: 'live', scheduler: false });
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it('answers POST /jobs/immediate with 404 not_found, and leaves it out of its OpenAPI document', async () => {
    const credential = expectResult<Credential>(await api.call('POST', '/credentials', { json: { title: 'T', metadata: { a: 1 } } }), 201);
    expectResult(await api.call('POST', '/credentials/schedule', { json: { engine: 'local', credentials: [credential.uid] } }), 201);
    expectError(await api.call('POST', '/jobs/immediate', { json: { engine: 'local' } }), 'not_found');
    expect(expectResult<Page<Job>>(await api.call('GET', '/jobs'), 200).items[0]!.status).toBe('scheduled');
    const document = (await api.call('GET', '/openapi.json', { token: null })).body;
    expect(document.paths['/jobs/immediate']).toBeUndefined();
    expect(document.paths['/jobs/{uid}']).toBeDefined();
  });
});
