/**
 * The same Partner seen two ways at once — in-process (EmbeddedService) and over HTTP
 * (RemoteService → serve → the same engine) — must answer every read identically, field for
 * field (no field lost, added or changed in type by the wire), and fail every bad call with
 * the same id, status and message.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError, type ServiceError } from '../../common/errors.js';
import type { IssuingService } from '../../common/issuing-service.js';
import type { Credential, Job } from '../../common/wire-types.js';
import type { EmbeddedService } from '../../main/engine/index.js';
import { serveEngine, type ServedEngine } from './remote-fixture.js';

/** Dates that move between two calls (verification timestamps) are masked. */
function stable(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'timestamp' ? '<time>' : v)));
}

async function outcome(promise: Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await promise };
  } catch (error) {
    if (!isServiceError(error)) return { thrown: String(error) };
    const e = error as ServiceError;
    return { id: e.id, status: e.status, message: e.message };
  }
}

describe('embedded and remote answer alike for the same Partner', () => {
  let served: ServedEngine;
  let emb: EmbeddedService;
  let rem: IssuingService;
  let dir: string;
  let fileBytes: Buffer;
  let withFile: Credential;
  let linked: Credential;
  let job: Job;
  let otherJob: Job;

  beforeAll(async () => {
    served = await serveEngine({ issuing: { scheduler: true, tickMs: 100, onError: () => undefined } });
    const partner = await served.addPartner('Twin University');
    emb = served.engine.serviceFor(partner.partnerId);
    rem = served.remote(partner);
    dir = mkdtempSync(join(tmpdir(), 'proofdesk-diff-'));
    fileBytes = Buffer.from(`%PDF-1.4\n% twin ${randomUUID()}\n%%EOF\n`);
    writeFileSync(join(dir, 'twin.pdf'), fileBytes);
    const bare = await rem.uploadFile({ file: { data: Buffer.from(`no type ${randomUUID()}`) } });
    withFile = await rem.createCredential({ title: 'With file', metadata: {}, files: [bare.file_hash], tags: ['twin'], expiry_date: '2099-01-01' });
    linked = await rem.createCredential({ title: 'Linked', metadata: { nested: { a: [1, null, 'x'] }, emoji: 'Zoë 学位 🎓' }, credentials: [withFile.uid] });
    const issued = await rem.createAndScheduleCredential('local', { file: { path: join(dir, 'twin.pdf') }, credential_details: { title: 'Issued', metadata: { n: 1 } } });
    await rem.scheduleCredentials({ engine: 'local', credentials: [linked.uid] });
    job = await rem.issueJobNow({ engine: 'local' });
    for (let i = 0; i < 300 && (await rem.getJob(job.uid)).status !== 'finished'; i++) await new Promise((r) => setTimeout(r, 100));
    job = await rem.getJob(job.uid);
    expect(job.status).toBe('finished');
    otherJob = await rem.scheduleCredentials({ engine: 'sepolia', credentials: [withFile.uid, issued.uid] });
    await rem.addJobTags({ jobs: [{ job_uid: otherJob.uid, tags: ['pending-batch'] }] });
  });
  afterAll(async () => {
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const reads: [string, (svc: IssuingService) => Promise<unknown>][] = [
    ['listFiles', (svc) => svc.listFiles({ per_page: 0 })],
    ['listFiles by hash', (svc) => svc.listFiles({ file_hash: createHash('sha256').update(fileBytes).digest('hex') })],
    ['getFile', (svc) => svc.getFile(withFile.files[0]!.file_hash)],
    ['listCredentials', (svc) => svc.listCredentials({ per_page: 0, order: 'desc' })],
    ['listCredentials tags', (svc) => svc.listCredentials({ or_tags: ['twin', 'none'] })],
    ['getCredential', (svc) => svc.getCredential(linked.uid)],
    ['listJobs', (svc) => svc.listJobs({ per_page: 0 })],
    ['listJobs by tag', (svc) => svc.listJobs({ and_tags: 'pending-batch' })],
    ['getJob finished', (svc) => svc.getJob(job.uid)],
    ['getJob scheduled', (svc) => svc.getJob(otherJob.uid)],
    ['listJobCredentials', (svc) => svc.listJobCredentials(job.uid, { per_page: 0 })],
    ['listJobCertificates', (svc) => svc.listJobCertificates(job.uid)],
    ['listCertificates', (svc) => svc.listCertificates({ per_page: 0, sort_by: 'chain' })],
    ['listEngines', (svc) => svc.listEngines()],
    ['getEngine', (svc) => svc.getEngine('sepolia')],
    ['downloadCertificate', async (svc) => svc.downloadCertificate((await svc.listCertificates({ per_page: 1 })).items[0]!.certificate.uid)],
    ['verifyCredential', (svc) => svc.verifyCredential(linked.uid)],
    ['verifyOriginalFile', (svc) => svc.verifyOriginalFile({ data: fileBytes })],
  ];
  for (const [what, read] of reads) {
    it(`${what}: the same answer, field for field`, async () => {
      const viaHttp = stable(await read(rem));
      const inProcess = stable(await read(emb));
      expect(viaHttp).toStrictEqual(inProcess);
    });
  }

  /** One unknown uid for both calls, so that the messages naming it can be compared. */
  const unknown = randomUUID();
  const unknownBytes = Buffer.from(randomUUID());
  const failures: [string, (svc: IssuingService) => Promise<unknown>][] = [
    ['getFile malformed', (svc) => svc.getFile('zz')],
    ['getCredential unknown', (svc) => svc.getCredential(unknown)],
    ['getCredential with a slash', (svc) => svc.getCredential('a/b')],
    ['getCredential with spaces and unicode', (svc) => svc.getCredential('ä b')],
    ['getJob unknown', (svc) => svc.getJob(unknown)],
    ['listCredentials bad page', (svc) => svc.listCredentials({ page: 'x' })],
    ['listCredentials bad date', (svc) => svc.listCredentials({ upload_date_from: '2026-02-30' })],
    ['listJobs bad status', (svc) => svc.listJobs({ status: 'done' })],
    ['listCertificates bad status', (svc) => svc.listCertificates({ verification_status: 'great' })],
    ['listCertificates bad date', (svc) => svc.listCertificates({ issued_date_from: 'soon' })],
    ['listCertificates bad uid', (svc) => svc.listCertificates({ job_uid: 'x' })],
    ['createCredential empty', (svc) => svc.createCredential({ title: 'X', metadata: {} })],
    ['createCredential unknown field', (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, colour: 'red' } as never)],
    ['createCredential null', (svc) => svc.createCredential(null as never)],
    ['createCredential bad tag', (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, tags: ['a b'] })],
    ['createCredential past expiry', (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, expiry_date: '2001-01-01' })],
    ['createAndSchedule no details', (svc) => svc.createAndScheduleCredential('local', { file: { data: unknownBytes } })],
    ['createAndSchedule bad JSON details', (svc) => svc.createAndScheduleCredential('local', { credential_details: '{' })],
    ['getEngine unknown', (svc) => svc.getEngine('nowhere')],
    ['getEngine with a slash', (svc) => svc.getEngine('a/b')],
    ['createAndSchedule unknown engine', (svc) => svc.createAndScheduleCredential('nowhere', { credential_details: { title: 'X', metadata: { a: 1 } } })],
    ['createAndSchedule duplicate file', (svc) => svc.createAndScheduleCredential('local', { file: { data: fileBytes }, credential_details: { title: 'X', metadata: {} } })],
    ['uploadFile duplicate', (svc) => svc.uploadFile({ file: { data: fileBytes } })],
    ['uploadFile bad flag', (svc) => svc.uploadFile({ file: { data: fileBytes }, ignore_duplicated: 'yes' })],
    ['uploadFile nothing', (svc) => svc.uploadFile({})],
    ['scheduleCredentials issued', (svc) => svc.scheduleCredentials({ engine: 'local', credentials: [linked.uid] })],
    ['unscheduleCredential not scheduled', (svc) => svc.unscheduleCredential(linked.uid, 'sepolia')],
    ['deleteCredentialTag missing', (svc) => svc.deleteCredentialTag(linked.uid, 'twin')],
    ['deleteCredentialTag empty', (svc) => svc.deleteCredentialTag(linked.uid, '')],
    ['addCredentialTags missing list', (svc) => svc.addCredentialTags({} as never)],
    ['replaceJobTags unknown', (svc) => svc.replaceJobTags({ jobs: [{ job_uid: unknown, tags: ['abc'] }] })],
    ['revokeCredential not issued there', (svc) => svc.revokeCredential(withFile.uid, 'local')],
    ['revokeCertificate unknown', (svc) => svc.revokeCertificate(unknown)],
    ['issueJobNow unknown field', (svc) => svc.issueJobNow({ engine: 'local', when: 'now' } as never)],
    ['verifyCertificate unknown', (svc) => svc.verifyCertificate('nope')],
    ['verifyProofFile not JSON', (svc) => svc.verifyProofFile({ data: Buffer.from('{oops') })],
    ['verifyProofFile JSON but not a proof', (svc) => svc.verifyProofFile({ data: Buffer.from('{"certificate": {"uid": 5}}') })],
    ['verifyProofFile nothing', (svc) => svc.verifyProofFile(undefined)],
    ['verifyOriginalFile unknown bytes', (svc) => svc.verifyOriginalFile({ data: unknownBytes })],
    ['verifyOriginalFile bad pagination', (svc) => svc.verifyOriginalFile({ data: fileBytes }, { order: 'sideways' })],
  ];
  for (const [what, call] of failures) {
    it(`${what}: the same failure (id, status, message)`, async () => {
      const viaHttp = await outcome(call(rem));
      const inProcess = await outcome(call(emb));
      expect(viaHttp).toEqual(inProcess);
      expect(inProcess).toHaveProperty('id');
    });
  }
});
