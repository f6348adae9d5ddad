/**
 * The behaviour suite of the Credential Issuing Service (part 1: files, credentials, tags,
 * scheduling, jobs), written against the IssuingService interface only, so the same suite runs
 * against the embedded engine and against any remote implementation of the interface.
 *
 * The context must give two Partners (A and B) that start empty, on a service that knows the
 * engine `local` and at least one other engine (listEngines). Tests that move time or sweep
 * unused uploads are registered only when the context offers `advanceTime` and `sweep`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_IDS, ERROR_STATUS, isServiceError, type ErrorId, type ServiceError } from '../../common/errors.js';
import type { IssuingService } from '../../common/issuing-service.js';
import { LIMITS } from '../../common/limits.js';
import type { CreateAndScheduleRequest, CreateCredentialBody, CredentialDetails } from '../../common/requests.js';
import type { Credential, FileRecord, Job, Page } from '../../common/wire-types.js';

export interface IssuingContext {
  /** Partner A's service. */
  serviceA: IssuingService;
  /** Partner B's service (another Partner of the same service). */
  serviceB: IssuingService;
  /** Moves the service's clock forward. */
  advanceTime?(ms: number): void;
  /** Runs the deletion of unused uploads now. */
  sweep?(): void;
  close(): Promise<void>;
}

/** Ids of the error table that part 1's endpoints cannot raise (part 2, or the transport's). */
export const IDS_OUTSIDE_PART_1: readonly ErrorId[] = [
  'missing_certificate',
  'missing_certificate_by_credential',
  'empty_credential_list',
  'unconfirmed_certificate_transaction',
  'certificate_already_revoked',
  'insufficient_funds',
  'try_again_later',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'too_many_requests',
  'internal_error',
];

const HOUR = 60 * 60 * 1000;
const WIRE_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const FAR_FUTURE = '2099-06-01T12:00:00Z';

// ---------------------------------------------------------------------------------------------
// Helpers

/** Passes a deliberately wrong value where the types want a right one. */
function bad<T>(value: unknown): T {
  return value as T;
}

let byteCounter = 0;
/** Bytes no other upload of this run has: a text file with a unique line. */
function uniqueBytes(label = 'file'): Uint8Array {
  byteCounter += 1;
  return new TextEncoder().encode(`${label} #${byteCounter} ${randomUUID()}\n`);
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real 1×1 greyscale PNG (signature, IHDR, IDAT, IEND), made unique by a text chunk. */
function pngBytes(): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('tEXt', Buffer.from(`Comment\0${randomUUID()}`, 'latin1')),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 0]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small but real PDF. */
function pdfBytes(): Uint8Array {
  return new TextEncoder().encode(`%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n% ${randomUUID()}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`);
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to fail, but it succeeded');
}

/** Asserts the call fails with a ServiceError of this id and the table's status. */
async function expectError(promise: Promise<unknown>, id: ErrorId): Promise<ServiceError> {
  const error = await failure(promise);
  expect(isServiceError(error), `expected a ServiceError, got ${String(error)}`).toBe(true);
  const e = error as ServiceError;
  expect({ id: e.id, status: e.status }, e.message).toEqual({ id, status: ERROR_STATUS[id] });
  return e;
}

/** The same call must fail the same way (id and status) as another one. */
async function expectSameFailure(actual: Promise<unknown>, reference: Promise<unknown>): Promise<ErrorId> {
  // Both are awaited at once: the reference can fail while the other is still on its way.
  const [a, r] = await Promise.all([failure(actual), failure(reference)]);
  expect(isServiceError(a), String(a)).toBe(true);
  expect(isServiceError(r), String(r)).toBe(true);
  const [ea, er] = [a as ServiceError, r as ServiceError];
  expect({ id: ea.id, status: ea.status }).toEqual({ id: er.id, status: er.status });
  return ea.id;
}

function uids(page: Page<Credential> | Credential[]): string[] {
  return (Array.isArray(page) ? page : page.items).map((c) => c.uid);
}

function hashes(page: Page<FileRecord>): string[] {
  return page.items.map((f) => f.file_hash);
}

function sorted(values: readonly string[]): string[] {
  return [...values].sort();
}

/** Everything a Partner can see, for "nothing changed" checks. */
async function snapshot(svc: IssuingService): Promise<unknown> {
  const files = await svc.listFiles({ per_page: 0 });
  const credentials = await svc.listCredentials({ per_page: 0 });
  const jobs = await svc.listJobs({ per_page: 0 });
  const jobCredentials: Record<string, string[]> = {};
  for (const job of jobs.items) jobCredentials[job.uid] = uids(await svc.listJobCredentials(job.uid, { per_page: 0 }));
  return { files, credentials, jobs, jobCredentials };
}

async function snapshotBoth(ctx: IssuingContext): Promise<unknown> {
  return { a: await snapshot(ctx.serviceA), b: await snapshot(ctx.serviceB) };
}

function tagsOf(n: number, prefix = 'tag'): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);
}

async function metaCredential(svc: IssuingService, title = 'Diploma', extra: Partial<CreateCredentialBody> = {}): Promise<Credential> {
  return svc.createCredential({ title, metadata: { holder: title, n: randomUUID() }, ...extra });
}

async function engineIds(svc: IssuingService): Promise<{ local: string; other: string }> {
  const ids = (await svc.listEngines()).map((e) => e.id);
  expect(ids).toContain('local');
  const other = ids.find((id) => id !== 'local');
  if (other === undefined) throw new Error('The context must configure a second engine besides "local"');
  return { local: 'local', other };
}

/** What one Partner holds after seeding, for the error table and the isolation tests. */
interface Seed {
  engines: { local: string; other: string };
  /** Bytes of `fileUsed` / `fileFree`. */
  usedBytes: Uint8Array;
  freeBytes: Uint8Array;
  fileUsed: FileRecord;
  fileFree: FileRecord;
  /** Tags alpha, beta; carries fileUsed. */
  cTagged: Credential;
  /** Scheduled on `local`; links cTagged. */
  cScheduled: Credential;
  /** Not scheduled anywhere. */
  cFree: Credential;
  /** The scheduled job on `local`, tagged batch-1. */
  job: Job;
}

async function seed(svc: IssuingService, name: string): Promise<Seed> {
  const engines = await engineIds(svc);
  const usedBytes = uniqueBytes(`${name} used`);
  const freeBytes = uniqueBytes(`${name} free`);
  const fileUsed = await svc.uploadFile({ file: { data: usedBytes, name: 'used.txt' } });
  const fileFree = await svc.uploadFile({ file: { data: freeBytes, name: 'free.txt' } });
  const cTagged = await svc.createCredential({ title: `${name} tagged`, metadata: {}, files: [fileUsed.file_hash], tags: ['alpha', 'beta'] });
  const cScheduled = await svc.createCredential({ title: `${name} scheduled`, metadata: { kind: 'scheduled' }, credentials: [cTagged.uid], tags: ['gamma'] });
  const cFree = await svc.createCredential({ title: `${name} free`, metadata: { kind: 'free' } });
  const scheduled = await svc.scheduleCredentials({ engine: engines.local, credentials: [cScheduled.uid] });
  await svc.addJobTags({ jobs: [{ job_uid: scheduled.uid, tags: ['batch-1'] }] });
  const job = await svc.getJob(scheduled.uid);
  return { engines, usedBytes, freeBytes, fileUsed, fileFree, cTagged, cScheduled, cFree, job };
}

// ---------------------------------------------------------------------------------------------
// The error table

interface ErrorRow {
  id: ErrorId;
  what: string;
  provoke: (svc: IssuingService, s: Seed) => Promise<unknown>;
}

const missingUid = (): string => randomUUID();
const missingHash = (): string => sha256(uniqueBytes('never uploaded'));
const freshFile = (name = 'fresh.txt'): { data: Uint8Array; name: string } => ({ data: uniqueBytes('fresh'), name });
const tooManyTags = (): string[] => tagsOf(LIMITS.maxTagsPerObject + 1);

const ERROR_ROWS: ErrorRow[] = [
  // wrong_pagination_argument (422)
  { id: 'wrong_pagination_argument', what: 'credentials per_page "1.5"', provoke: (svc) => svc.listCredentials({ per_page: '1.5' }) },
  { id: 'wrong_pagination_argument', what: 'credentials per_page "-1"', provoke: (svc) => svc.listCredentials({ per_page: '-1' }) },
  { id: 'wrong_pagination_argument', what: 'credentials per_page -1 (number)', provoke: (svc) => svc.listCredentials({ per_page: -1 }) },
  { id: 'wrong_pagination_argument', what: 'credentials per_page 1.5 (number)', provoke: (svc) => svc.listCredentials({ per_page: 1.5 }) },
  { id: 'wrong_pagination_argument', what: 'credentials page "abc"', provoke: (svc) => svc.listCredentials({ page: 'abc' }) },
  { id: 'wrong_pagination_argument', what: 'credentials page 0', provoke: (svc) => svc.listCredentials({ page: 0 }) },
  { id: 'wrong_pagination_argument', what: 'credentials order "up"', provoke: (svc) => svc.listCredentials({ order: 'up' }) },
  { id: 'wrong_pagination_argument', what: 'credentials sort_by "nope"', provoke: (svc) => svc.listCredentials({ sort_by: 'nope' }) },
  { id: 'wrong_pagination_argument', what: 'files sort_by "title"', provoke: (svc) => svc.listFiles({ sort_by: 'title' }) },
  { id: 'wrong_pagination_argument', what: 'files per_page "abc"', provoke: (svc) => svc.listFiles({ per_page: 'abc' }) },
  { id: 'wrong_pagination_argument', what: 'jobs page "-1"', provoke: (svc) => svc.listJobs({ page: '-1' }) },
  { id: 'wrong_pagination_argument', what: 'jobs sort_by "title"', provoke: (svc) => svc.listJobs({ sort_by: 'title' }) },
  { id: 'wrong_pagination_argument', what: 'job credentials order "up"', provoke: (svc, s) => svc.listJobCredentials(s.job.uid, { order: 'up' }) },
  { id: 'wrong_pagination_argument', what: 'job credentials per_page "1.5"', provoke: (svc, s) => svc.listJobCredentials(s.job.uid, { per_page: '1.5' }) },

  // no_file_on_payload (400)
  { id: 'no_file_on_payload', what: 'upload without a file', provoke: (svc) => svc.uploadFile({}) },
  { id: 'no_file_on_payload', what: 'upload of a source with neither path nor data', provoke: (svc) => svc.uploadFile({ file: bad({ name: 'empty.txt' }) }) },
  { id: 'no_file_on_payload', what: 'upload of a source whose data is null', provoke: (svc) => svc.uploadFile({ file: bad({ data: null, name: 'null.txt' }) }) },
  {
    id: 'no_file_on_payload',
    what: 'create-and-schedule with a source with neither path nor data',
    provoke: (svc) => svc.createAndScheduleCredential('local', { file: bad({}), credential_details: { title: 'X', metadata: {} } }),
  },
  { id: 'no_file_on_payload', what: 'upload of a path that does not exist', provoke: (svc) => svc.uploadFile({ file: { path: join(tmpdir(), `proofdesk-missing-${randomUUID()}.pdf`) } }) },

  // missing_file_and_metadata (400)
  { id: 'missing_file_and_metadata', what: 'create with empty metadata and no file', provoke: (svc) => svc.createCredential({ title: 'Empty', metadata: {} }) },
  { id: 'missing_file_and_metadata', what: 'create with empty metadata and an empty files list', provoke: (svc) => svc.createCredential({ title: 'Empty', metadata: {}, files: [] }) },
  { id: 'missing_file_and_metadata', what: 'create with neither metadata nor file', provoke: (svc) => svc.createCredential(bad({ title: 'Nothing' })) },
  {
    id: 'missing_file_and_metadata',
    what: 'create-and-schedule with empty metadata and no file',
    provoke: (svc) => svc.createAndScheduleCredential('local', { credential_details: { title: 'Empty', metadata: {} } }),
  },

  // invalid_value (400)
  { id: 'invalid_value', what: 'create with an unknown field', provoke: (svc) => svc.createCredential(bad({ title: 'X', metadata: { a: 1 }, colour: 'red' })) },
  { id: 'invalid_value', what: 'create with a numeric title', provoke: (svc) => svc.createCredential(bad({ title: 42, metadata: { a: 1 } })) },
  { id: 'invalid_value', what: 'create with a blank title', provoke: (svc) => svc.createCredential({ title: '   ', metadata: { a: 1 } }) },
  {
    id: 'invalid_value',
    what: 'create with a title over the limit',
    provoke: (svc) => svc.createCredential({ title: 'x'.repeat(LIMITS.titleMaxLength + 1), metadata: { a: 1 } }),
  },
  { id: 'invalid_value', what: 'create with array metadata', provoke: (svc) => svc.createCredential(bad({ title: 'X', metadata: [1, 2] })) },
  { id: 'invalid_value', what: 'create with string metadata', provoke: (svc) => svc.createCredential(bad({ title: 'X', metadata: 'a=1' })) },
  { id: 'invalid_value', what: 'create with files not a list', provoke: (svc, s) => svc.createCredential(bad({ title: 'X', metadata: {}, files: s.fileUsed.file_hash })) },
  { id: 'invalid_value', what: 'create with the same file twice', provoke: (svc, s) => svc.createCredential({ title: 'X', metadata: {}, files: [s.fileUsed.file_hash, s.fileUsed.file_hash] }) },
  { id: 'invalid_value', what: 'create linking the same credential twice', provoke: (svc, s) => svc.createCredential({ title: 'X', metadata: { a: 1 }, credentials: [s.cFree.uid, s.cFree.uid] }) },
  { id: 'invalid_value', what: 'create with credentials not a list', provoke: (svc, s) => svc.createCredential(bad({ title: 'X', metadata: { a: 1 }, credentials: s.cFree.uid })) },
  {
    id: 'invalid_value',
    what: 'create with metadata over the size limit',
    provoke: (svc) => svc.createCredential({ title: 'Big', metadata: { blob: 'x'.repeat(LIMITS.metadataMaxBytes) } }),
  },
  {
    id: 'invalid_value',
    what: 'create-and-schedule with an unknown detail field',
    provoke: (svc) => svc.createAndScheduleCredential('local', { credential_details: bad({ title: 'X', metadata: { a: 1 }, colour: 'red' }) }),
  },
  {
    id: 'invalid_value',
    what: 'create-and-schedule with files inside the details',
    provoke: (svc, s) => svc.createAndScheduleCredential('local', { credential_details: bad({ title: 'X', metadata: { a: 1 }, files: [s.fileUsed.file_hash] }) }),
  },
  {
    id: 'invalid_value',
    what: 'create-and-schedule with ignore_duplicate "maybe"',
    provoke: (svc) => svc.createAndScheduleCredential('local', { file: freshFile(), credential_details: { title: 'X', metadata: {}, ignore_duplicate: 'maybe' } }),
  },
  { id: 'invalid_value', what: 'upload with ignore_duplicated "yes"', provoke: (svc) => svc.uploadFile({ file: freshFile(), ignore_duplicated: 'yes' }) },
  { id: 'invalid_value', what: 'credentials uid filter not a UUID', provoke: (svc) => svc.listCredentials({ uid: 'not-a-uuid' }) },
  { id: 'invalid_value', what: 'credentials upload_date_from "yesterday"', provoke: (svc) => svc.listCredentials({ upload_date_from: 'yesterday' }) },
  { id: 'invalid_value', what: 'credentials upload_date_to 2026-02-31', provoke: (svc) => svc.listCredentials({ upload_date_to: '2026-02-31' }) },
  { id: 'invalid_value', what: 'credentials upload_date_from 31/12/2026', provoke: (svc) => svc.listCredentials({ upload_date_from: '31/12/2026' }) },
  { id: 'invalid_value', what: 'jobs status "done"', provoke: (svc) => svc.listJobs({ status: 'done' }) },
  { id: 'invalid_value', what: 'jobs status "Scheduled"', provoke: (svc) => svc.listJobs({ status: 'Scheduled' }) },
  { id: 'invalid_value', what: 'jobs created_date_from 2026-13-01', provoke: (svc) => svc.listJobs({ created_date_from: '2026-13-01' }) },
  { id: 'invalid_value', what: 'jobs start_date_until "soon"', provoke: (svc) => svc.listJobs({ start_date_until: 'soon' }) },
  { id: 'invalid_value', what: 'jobs issued_date_from 2026-02-30T10:00:00Z', provoke: (svc) => svc.listJobs({ issued_date_from: '2026-02-30T10:00:00Z' }) },
  { id: 'invalid_value', what: 'jobs uid filter not a UUID', provoke: (svc) => svc.listJobs({ uid: 'abc' }) },
  {
    id: 'invalid_value',
    what: 'add credential tags listing one uid twice',
    provoke: (svc, s) => svc.addCredentialTags({ credentials: [{ credential_uid: s.cFree.uid, tags: ['one'] }, { credential_uid: s.cFree.uid, tags: ['two'] }] }),
  },
  {
    id: 'invalid_value',
    what: 'replace credential tags listing one uid twice',
    provoke: (svc, s) => svc.replaceCredentialTags({ credentials: [{ credential_uid: s.cTagged.uid, tags: ['one'] }, { credential_uid: s.cTagged.uid, tags: ['two'] }] }),
  },
  {
    id: 'invalid_value',
    what: 'add job tags listing one job twice',
    provoke: (svc, s) => svc.addJobTags({ jobs: [{ job_uid: s.job.uid, tags: ['one'] }, { job_uid: s.job.uid, tags: ['two'] }] }),
  },
  { id: 'invalid_value', what: 'add credential tags with an empty list', provoke: (svc) => svc.addCredentialTags({ credentials: [] }) },
  {
    id: 'invalid_value',
    what: 'add credential tags with an unknown entry field',
    provoke: (svc, s) => svc.addCredentialTags(bad({ credentials: [{ credential_uid: s.cFree.uid, tags: ['one'], colour: 'red' }] })),
  },
  { id: 'invalid_value', what: 'schedule an empty list', provoke: (svc) => svc.scheduleCredentials({ engine: 'local', credentials: [] }) },
  { id: 'invalid_value', what: 'schedule credentials not a list', provoke: (svc, s) => svc.scheduleCredentials(bad({ engine: 'local', credentials: s.cFree.uid })) },
  { id: 'invalid_value', what: 'schedule with an unknown field', provoke: (svc, s) => svc.scheduleCredentials(bad({ engine: 'local', credentials: [s.cFree.uid], when: 'now' })) },
  { id: 'invalid_value', what: 'delete tag without a tag', provoke: (svc, s) => svc.deleteCredentialTag(s.cTagged.uid, '') },

  // invalid_tag (400)
  { id: 'invalid_tag', what: 'create with a two-character tag', provoke: (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, tags: ['ab'] }) },
  { id: 'invalid_tag', what: 'create with a tag containing a space', provoke: (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, tags: ['has space'] }) },
  { id: 'invalid_tag', what: 'create with a tag containing "."', provoke: (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, tags: ['v1.0'] }) },
  { id: 'invalid_tag', what: 'create with tags not a list', provoke: (svc) => svc.createCredential(bad({ title: 'X', metadata: { a: 1 }, tags: 'alpha' })) },
  { id: 'invalid_tag', what: 'create with a numeric tag', provoke: (svc) => svc.createCredential(bad({ title: 'X', metadata: { a: 1 }, tags: [12345] })) },
  { id: 'invalid_tag', what: 'create with more than 50 tags', provoke: (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, tags: tooManyTags() }) },
  {
    id: 'invalid_tag',
    what: 'create-and-schedule (with a file) with a bad tag',
    provoke: (svc) => svc.createAndScheduleCredential('local', { file: freshFile(), credential_details: { title: 'X', metadata: {}, tags: ['no!'] } }),
  },
  { id: 'invalid_tag', what: 'add a bad credential tag', provoke: (svc, s) => svc.addCredentialTags({ credentials: [{ credential_uid: s.cFree.uid, tags: ['x'] }] }) },
  { id: 'invalid_tag', what: 'add more than 50 credential tags', provoke: (svc, s) => svc.addCredentialTags({ credentials: [{ credential_uid: s.cFree.uid, tags: tooManyTags() }] }) },
  { id: 'invalid_tag', what: 'replace with a bad credential tag', provoke: (svc, s) => svc.replaceCredentialTags({ credentials: [{ credential_uid: s.cTagged.uid, tags: ['ok-tag', 'é-tag'] }] }) },
  { id: 'invalid_tag', what: 'add a bad job tag', provoke: (svc, s) => svc.addJobTags({ jobs: [{ job_uid: s.job.uid, tags: ['a/b/c'] }] }) },
  { id: 'invalid_tag', what: 'replace with more than 50 job tags', provoke: (svc, s) => svc.replaceJobTags({ jobs: [{ job_uid: s.job.uid, tags: tooManyTags() }] }) },

  // duplicated_tags (400)
  { id: 'duplicated_tags', what: 'create with a repeated tag', provoke: (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, tags: ['alpha', 'alpha'] }) },
  {
    id: 'duplicated_tags',
    what: 'create-and-schedule with a repeated tag',
    provoke: (svc) => svc.createAndScheduleCredential('local', { credential_details: { title: 'X', metadata: { a: 1 }, tags: ['alpha', 'beta', 'alpha'] } }),
  },
  { id: 'duplicated_tags', what: 'add a repeated credential tag', provoke: (svc, s) => svc.addCredentialTags({ credentials: [{ credential_uid: s.cFree.uid, tags: ['new-one', 'new-one'] }] }) },
  { id: 'duplicated_tags', what: 'replace with a repeated credential tag', provoke: (svc, s) => svc.replaceCredentialTags({ credentials: [{ credential_uid: s.cTagged.uid, tags: ['beta', 'beta'] }] }) },
  { id: 'duplicated_tags', what: 'add a repeated job tag', provoke: (svc, s) => svc.addJobTags({ jobs: [{ job_uid: s.job.uid, tags: ['night', 'night'] }] }) },
  { id: 'duplicated_tags', what: 'replace with a repeated job tag', provoke: (svc, s) => svc.replaceJobTags({ jobs: [{ job_uid: s.job.uid, tags: ['night', 'night'] }] }) },

  // invalid_expiry_date (400)
  { id: 'invalid_expiry_date', what: 'create with expiry "next year"', provoke: (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, expiry_date: 'next year' }) },
  { id: 'invalid_expiry_date', what: 'create with expiry 2099-02-31', provoke: (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, expiry_date: '2099-02-31' }) },
  { id: 'invalid_expiry_date', what: 'create with a numeric expiry', provoke: (svc) => svc.createCredential(bad({ title: 'X', metadata: { a: 1 }, expiry_date: 4102444800000 })) },
  { id: 'invalid_expiry_date', what: 'create with an expiry in the past', provoke: (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, expiry_date: '2000-01-01T00:00:00Z' }) },
  {
    id: 'invalid_expiry_date',
    what: 'create-and-schedule with a malformed expiry',
    provoke: (svc) => svc.createAndScheduleCredential('local', { credential_details: { title: 'X', metadata: { a: 1 }, expiry_date: '01/01/2099' } }),
  },
  {
    id: 'invalid_expiry_date',
    what: 'create-and-schedule (with a file) with an expiry in the past',
    provoke: (svc) => svc.createAndScheduleCredential('local', { file: freshFile(), credential_details: { title: 'X', metadata: {}, expiry_date: '2001-09-09' } }),
  },

  // missing_file (404)
  { id: 'missing_file', what: 'get an unknown file', provoke: (svc) => svc.getFile(missingHash()) },
  { id: 'missing_file', what: 'get a malformed hash', provoke: (svc) => svc.getFile('not-a-hash') },
  { id: 'missing_file', what: 'create with an unknown file', provoke: (svc) => svc.createCredential({ title: 'X', metadata: {}, files: [missingHash()] }) },
  {
    id: 'missing_file',
    what: 'create with one known and one unknown file',
    provoke: (svc, s) => svc.createCredential({ title: 'X', metadata: {}, files: [s.fileFree.file_hash, missingHash()] }),
  },

  // missing_credential (404)
  { id: 'missing_credential', what: 'get an unknown credential', provoke: (svc) => svc.getCredential(missingUid()) },
  { id: 'missing_credential', what: 'get a malformed uid', provoke: (svc) => svc.getCredential('42') },
  { id: 'missing_credential', what: 'add tags to an unknown credential', provoke: (svc) => svc.addCredentialTags({ credentials: [{ credential_uid: missingUid(), tags: ['alpha'] }] }) },
  {
    id: 'missing_credential',
    what: 'add tags to a known and an unknown credential',
    provoke: (svc, s) => svc.addCredentialTags({ credentials: [{ credential_uid: s.cFree.uid, tags: ['new-tag'] }, { credential_uid: missingUid(), tags: ['alpha'] }] }),
  },
  { id: 'missing_credential', what: 'delete a tag of an unknown credential', provoke: (svc) => svc.deleteCredentialTag(missingUid(), 'alpha') },
  { id: 'missing_credential', what: 'schedule an unknown credential', provoke: (svc) => svc.scheduleCredentials({ engine: 'local', credentials: [missingUid()] }) },
  {
    id: 'missing_credential',
    what: 'schedule a free and an unknown credential',
    provoke: (svc, s) => svc.scheduleCredentials({ engine: 'local', credentials: [s.cFree.uid, missingUid()] }),
  },
  {
    id: 'missing_credential',
    what: 'schedule on an engine without a job a free and an unknown credential',
    provoke: (svc, s) => svc.scheduleCredentials({ engine: s.engines.other, credentials: [s.cFree.uid, missingUid()] }),
  },
  { id: 'missing_credential', what: 'unschedule an unknown credential', provoke: (svc) => svc.unscheduleCredential(missingUid(), 'local') },
  { id: 'missing_credential', what: 'create linking an unknown credential', provoke: (svc) => svc.createCredential({ title: 'X', metadata: { a: 1 }, credentials: [missingUid()] }) },
  {
    id: 'missing_credential',
    what: 'create-and-schedule (with a file) linking an unknown credential',
    provoke: (svc) => svc.createAndScheduleCredential('local', { file: freshFile(), credential_details: { title: 'X', metadata: {}, credentials: [missingUid()] } }),
  },

  // missing_job (404)
  { id: 'missing_job', what: 'get an unknown job', provoke: (svc) => svc.getJob(missingUid()) },
  { id: 'missing_job', what: 'get a malformed job uid', provoke: (svc) => svc.getJob('job-1') },
  { id: 'missing_job', what: 'add tags to an unknown job', provoke: (svc) => svc.addJobTags({ jobs: [{ job_uid: missingUid(), tags: ['night'] }] }) },
  {
    id: 'missing_job',
    what: 'replace tags of a known and an unknown job',
    provoke: (svc, s) => svc.replaceJobTags({ jobs: [{ job_uid: s.job.uid, tags: ['night'] }, { job_uid: missingUid(), tags: ['night'] }] }),
  },
  { id: 'missing_job', what: 'list credentials of an unknown job', provoke: (svc) => svc.listJobCredentials(missingUid()) },
  {
    id: 'missing_job',
    what: 'replace tags of an unknown credential (PUT /credentials)',
    provoke: (svc) => svc.replaceCredentialTags({ credentials: [{ credential_uid: missingUid(), tags: ['alpha'] }] }),
  },
  {
    id: 'missing_job',
    what: 'replace tags of a known and an unknown credential',
    provoke: (svc, s) => svc.replaceCredentialTags({ credentials: [{ credential_uid: s.cTagged.uid, tags: ['delta'] }, { credential_uid: missingUid(), tags: ['alpha'] }] }),
  },
  { id: 'missing_job', what: 'unschedule on an engine without a scheduled job', provoke: (svc, s) => svc.unscheduleCredential(s.cFree.uid, s.engines.other) },

  // tag_does_not_exist (404)
  { id: 'tag_does_not_exist', what: 'delete a tag the credential lacks', provoke: (svc, s) => svc.deleteCredentialTag(s.cTagged.uid, 'gamma') },
  { id: 'tag_does_not_exist', what: 'delete a tag from an untagged credential', provoke: (svc, s) => svc.deleteCredentialTag(s.cFree.uid, 'alpha') },

  // file_already_exists (409)
  { id: 'file_already_exists', what: 'upload an unused file again', provoke: (svc, s) => svc.uploadFile({ file: { data: s.freeBytes, name: 'again.txt' } }) },
  { id: 'file_already_exists', what: 'upload a used file again', provoke: (svc, s) => svc.uploadFile({ file: { data: s.usedBytes } }) },
  { id: 'file_already_exists', what: 'upload again with ignore_duplicated "false"', provoke: (svc, s) => svc.uploadFile({ file: { data: s.freeBytes }, ignore_duplicated: 'false' }) },
  {
    id: 'file_already_exists',
    what: 'create-and-schedule with an uploaded file',
    provoke: (svc, s) => svc.createAndScheduleCredential('local', { file: { data: s.freeBytes, name: 'again.txt' }, credential_details: { title: 'X', metadata: {} } }),
  },
  {
    id: 'file_already_exists',
    what: 'create-and-schedule with an uploaded file and ignore_duplicate "false"',
    provoke: (svc, s) =>
      svc.createAndScheduleCredential('local', { file: { data: s.usedBytes }, credential_details: { title: 'X', metadata: {}, ignore_duplicate: 'false' } }),
  },

  // credential_already_scheduled_or_issued (409)
  { id: 'credential_already_scheduled_or_issued', what: 'schedule a scheduled credential again', provoke: (svc, s) => svc.scheduleCredentials({ engine: 'local', credentials: [s.cScheduled.uid] }) },
  {
    id: 'credential_already_scheduled_or_issued',
    what: 'schedule a free and a scheduled credential',
    provoke: (svc, s) => svc.scheduleCredentials({ engine: 'local', credentials: [s.cFree.uid, s.cScheduled.uid] }),
  },

  // credential_not_scheduled (409)
  { id: 'credential_not_scheduled', what: 'unschedule a credential that is not scheduled', provoke: (svc, s) => svc.unscheduleCredential(s.cFree.uid, 'local') },
  { id: 'credential_not_scheduled', what: 'unschedule a credential only linked by a scheduled one', provoke: (svc, s) => svc.unscheduleCredential(s.cTagged.uid, 'local') },

  // no_json (415)
  { id: 'no_json', what: 'create with a null body', provoke: (svc) => svc.createCredential(bad(null)) },
  { id: 'no_json', what: 'create with an array body', provoke: (svc) => svc.createCredential(bad([{ title: 'X', metadata: { a: 1 } }])) },
  { id: 'no_json', what: 'create with a text body', provoke: (svc) => svc.createCredential(bad('title=X')) },
  { id: 'no_json', what: 'create-and-schedule with no request', provoke: (svc) => svc.createAndScheduleCredential('local', bad(undefined)) },
  {
    id: 'no_json',
    what: 'create-and-schedule with details that are not JSON',
    provoke: (svc) => svc.createAndScheduleCredential('local', { file: freshFile(), credential_details: '{"title": "X", metadata: ' }),
  },
  { id: 'no_json', what: 'create-and-schedule with details a JSON array', provoke: (svc) => svc.createAndScheduleCredential('local', { credential_details: '[1, 2]' }) },
  { id: 'no_json', what: 'schedule with a null body', provoke: (svc) => svc.scheduleCredentials(bad(null)) },
  { id: 'no_json', what: 'schedule with a text body', provoke: (svc) => svc.scheduleCredentials(bad('engine=local')) },

  // missing_field (422)
  { id: 'missing_field', what: 'create without a title', provoke: (svc) => svc.createCredential(bad({ metadata: { a: 1 } })) },
  { id: 'missing_field', what: 'create with a file but no metadata', provoke: (svc, s) => svc.createCredential(bad({ title: 'X', files: [s.fileFree.file_hash] })) },
  { id: 'missing_field', what: 'create-and-schedule without details', provoke: (svc) => svc.createAndScheduleCredential('local', { file: freshFile() }) },
  { id: 'missing_field', what: 'create-and-schedule without a title', provoke: (svc) => svc.createAndScheduleCredential('local', { credential_details: bad({ metadata: { a: 1 } }) }) },
  {
    id: 'missing_field',
    what: 'create-and-schedule with a file but no metadata',
    provoke: (svc) => svc.createAndScheduleCredential('local', { file: freshFile(), credential_details: JSON.stringify({ title: 'X' }) }),
  },
  { id: 'missing_field', what: 'schedule without an engine', provoke: (svc, s) => svc.scheduleCredentials(bad({ credentials: [s.cFree.uid] })) },
  { id: 'missing_field', what: 'schedule without credentials', provoke: (svc) => svc.scheduleCredentials(bad({ engine: 'local' })) },
  { id: 'missing_field', what: 'add credential tags without the list', provoke: (svc) => svc.addCredentialTags(bad({})) },
  { id: 'missing_field', what: 'add credential tags without tags', provoke: (svc, s) => svc.addCredentialTags(bad({ credentials: [{ credential_uid: s.cFree.uid }] })) },
  { id: 'missing_field', what: 'replace job tags without a job uid', provoke: (svc) => svc.replaceJobTags(bad({ jobs: [{ tags: ['night'] }] })) },

  // wrong_blockchain_engine (422)
  { id: 'wrong_blockchain_engine', what: 'schedule on an unknown engine', provoke: (svc, s) => svc.scheduleCredentials({ engine: 'dogecoin', credentials: [s.cFree.uid] }) },
  { id: 'wrong_blockchain_engine', what: 'schedule on "LOCAL"', provoke: (svc, s) => svc.scheduleCredentials({ engine: 'LOCAL', credentials: [s.cFree.uid] }) },
  { id: 'wrong_blockchain_engine', what: 'schedule on a numeric engine', provoke: (svc, s) => svc.scheduleCredentials(bad({ engine: 1, credentials: [s.cFree.uid] })) },
  {
    id: 'wrong_blockchain_engine',
    what: 'create-and-schedule (with a file) on an unknown engine',
    provoke: (svc) => svc.createAndScheduleCredential('dogecoin', { file: freshFile(), credential_details: { title: 'X', metadata: {} } }),
  },
  { id: 'wrong_blockchain_engine', what: 'unschedule on an unknown engine', provoke: (svc, s) => svc.unscheduleCredential(s.cScheduled.uid, 'dogecoin') },
];

// ---------------------------------------------------------------------------------------------
// The suite

export function describeIssuingService(label: string, makeContext: () => Promise<IssuingContext>): void {
  describe(label, async () => {
    // Which optional hooks this implementation offers decides which tests exist.
    const probe = await makeContext();
    const canMoveTime = typeof probe.advanceTime === 'function' && typeof probe.sweep === 'function';
    await probe.close();

    /** A fresh context per test. */
    function freshContext(): () => IssuingContext {
      let ctx: IssuingContext | undefined;
      beforeEach(async () => {
        ctx = await makeContext();
      });
      afterEach(async () => {
        await ctx?.close();
        ctx = undefined;
      });
      return () => ctx!;
    }

    /** Makes timestamps of later calls differ from earlier ones. */
    async function tick(ctx: IssuingContext): Promise<void> {
      if (ctx.advanceTime) ctx.advanceTime(1000);
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }

    describe('files', () => {
      const ctx = freshContext();

      it('an upload answers the SHA-256 of its bytes in lowercase hex, and is listed and fetchable', async () => {
        const svc = ctx().serviceA;
        const bytes = uniqueBytes();
        const file = await svc.uploadFile({ file: { data: bytes, name: 'notes.txt' } });
        expect(file.file_hash).toMatch(SHA256_HEX);
        expect(file.file_hash).toBe(sha256(bytes));
        expect(await svc.getFile(file.file_hash)).toEqual(file);
        const listed = await svc.listFiles();
        expect(listed.items).toEqual([file]);
        expect(listed.total_items).toBe(1);
      });

      it('uploading from a path gives the same hash as uploading the bytes', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'proofdesk-upload-'));
        try {
          const bytes = uniqueBytes('on disk');
          const path = join(dir, 'transcript.txt');
          writeFileSync(path, bytes);
          const file = await ctx().serviceA.uploadFile({ file: { path } });
          expect(file).toEqual({ file_hash: sha256(bytes), file_type: 'text/plain' });
          await expectError(ctx().serviceA.uploadFile({ file: { data: bytes } }), 'file_already_exists');
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('a second upload of the same bytes is file_already_exists unless ignore_duplicated is true or "true"', async () => {
        const svc = ctx().serviceA;
        const bytes = uniqueBytes();
        const first = await svc.uploadFile({ file: { data: bytes, name: 'a.txt' } });
        await expectError(svc.uploadFile({ file: { data: bytes, name: 'b.txt' } }), 'file_already_exists');
        await expectError(svc.uploadFile({ file: { data: bytes }, ignore_duplicated: false }), 'file_already_exists');
        expect(await svc.uploadFile({ file: { data: bytes, name: 'c.txt' }, ignore_duplicated: true })).toEqual(first);
        expect(await svc.uploadFile({ file: { data: bytes, name: 'd.txt' }, ignore_duplicated: 'true' })).toEqual(first);
        const listed = await svc.listFiles({ per_page: 0 });
        expect(listed.items).toEqual([first]);
      });

      it('the MIME type comes from the magic bytes, else from the extension, else is absent', async () => {
        const svc = ctx().serviceA;
        // Magic bytes win over a misleading name.
        expect((await svc.uploadFile({ file: { data: pngBytes(), name: 'scan.txt' } })).file_type).toBe('image/png');
        expect((await svc.uploadFile({ file: { data: pdfBytes() } })).file_type).toBe('application/pdf');
        expect((await svc.uploadFile({ file: { data: pdfBytes(), name: 'report.bin' } })).file_type).toBe('application/pdf');
        // No magic bytes: the extension, case-insensitively.
        expect((await svc.uploadFile({ file: { data: uniqueBytes(), name: 'notes.txt' } })).file_type).toBe('text/plain');
        expect((await svc.uploadFile({ file: { data: uniqueBytes(), name: 'GRADES.CSV' } })).file_type).toBe('text/csv');
        // Neither: no file_type at all.
        const unknown = await svc.uploadFile({ file: { data: uniqueBytes(), name: 'blob.bin' } });
        expect(unknown).toEqual({ file_hash: unknown.file_hash });
        const nameless = await svc.uploadFile({ file: { data: uniqueBytes() } });
        expect(Object.keys(nameless)).toEqual(['file_hash']);
        // What was answered is what is stored.
        const listed = await svc.listFiles({ per_page: 0 });
        expect(listed.total_items).toBe(7);
        for (const file of listed.items) expect(await svc.getFile(file.file_hash)).toEqual(file);
        expect(listed.items.filter((f) => f.file_type === undefined)).toHaveLength(2);
      });

      it('the file_hash filter of GET /files finds exactly that file', async () => {
        const svc = ctx().serviceA;
        const one = await svc.uploadFile({ file: { data: uniqueBytes() } });
        await svc.uploadFile({ file: { data: uniqueBytes() } });
        expect((await svc.listFiles({ file_hash: one.file_hash })).items).toEqual([one]);
        expect((await svc.listFiles({ file_hash: missingHash() })).total_items).toBe(0);
      });

      it('files are listed in upload order, newest first with order desc, 20 a page by default', async () => {
        const c = ctx();
        const uploaded: string[] = [];
        for (let i = 0; i < 25; i++) {
          uploaded.push((await c.serviceA.uploadFile({ file: { data: uniqueBytes(`f${i}`) } })).file_hash);
          if (i % 10 === 0) await tick(c);
        }
        const first = await c.serviceA.listFiles();
        expect({ page: first.page, per_page: first.per_page, total_items: first.total_items, total_pages: first.total_pages }).toEqual({
          page: 1,
          per_page: 20,
          total_items: 25,
          total_pages: 2,
        });
        const second = await c.serviceA.listFiles({ page: 2 });
        expect([...hashes(first), ...hashes(second)]).toEqual(uploaded);
        expect(hashes(await c.serviceA.listFiles({ sort_by: 'uploaded', order: 'desc', per_page: 0 }))).toEqual([...uploaded].reverse());
      });
    });

    describe('files and their upload dates', () => {
      const ctx = freshContext();

      it('unscheduling (and so deleting) a credential does not change when its file was uploaded', async () => {
        const c = ctx();
        const svc = c.serviceA;
        const first = await svc.uploadFile({ file: { data: uniqueBytes('first') } });
        await tick(c);
        const second = await svc.uploadFile({ file: { data: uniqueBytes('second') } });
        const order = async (): Promise<string[]> => hashes(await svc.listFiles({ sort_by: 'uploaded', per_page: 0 }));
        expect(await order()).toEqual([first.file_hash, second.file_hash]);
        const credential = await svc.createCredential({ title: 'Uses the first', metadata: {}, files: [first.file_hash] });
        await svc.scheduleCredentials({ engine: 'local', credentials: [credential.uid] });
        await tick(c);
        expect((await svc.unscheduleCredential(credential.uid, 'local')).credential_deleted).toBe(true);
        expect(await order()).toEqual([first.file_hash, second.file_hash]);
      });
    });

    describe('creating credentials', () => {
      const ctx = freshContext();

      it('a metadata-only credential has the spec shape, ISO 8601 UTC dates, and reads back the same', async () => {
        const svc = ctx().serviceA;
        const metadata = { name: 'Ann Lee', grade: 'A+', nested: { year: 2026, honours: true, list: [1, 'two', null] }, unicode: 'Zoë — 学位' };
        const created = await svc.createCredential({ title: 'Bachelor of Arts', metadata, tags: ['class-2026', 'arts'] });
        expect(created).toEqual({
          uid: expect.stringMatching(UUID),
          title: 'Bachelor of Arts',
          metadata,
          files: [],
          credentials: [],
          upload_date: expect.stringMatching(WIRE_DATE),
          tags: ['class-2026', 'arts'],
          expiry_date: null,
        });
        expect(await svc.getCredential(created.uid)).toEqual(created);
        expect((await svc.listCredentials()).items).toEqual([created]);
      });

      it('a credential carries its files in the order given, with their types', async () => {
        const svc = ctx().serviceA;
        const pdf = await svc.uploadFile({ file: { data: pdfBytes(), name: 'diploma.pdf' } });
        const txt = await svc.uploadFile({ file: { data: uniqueBytes(), name: 'transcript.txt' } });
        const created = await svc.createCredential({ title: 'With files', metadata: {}, files: [txt.file_hash, pdf.file_hash] });
        expect(created.files).toEqual([txt, pdf]);
        expect(created.metadata).toEqual({});
        expect(await svc.getCredential(created.uid)).toEqual(created);
      });

      it('a file and metadata together are accepted, and one file can back several credentials', async () => {
        const svc = ctx().serviceA;
        const file = await svc.uploadFile({ file: { data: uniqueBytes() } });
        const a = await svc.createCredential({ title: 'A', metadata: { n: 1 }, files: [file.file_hash] });
        const b = await svc.createCredential({ title: 'B', metadata: {}, files: [file.file_hash] });
        expect(a.files).toEqual([file]);
        expect(b.files).toEqual([file]);
      });

      it('expiry dates are answered in UTC with Z; a date alone means 00:00 UTC', async () => {
        const svc = ctx().serviceA;
        const withOffset = await metaCredential(svc, 'Offset', { expiry_date: '2099-06-01T12:00:00+02:00' });
        expect(withOffset.expiry_date).toBe('2099-06-01T10:00:00.000Z');
        const dateOnly = await metaCredential(svc, 'Date only', { expiry_date: '2099-12-31' });
        expect(dateOnly.expiry_date).toBe('2099-12-31T00:00:00.000Z');
        const leap = await metaCredential(svc, 'Leap day', { expiry_date: '2096-02-29T08:30:00Z' });
        expect(leap.expiry_date).toBe('2096-02-29T08:30:00.000Z');
        expect((await svc.getCredential(withOffset.uid)).expiry_date).toBe('2099-06-01T10:00:00.000Z');
        expect((await metaCredential(svc, 'No expiry', { expiry_date: null })).expiry_date).toBeNull();
      });

      it('linked credentials nest recursively: a chain of three links nests three deep', async () => {
        const svc = ctx().serviceA;
        const c0 = await metaCredential(svc, 'Level 0', { tags: ['root'] });
        const c1 = await metaCredential(svc, 'Level 1', { credentials: [c0.uid] });
        const c2 = await metaCredential(svc, 'Level 2', { credentials: [c1.uid] });
        const c3 = await metaCredential(svc, 'Level 3', { credentials: [c2.uid] });
        for (const view of [c3, await svc.getCredential(c3.uid), (await svc.listCredentials({ uid: c3.uid })).items[0]!]) {
          expect(uids(view.credentials)).toEqual([c2.uid]);
          expect(uids(view.credentials[0]!.credentials)).toEqual([c1.uid]);
          expect(uids(view.credentials[0]!.credentials[0]!.credentials)).toEqual([c0.uid]);
          expect(view.credentials[0]!.credentials[0]!.credentials[0]).toEqual(c0);
        }
      });

      it('several links keep their order, and a credential linked twice in a record is shown in both places', async () => {
        const svc = ctx().serviceA;
        const base = await metaCredential(svc, 'Base');
        const left = await metaCredential(svc, 'Left', { credentials: [base.uid] });
        const top = await metaCredential(svc, 'Top', { credentials: [left.uid, base.uid] });
        const got = await svc.getCredential(top.uid);
        expect(uids(got.credentials)).toEqual([left.uid, base.uid]);
        expect(got.credentials[0]!.credentials[0]).toEqual(base);
        expect(got.credentials[1]).toEqual(base);
      });

      it('metadata may be empty when a file is given, and the limits are inclusive', async () => {
        const svc = ctx().serviceA;
        const file = await svc.uploadFile({ file: { data: uniqueBytes() } });
        expect((await svc.createCredential({ title: 'x'.repeat(LIMITS.titleMaxLength), metadata: {}, files: [file.file_hash] })).title).toHaveLength(LIMITS.titleMaxLength);
        expect((await metaCredential(svc, 'Fifty tags', { tags: tagsOf(LIMITS.maxTagsPerObject) })).tags).toHaveLength(LIMITS.maxTagsPerObject);
        expect((await metaCredential(svc, 'Long tag', { tags: ['t'.repeat(LIMITS.tagMaxLength), 'a_b', 'A-9'] })).tags).toHaveLength(3);
      });

      it('metadata larger than the limit counted in UTF-8 bytes is invalid_value', async () => {
        const svc = ctx().serviceA;
        // 30 000 euro signs: 30 000 characters, but 90 000 bytes of JSON text — over the 64 KiB limit.
        await expectError(svc.createCredential({ title: 'Euro', metadata: { text: '€'.repeat(30_000) } }), 'invalid_value');
        expect((await svc.listCredentials()).total_items).toBe(0);
      });

      it('a credential may link credentials and nothing else about it changes them', async () => {
        const svc = ctx().serviceA;
        const base = await metaCredential(svc, 'Base', { tags: ['base'] });
        const before = await svc.getCredential(base.uid);
        await metaCredential(svc, 'Child', { credentials: [base.uid] });
        expect(await svc.getCredential(base.uid)).toEqual(before);
      });
    });

    describe('tags on credentials', () => {
      const ctx = freshContext();

      it('PATCH adds tags, keeps the old ones, and keeps a repeated tag once', async () => {
        const svc = ctx().serviceA;
        const c1 = await metaCredential(svc, 'One', { tags: ['alpha', 'beta'] });
        const c2 = await metaCredential(svc, 'Two');
        await svc.addCredentialTags({
          credentials: [
            { credential_uid: c1.uid, tags: ['beta', 'gamma'] },
            { credential_uid: c2.uid, tags: ['gamma'] },
          ],
        });
        const got1 = await svc.getCredential(c1.uid);
        expect(got1.tags).toHaveLength(3);
        expect(sorted(got1.tags)).toEqual(['alpha', 'beta', 'gamma']);
        expect((await svc.getCredential(c2.uid)).tags).toEqual(['gamma']);
        expect(uids(await svc.listCredentials({ and_tags: 'gamma' }))).toEqual([c1.uid, c2.uid]);
      });

      it('PUT replaces all tags of each listed credential; an empty list clears them', async () => {
        const svc = ctx().serviceA;
        const c1 = await metaCredential(svc, 'One', { tags: ['alpha', 'beta'] });
        const c2 = await metaCredential(svc, 'Two', { tags: ['alpha'] });
        const c3 = await metaCredential(svc, 'Three', { tags: ['alpha'] });
        await svc.replaceCredentialTags({
          credentials: [
            { credential_uid: c1.uid, tags: ['delta', 'beta'] },
            { credential_uid: c2.uid, tags: [] },
          ],
        });
        expect(sorted((await svc.getCredential(c1.uid)).tags)).toEqual(['beta', 'delta']);
        expect((await svc.getCredential(c2.uid)).tags).toEqual([]);
        expect((await svc.getCredential(c3.uid)).tags).toEqual(['alpha']);
        expect(uids(await svc.listCredentials({ and_tags: 'alpha' }))).toEqual([c3.uid]);
      });

      it('tags keep the order in which they were given and added, also after a tag was deleted', async () => {
        const svc = ctx().serviceA;
        const c = await metaCredential(svc, 'Ordered', { tags: ['zulu', 'yankee', 'xray'] });
        expect(c.tags).toEqual(['zulu', 'yankee', 'xray']);
        await svc.addCredentialTags({ credentials: [{ credential_uid: c.uid, tags: ['whiskey'] }] });
        expect((await svc.getCredential(c.uid)).tags).toEqual(['zulu', 'yankee', 'xray', 'whiskey']);
        await svc.deleteCredentialTag(c.uid, 'zulu');
        await svc.addCredentialTags({ credentials: [{ credential_uid: c.uid, tags: ['alpha'] }] });
        expect((await svc.getCredential(c.uid)).tags).toEqual(['yankee', 'xray', 'whiskey', 'alpha']);
        await svc.replaceCredentialTags({ credentials: [{ credential_uid: c.uid, tags: ['mike', 'bravo'] }] });
        expect((await svc.getCredential(c.uid)).tags).toEqual(['mike', 'bravo']);
      });

      it('delete_tag removes one tag; deleting it again is tag_does_not_exist', async () => {
        const svc = ctx().serviceA;
        const c = await metaCredential(svc, 'One', { tags: ['alpha', 'beta'] });
        await svc.deleteCredentialTag(c.uid, 'alpha');
        expect((await svc.getCredential(c.uid)).tags).toEqual(['beta']);
        expect((await svc.listCredentials({ and_tags: 'alpha' })).total_items).toBe(0);
        await expectError(svc.deleteCredentialTag(c.uid, 'alpha'), 'tag_does_not_exist');
        expect((await svc.getCredential(c.uid)).tags).toEqual(['beta']);
      });

      it('at most 50 tags: adding past 50 is invalid_tag and changes nothing; re-adding a held tag at 50 is fine', async () => {
        const svc = ctx().serviceA;
        const full = await metaCredential(svc, 'Full', { tags: tagsOf(LIMITS.maxTagsPerObject) });
        const other = await metaCredential(svc, 'Other', { tags: ['alpha'] });
        await expectError(
          svc.addCredentialTags({
            credentials: [
              { credential_uid: other.uid, tags: ['beta'] },
              { credential_uid: full.uid, tags: ['one-more'] },
            ],
          }),
          'invalid_tag',
        );
        expect(await svc.getCredential(full.uid)).toEqual(full);
        expect((await svc.getCredential(other.uid)).tags).toEqual(['alpha']);
        await svc.addCredentialTags({ credentials: [{ credential_uid: full.uid, tags: [full.tags[0]!] }] });
        expect((await svc.getCredential(full.uid)).tags).toHaveLength(LIMITS.maxTagsPerObject);
        await svc.replaceCredentialTags({ credentials: [{ credential_uid: other.uid, tags: tagsOf(LIMITS.maxTagsPerObject, 'new') }] });
        expect((await svc.getCredential(other.uid)).tags).toHaveLength(LIMITS.maxTagsPerObject);
      });

      const allOrNothing: { what: string; id: ErrorId; call: (svc: IssuingService, good: string, other: string) => Promise<void> }[] = [
        {
          what: 'PATCH with a bad tag in the second entry',
          id: 'invalid_tag',
          call: (svc, good, other) => svc.addCredentialTags({ credentials: [{ credential_uid: good, tags: ['added'] }, { credential_uid: other, tags: ['no'] }] }),
        },
        {
          what: 'PATCH with a repeated tag in the second entry',
          id: 'duplicated_tags',
          call: (svc, good, other) => svc.addCredentialTags({ credentials: [{ credential_uid: good, tags: ['added'] }, { credential_uid: other, tags: ['dup', 'dup'] }] }),
        },
        {
          what: 'PATCH with an unknown credential in the second entry',
          id: 'missing_credential',
          call: (svc, good) => svc.addCredentialTags({ credentials: [{ credential_uid: good, tags: ['added'] }, { credential_uid: missingUid(), tags: ['added'] }] }),
        },
        {
          what: 'PATCH listing the first credential twice',
          id: 'invalid_value',
          call: (svc, good) => svc.addCredentialTags({ credentials: [{ credential_uid: good, tags: ['added'] }, { credential_uid: good, tags: ['more'] }] }),
        },
        {
          what: 'PUT with an unknown credential in the second entry',
          id: 'missing_job',
          call: (svc, good) => svc.replaceCredentialTags({ credentials: [{ credential_uid: good, tags: ['replaced'] }, { credential_uid: missingUid(), tags: ['replaced'] }] }),
        },
        {
          what: 'PUT with more than 50 tags in the second entry',
          id: 'invalid_tag',
          call: (svc, good, other) => svc.replaceCredentialTags({ credentials: [{ credential_uid: good, tags: ['replaced'] }, { credential_uid: other, tags: tooManyTags() }] }),
        },
      ];
      for (const row of allOrNothing) {
        it(`tag calls are all or nothing: ${row.what} → ${row.id}`, async () => {
          const svc = ctx().serviceA;
          const good = await metaCredential(svc, 'Good', { tags: ['alpha'] });
          const other = await metaCredential(svc, 'Other', { tags: ['beta'] });
          await expectError(row.call(svc, good.uid, other.uid), row.id);
          expect(await svc.getCredential(good.uid)).toEqual(good);
          expect(await svc.getCredential(other.uid)).toEqual(other);
        });
      }
    });

    describe('tags on jobs', () => {
      const ctx = freshContext();

      it('a job has no tags when made; PATCH adds (keeping old ones once), PUT replaces', async () => {
        const svc = ctx().serviceA;
        const c = await metaCredential(svc);
        const job = await svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] });
        expect(job.tags).toEqual([]);
        await svc.addJobTags({ jobs: [{ job_uid: job.uid, tags: ['nightly', 'batch'] }] });
        await svc.addJobTags({ jobs: [{ job_uid: job.uid, tags: ['batch', 'march'] }] });
        const tagged = await svc.getJob(job.uid);
        expect(tagged.tags).toHaveLength(3);
        expect(sorted(tagged.tags)).toEqual(['batch', 'march', 'nightly']);
        await svc.replaceJobTags({ jobs: [{ job_uid: job.uid, tags: ['april'] }] });
        expect((await svc.getJob(job.uid)).tags).toEqual(['april']);
        expect({ ...(await svc.getJob(job.uid)), tags: [] }).toEqual(job);
      });

      it('job tag calls are all or nothing, and at most 50 tags fit on a job', async () => {
        const svc = ctx().serviceA;
        const { other } = await engineIds(svc);
        const c = await metaCredential(svc);
        const jobLocal = await svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] });
        const jobOther = await svc.scheduleCredentials({ engine: other, credentials: [c.uid] });
        await svc.addJobTags({ jobs: [{ job_uid: jobOther.uid, tags: tagsOf(LIMITS.maxTagsPerObject) }] });
        const before = await snapshot(svc);
        await expectError(svc.addJobTags({ jobs: [{ job_uid: jobLocal.uid, tags: ['first'] }, { job_uid: jobOther.uid, tags: ['one-too-many'] }] }), 'invalid_tag');
        await expectError(svc.addJobTags({ jobs: [{ job_uid: jobLocal.uid, tags: ['first'] }, { job_uid: missingUid(), tags: ['first'] }] }), 'missing_job');
        await expectError(svc.replaceJobTags({ jobs: [{ job_uid: jobLocal.uid, tags: ['first'] }, { job_uid: jobLocal.uid, tags: ['again'] }] }), 'invalid_value');
        await expectError(svc.replaceJobTags({ jobs: [{ job_uid: jobLocal.uid, tags: ['first'] }, { job_uid: jobOther.uid, tags: ['x'] }] }), 'invalid_tag');
        expect(await snapshot(svc)).toEqual(before);
        expect((await svc.getJob(jobLocal.uid)).tags).toEqual([]);
      });
    });

    describe('tag and date filters', () => {
      const ctx = freshContext();

      it('and_tags needs every tag, or_tags any tag; both accept a comma list or an array and combine', async () => {
        const svc = ctx().serviceA;
        const c1 = await metaCredential(svc, 'One', { tags: ['alpha', 'beta'] });
        const c2 = await metaCredential(svc, 'Two', { tags: ['beta', 'gamma'] });
        const c3 = await metaCredential(svc, 'Three', { tags: ['gamma'] });
        const c4 = await metaCredential(svc, 'Four');
        const find = async (q: { and_tags?: string | string[]; or_tags?: string | string[] }): Promise<string[]> => uids(await svc.listCredentials({ ...q, per_page: 0 }));
        expect(await find({})).toEqual([c1.uid, c2.uid, c3.uid, c4.uid]);
        expect(await find({ and_tags: 'alpha,beta' })).toEqual([c1.uid]);
        expect(await find({ and_tags: ['beta'] })).toEqual([c1.uid, c2.uid]);
        expect(await find({ and_tags: 'alpha,gamma' })).toEqual([]);
        expect(await find({ or_tags: 'alpha,gamma' })).toEqual([c1.uid, c2.uid, c3.uid]);
        expect(await find({ or_tags: ['alpha', 'delta'] })).toEqual([c1.uid]);
        expect(await find({ or_tags: 'delta' })).toEqual([]);
        expect(await find({ and_tags: 'beta', or_tags: 'gamma,delta' })).toEqual([c2.uid]);
        expect(await find({ and_tags: 'alpha, beta' })).toEqual([c1.uid]);
        const none = await svc.listCredentials({ and_tags: 'delta' });
        expect({ total_items: none.total_items, total_pages: none.total_pages, items: none.items }).toEqual({ total_items: 0, total_pages: 0, items: [] });
      });

      it('the tag filters work on a job\'s credentials and on jobs', async () => {
        const svc = ctx().serviceA;
        const { other } = await engineIds(svc);
        const c1 = await metaCredential(svc, 'One', { tags: ['alpha'] });
        const c2 = await metaCredential(svc, 'Two', { tags: ['alpha', 'gamma'] });
        const c3 = await metaCredential(svc, 'Three', { tags: ['gamma'] });
        const jobLocal = await svc.scheduleCredentials({ engine: 'local', credentials: [c1.uid, c2.uid, c3.uid] });
        const jobOther = await svc.scheduleCredentials({ engine: other, credentials: [c1.uid] });
        expect(uids(await svc.listJobCredentials(jobLocal.uid, { and_tags: 'gamma' }))).toEqual([c2.uid, c3.uid]);
        expect(uids(await svc.listJobCredentials(jobLocal.uid, { or_tags: ['alpha'] }))).toEqual([c1.uid, c2.uid]);
        expect(uids(await svc.listJobCredentials(jobOther.uid, { and_tags: 'gamma' }))).toEqual([]);

        await svc.addJobTags({
          jobs: [
            { job_uid: jobLocal.uid, tags: ['nightly', 'batch'] },
            { job_uid: jobOther.uid, tags: ['batch'] },
          ],
        });
        const jobs = async (q: { and_tags?: string | string[]; or_tags?: string | string[] }): Promise<string[]> => (await svc.listJobs(q)).items.map((j) => j.uid);
        expect(await jobs({ and_tags: 'nightly' })).toEqual([jobLocal.uid]);
        expect(await jobs({ and_tags: 'nightly,batch' })).toEqual([jobLocal.uid]);
        expect(await jobs({ or_tags: 'nightly,batch' })).toEqual([jobLocal.uid, jobOther.uid]);
        expect(await jobs({ and_tags: ['batch'], or_tags: ['weekly'] })).toEqual([]);
        expect(await jobs({ and_tags: 'weekly' })).toEqual([]);
      });

      it('upload_date_from / upload_date_to are inclusive bounds, as date-times or dates', async () => {
        const c = ctx();
        const svc = c.serviceA;
        const c1 = await metaCredential(svc, 'One');
        await tick(c);
        const c2 = await metaCredential(svc, 'Two');
        await tick(c);
        const c3 = await metaCredential(svc, 'Three');
        expect(c1.upload_date < c2.upload_date && c2.upload_date < c3.upload_date).toBe(true);
        const find = async (q: { upload_date_from?: string; upload_date_to?: string }): Promise<string[]> => uids(await svc.listCredentials({ ...q, per_page: 0 }));
        expect(await find({ upload_date_from: c2.upload_date })).toEqual([c2.uid, c3.uid]);
        expect(await find({ upload_date_to: c2.upload_date })).toEqual([c1.uid, c2.uid]);
        expect(await find({ upload_date_from: c2.upload_date, upload_date_to: c2.upload_date })).toEqual([c2.uid]);
        const afterLast = new Date(Date.parse(c3.upload_date) + 1).toISOString();
        expect(await find({ upload_date_from: afterLast })).toEqual([]);
        const day = c1.upload_date.slice(0, 10);
        const dayBefore = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
        expect(await find({ upload_date_from: day })).toEqual([c1.uid, c2.uid, c3.uid]);
        expect(await find({ upload_date_to: dayBefore })).toEqual([]);
        expect(await find({ upload_date_from: dayBefore, upload_date_to: c3.upload_date })).toEqual([c1.uid, c2.uid, c3.uid]);
        // An offset is honoured: the same instant written in another zone.
        const c2Plus2 = new Date(Date.parse(c2.upload_date) + 2 * HOUR).toISOString().replace('Z', '+02:00');
        expect(await find({ upload_date_from: c2Plus2, upload_date_to: c2Plus2 })).toEqual([c2.uid]);
      });

      it('a tag filter takes as many tags as an object can carry (50), and a longer one is invalid_value, not a crash', async () => {
        const svc = ctx().serviceA;
        const c = await metaCredential(svc, 'Tagged', { tags: ['alpha'] });
        const job = await svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] });
        await svc.addJobTags({ jobs: [{ job_uid: job.uid, tags: ['alpha'] }] });
        const fifty = [...tagsOf(49), 'alpha'];
        expect(uids(await svc.listCredentials({ or_tags: fifty }))).toEqual([c.uid]);
        expect((await svc.listJobs({ or_tags: fifty })).items.map((j) => j.uid)).toEqual([job.uid]);
        expect((await svc.listCredentials({ and_tags: fifty })).total_items).toBe(0);
        const many = ['alpha', ...tagsOf(600)];
        await expectError(svc.listCredentials({ and_tags: many }), 'invalid_value');
        await expectError(svc.listJobs({ or_tags: many }), 'invalid_value');
        await expectError(svc.listJobCredentials(job.uid, { or_tags: many }), 'invalid_value');
      });

      it('the uid filter of GET /credentials finds one credential', async () => {
        const svc = ctx().serviceA;
        const c1 = await metaCredential(svc, 'One');
        await metaCredential(svc, 'Two');
        expect(uids(await svc.listCredentials({ uid: c1.uid }))).toEqual([c1.uid]);
        expect((await svc.listCredentials({ uid: missingUid() })).total_items).toBe(0);
      });

      it('jobs filter by status, by credential uid and by created date', async () => {
        const c = ctx();
        const svc = c.serviceA;
        const { other } = await engineIds(svc);
        const c1 = await metaCredential(svc, 'One');
        const c2 = await metaCredential(svc, 'Two');
        const first = await svc.scheduleCredentials({ engine: 'local', credentials: [c1.uid] });
        await tick(c);
        const second = await svc.scheduleCredentials({ engine: other, credentials: [c1.uid, c2.uid] });
        const jobs = async (q: Parameters<IssuingService['listJobs']>[0]): Promise<string[]> => (await svc.listJobs(q)).items.map((j) => j.uid);
        expect(await jobs({ status: 'scheduled' })).toEqual([first.uid, second.uid]);
        for (const status of ['started', 'unconfirmed', 'finished', 'failed']) expect(await jobs({ status })).toEqual([]);
        expect(await jobs({ uid: c1.uid })).toEqual([first.uid, second.uid]);
        expect(await jobs({ uid: c2.uid })).toEqual([second.uid]);
        expect(await jobs({ uid: missingUid() })).toEqual([]);
        expect(await jobs({ created_date_from: second.created_date })).toEqual([second.uid]);
        expect(await jobs({ created_date_until: first.created_date })).toEqual([first.uid]);
        expect(await jobs({ created_date_from: first.created_date.slice(0, 10) })).toEqual([first.uid, second.uid]);
        // Nothing has started or been issued yet.
        expect(await jobs({ start_date_from: '2000-01-01' })).toEqual([]);
        expect(await jobs({ issued_date_until: '2999-01-01' })).toEqual([]);
      });
    });

    describe('pagination', () => {
      const ctx = freshContext();

      /** 45 credentials whose titles repeat (5 distinct), so sorting by title has ties. */
      async function fortyFive(svc: IssuingService): Promise<Credential[]> {
        const made: Credential[] = [];
        for (let i = 0; i < 45; i++) made.push(await svc.createCredential({ title: `Group ${i % 5}`, metadata: { i } }));
        return made;
      }

      async function allPages(svc: IssuingService, query: { sort_by?: string; order?: string }): Promise<Credential[][]> {
        const pages: Credential[][] = [];
        for (let page = 1; page <= 5; page++) {
          const p = await svc.listCredentials({ ...query, per_page: 10, page });
          expect({ page: p.page, per_page: p.per_page, total_items: p.total_items, total_pages: p.total_pages }).toEqual({ page, per_page: 10, total_items: 45, total_pages: 5 });
          pages.push(p.items);
        }
        return pages;
      }

      it('defaults to 20 a page in creation order; per_page 0 returns everything in one page', async () => {
        const svc = ctx().serviceA;
        const made = await fortyFive(svc);
        const first = await svc.listCredentials();
        expect({ page: first.page, per_page: first.per_page, total_items: first.total_items, total_pages: first.total_pages }).toEqual({ page: 1, per_page: 20, total_items: 45, total_pages: 3 });
        expect(uids(first)).toEqual(uids(made.slice(0, 20)));
        const third = await svc.listCredentials({ page: '3' });
        expect(uids(third)).toEqual(uids(made.slice(40)));
        const all = await svc.listCredentials({ per_page: 0 });
        expect({ page: all.page, per_page: all.per_page, total_items: all.total_items, total_pages: all.total_pages }).toEqual({ page: 1, per_page: 0, total_items: 45, total_pages: 1 });
        expect(uids(all)).toEqual(uids(made));
        expect(uids(await svc.listCredentials({ per_page: '0', order: 'desc' }))).toEqual(uids(made).reverse());
        expect(uids(await svc.listCredentials({ per_page: 0, sort_by: 'upload_date' }))).toEqual(uids(made));
        expect(uids(await svc.listCredentials({ per_page: 0, sort_by: 'created_date' }))).toEqual(uids(made));
      });

      it('a page past the end has no items and the real totals', async () => {
        const svc = ctx().serviceA;
        await fortyFive(svc);
        const past = await svc.listCredentials({ page: 4 });
        expect(past).toEqual({ page: 4, per_page: 20, total_items: 45, total_pages: 3, items: [] });
        const farPast = await svc.listCredentials({ page: '1000', per_page: '10' });
        expect(farPast).toEqual({ page: 1000, per_page: 10, total_items: 45, total_pages: 5, items: [] });
        const afterAll = await svc.listCredentials({ page: 2, per_page: 0 });
        expect({ ...afterAll, items: afterAll.items.length }).toEqual({ page: 2, per_page: 0, total_items: 45, total_pages: 1, items: 0 });
      });

      it('the largest page and per_page accepted are past the end too, not a failure', async () => {
        const svc = ctx().serviceA;
        const c = await metaCredential(svc);
        await svc.uploadFile({ file: { data: uniqueBytes() } });
        const job = await svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] });
        const huge = '999999999999999';
        expect(await svc.listCredentials({ page: huge, per_page: huge })).toEqual({ page: Number(huge), per_page: Number(huge), total_items: 1, total_pages: 1, items: [] });
        expect((await svc.listFiles({ page: huge, per_page: huge })).items).toEqual([]);
        expect((await svc.listJobs({ page: huge, per_page: huge })).items).toEqual([]);
        expect((await svc.listJobCredentials(job.uid, { page: huge, per_page: huge })).items).toEqual([]);
      });

      it('no item shows on two pages, whatever the sort, for 45 items in pages of 10', async () => {
        const svc = ctx().serviceA;
        const made = await fortyFive(svc);
        for (const query of [{}, { order: 'desc' }, { sort_by: 'title' }, { sort_by: 'title', order: 'desc' }, { sort_by: 'upload_date', order: 'desc' }]) {
          const pages = await allPages(svc, query);
          expect(pages.map((p) => p.length)).toEqual([10, 10, 10, 10, 5]);
          const seen = pages.flat().map((c) => c.uid);
          expect(new Set(seen).size, JSON.stringify(query)).toBe(45);
          expect(sorted(seen)).toEqual(sorted(uids(made)));
        }
      });

      it('sort_by title orders by title ascending or descending', async () => {
        const svc = ctx().serviceA;
        for (const title of ['Mango', 'Apricot', 'Banana', 'Cherry', 'Apple']) await metaCredential(svc, title);
        const titles = async (order?: string): Promise<string[]> =>
          (await svc.listCredentials(order === undefined ? { sort_by: 'title' } : { sort_by: 'title', order, per_page: 0 })).items.map((c) => c.title);
        expect(await titles('asc')).toEqual(['Apple', 'Apricot', 'Banana', 'Cherry', 'Mango']);
        expect(await titles('desc')).toEqual(['Mango', 'Cherry', 'Banana', 'Apricot', 'Apple']);
        expect(await titles()).toEqual(['Apple', 'Apricot', 'Banana', 'Cherry', 'Mango']);
      });

      it('no items: total_pages 0, total_items 0, empty items — on every listing', async () => {
        const svc = ctx().serviceA;
        const empty = { page: 1, per_page: 20, total_items: 0, total_pages: 0, items: [] };
        expect(await svc.listCredentials()).toEqual(empty);
        expect(await svc.listFiles()).toEqual(empty);
        expect(await svc.listJobs()).toEqual(empty);
        expect(await svc.listCredentials({ per_page: 0 })).toEqual({ ...empty, per_page: 0 });
      });

      const invalid: [string, Record<string, unknown>][] = [
        ['per_page "1.5"', { per_page: '1.5' }],
        ['per_page "-1"', { per_page: '-1' }],
        ['per_page "abc"', { per_page: 'abc' }],
        ['page "1.5"', { page: '1.5' }],
        ['page "-1"', { page: '-1' }],
        ['page "abc"', { page: 'abc' }],
        ['page "0"', { page: '0' }],
        ['order "up"', { order: 'up' }],
        ['sort_by "nope"', { sort_by: 'nope' }],
      ];
      for (const [what, query] of invalid) {
        it(`${what} is wrong_pagination_argument on every paginated endpoint`, async () => {
          const svc = ctx().serviceA;
          const c = await metaCredential(svc);
          const job = await svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] });
          await expectError(svc.listCredentials(query), 'wrong_pagination_argument');
          await expectError(svc.listFiles(query), 'wrong_pagination_argument');
          await expectError(svc.listJobs(query), 'wrong_pagination_argument');
          await expectError(svc.listJobCredentials(job.uid, query), 'wrong_pagination_argument');
        });
      }

      it('jobs and job credentials paginate too', async () => {
        const svc = ctx().serviceA;
        const { other } = await engineIds(svc);
        const made: Credential[] = [];
        for (let i = 0; i < 12; i++) made.push(await metaCredential(svc, `C${i}`));
        const job = await svc.scheduleCredentials({ engine: 'local', credentials: uids(made) });
        await svc.scheduleCredentials({ engine: other, credentials: [made[0]!.uid] });
        const p1 = await svc.listJobCredentials(job.uid, { per_page: 5 });
        const p3 = await svc.listJobCredentials(job.uid, { per_page: 5, page: 3 });
        expect({ total_items: p1.total_items, total_pages: p1.total_pages }).toEqual({ total_items: 12, total_pages: 3 });
        expect(uids(p1)).toEqual(uids(made.slice(0, 5)));
        expect(uids(p3)).toEqual(uids(made.slice(10)));
        expect((await svc.listJobCredentials(job.uid, { page: 9 })).items).toEqual([]);
        const jobs1 = await svc.listJobs({ per_page: 1 });
        const jobs2 = await svc.listJobs({ per_page: 1, page: 2 });
        expect({ total_items: jobs1.total_items, total_pages: jobs1.total_pages }).toEqual({ total_items: 2, total_pages: 2 });
        expect(jobs1.items[0]!.uid).not.toBe(jobs2.items[0]!.uid);
        expect((await svc.listJobs({ sort_by: 'chain', per_page: 0 })).items.map((j) => j.chain)).toEqual(['local', other].sort());
      });
    });

    describe('scheduling', () => {
      const ctx = freshContext();

      it('scheduling answers the open job of the engine, with the spec fields and UTC dates', async () => {
        const svc = ctx().serviceA;
        const c = await metaCredential(svc);
        const job = await svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] });
        expect(job).toEqual({
          uid: expect.stringMatching(UUID),
          partner: { id: expect.any(String), name: expect.any(String) },
          chain: 'local',
          tags: [],
          status: 'scheduled',
          created_date: expect.stringMatching(WIRE_DATE),
          start_date: null,
          issued_date: null,
          finished_date: null,
          failed_date: null,
          scheduled_date: expect.stringMatching(WIRE_DATE),
          // Proofdesk's extension (docs/api.md): nothing to wait for, no failure, no transaction yet.
          waiting: null,
          failure_reason: null,
          transaction: null,
        });
        expect(Date.parse(job.scheduled_date!)).toBeGreaterThan(Date.parse(job.created_date));
        expect(await svc.getJob(job.uid)).toEqual(job);
        expect((await svc.listJobs()).items).toEqual([job]);
        expect(uids(await svc.listJobCredentials(job.uid))).toEqual([c.uid]);
        expect((await svc.listJobCredentials(job.uid)).items[0]).toEqual(c);
      });

      it('credentials join the one open job per engine; another engine gets its own job', async () => {
        const svc = ctx().serviceA;
        const { other } = await engineIds(svc);
        const [c1, c2, c3] = [await metaCredential(svc, 'One'), await metaCredential(svc, 'Two'), await metaCredential(svc, 'Three')];
        const j1 = await svc.scheduleCredentials({ engine: 'local', credentials: [c1.uid] });
        const j2 = await svc.scheduleCredentials({ engine: 'local', credentials: [c2.uid, c3.uid] });
        expect(j2.uid).toBe(j1.uid);
        const jOther = await svc.scheduleCredentials({ engine: other, credentials: [c1.uid] });
        expect(jOther.uid).not.toBe(j1.uid);
        expect(jOther.chain).toBe(other);
        expect((await svc.listJobs()).total_items).toBe(2);
        expect(uids(await svc.listJobCredentials(j1.uid))).toEqual([c1.uid, c2.uid, c3.uid]);
        expect(uids(await svc.listJobCredentials(jOther.uid))).toEqual([c1.uid]);
      });

      it('a credential is scheduled at most once per engine', async () => {
        const svc = ctx().serviceA;
        const c = await metaCredential(svc);
        const job = await svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] });
        await expectError(svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] }), 'credential_already_scheduled_or_issued');
        expect(uids(await svc.listJobCredentials(job.uid))).toEqual([c.uid]);
      });

      it('scheduling is all or nothing: one scheduled or missing credential and none joins, and no job is made', async () => {
        const svc = ctx().serviceA;
        const { other } = await engineIds(svc);
        const taken = await metaCredential(svc, 'Taken');
        const free = await metaCredential(svc, 'Free');
        const job = await svc.scheduleCredentials({ engine: 'local', credentials: [taken.uid] });
        await expectError(svc.scheduleCredentials({ engine: 'local', credentials: [free.uid, taken.uid] }), 'credential_already_scheduled_or_issued');
        expect(uids(await svc.listJobCredentials(job.uid))).toEqual([taken.uid]);
        await expectError(svc.scheduleCredentials({ engine: other, credentials: [free.uid, missingUid()] }), 'missing_credential');
        await expectError(svc.scheduleCredentials({ engine: other, credentials: [free.uid, 'not-a-uuid'] }), 'missing_credential');
        expect((await svc.listJobs()).items).toEqual([job]);
        expect((await svc.listJobs({ uid: free.uid })).total_items).toBe(0);
        // Afterwards the free one can still be scheduled.
        const later = await svc.scheduleCredentials({ engine: other, credentials: [free.uid] });
        expect(uids(await svc.listJobCredentials(later.uid))).toEqual([free.uid]);
      });

      it('an unknown engine is wrong_blockchain_engine and schedules nothing', async () => {
        const svc = ctx().serviceA;
        const c = await metaCredential(svc);
        await expectError(svc.scheduleCredentials({ engine: 'ethereum-classic', credentials: [c.uid] }), 'wrong_blockchain_engine');
        expect((await svc.listJobs()).total_items).toBe(0);
      });

      it('the engines listed include local', async () => {
        const engines = await ctx().serviceA.listEngines();
        expect(engines.map((e) => e.id)).toContain('local');
        for (const e of engines) expect(['live', 'demo']).toContain(e.environment);
      });
    });

    describe('unscheduling', () => {
      const ctx = freshContext();

      it('a credential scheduled nowhere else and linked by none is deleted with it', async () => {
        const svc = ctx().serviceA;
        const keep = await metaCredential(svc, 'Keep');
        const gone = await metaCredential(svc, 'Gone', { tags: ['alpha'] });
        const job = await svc.scheduleCredentials({ engine: 'local', credentials: [keep.uid, gone.uid] });
        expect(await svc.unscheduleCredential(gone.uid, 'local')).toEqual({ credential_uid: gone.uid, engine: 'local', credential_deleted: true });
        await expectError(svc.getCredential(gone.uid), 'missing_credential');
        expect(uids(await svc.listCredentials())).toEqual([keep.uid]);
        expect((await svc.listCredentials({ and_tags: 'alpha' })).total_items).toBe(0);
        expect(uids(await svc.listJobCredentials(job.uid))).toEqual([keep.uid]);
        expect((await svc.listJobs({ uid: gone.uid })).total_items).toBe(0);
        await expectError(svc.unscheduleCredential(gone.uid, 'local'), 'missing_credential');
      });

      it('a credential still scheduled on another engine is kept, and can be scheduled again', async () => {
        const svc = ctx().serviceA;
        const { other } = await engineIds(svc);
        const c = await metaCredential(svc);
        await svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] });
        const jobOther = await svc.scheduleCredentials({ engine: other, credentials: [c.uid] });
        expect(await svc.unscheduleCredential(c.uid, 'local')).toEqual({ credential_uid: c.uid, engine: 'local', credential_deleted: false });
        expect(await svc.getCredential(c.uid)).toEqual(c);
        expect((await svc.listJobs({ uid: c.uid })).items.map((j) => j.uid)).toEqual([jobOther.uid]);
        const again = await svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] });
        expect(again.chain).toBe('local');
        expect(sorted((await svc.listJobs({ uid: c.uid })).items.map((j) => j.uid))).toEqual(sorted([again.uid, jobOther.uid]));
        expect(await svc.unscheduleCredential(c.uid, other)).toEqual({ credential_uid: c.uid, engine: other, credential_deleted: false });
        expect(await svc.unscheduleCredential(c.uid, 'local')).toEqual({ credential_uid: c.uid, engine: 'local', credential_deleted: true });
        await expectError(svc.getCredential(c.uid), 'missing_credential');
      });

      it('a credential another credential links to is kept, and the record still nests it', async () => {
        const svc = ctx().serviceA;
        const base = await metaCredential(svc, 'Base');
        const child = await metaCredential(svc, 'Child', { credentials: [base.uid] });
        await svc.scheduleCredentials({ engine: 'local', credentials: [base.uid, child.uid] });
        expect((await svc.unscheduleCredential(base.uid, 'local')).credential_deleted).toBe(false);
        expect(await svc.getCredential(base.uid)).toEqual(base);
        expect((await svc.getCredential(child.uid)).credentials).toEqual([base]);
        // The child links to base, not the other way round: it goes.
        expect((await svc.unscheduleCredential(child.uid, 'local')).credential_deleted).toBe(true);
        expect(await svc.getCredential(base.uid)).toEqual(base);
      });

      it('unschedule errors: missing_job with no open job on the engine, credential_not_scheduled, unknown engine, unknown credential', async () => {
        const svc = ctx().serviceA;
        const { other } = await engineIds(svc);
        const c = await metaCredential(svc);
        const free = await metaCredential(svc, 'Free');
        await expectError(svc.unscheduleCredential(c.uid, 'local'), 'missing_job');
        await svc.scheduleCredentials({ engine: 'local', credentials: [c.uid] });
        const before = await snapshot(svc);
        await expectError(svc.unscheduleCredential(c.uid, other), 'missing_job');
        await expectError(svc.unscheduleCredential(free.uid, 'local'), 'credential_not_scheduled');
        await expectError(svc.unscheduleCredential(c.uid, 'nowhere'), 'wrong_blockchain_engine');
        await expectError(svc.unscheduleCredential(missingUid(), 'local'), 'missing_credential');
        await expectError(svc.unscheduleCredential('not-a-uuid', 'local'), 'missing_credential');
        expect(await snapshot(svc)).toEqual(before);
      });
    });

    describe('create and schedule', () => {
      const ctx = freshContext();

      it('a file and details make a credential on the open job; the file is listed', async () => {
        const svc = ctx().serviceA;
        const bytes = pdfBytes();
        const created = await svc.createAndScheduleCredential('local', {
          file: { data: bytes, name: 'diploma.pdf' },
          credential_details: { title: 'Diploma', metadata: {}, tags: ['class-2026'], expiry_date: FAR_FUTURE },
        });
        expect(created).toEqual({
          uid: expect.stringMatching(UUID),
          title: 'Diploma',
          metadata: {},
          files: [{ file_hash: sha256(bytes), file_type: 'application/pdf' }],
          credentials: [],
          upload_date: expect.stringMatching(WIRE_DATE),
          tags: ['class-2026'],
          expiry_date: '2099-06-01T12:00:00.000Z',
        });
        expect(await svc.getCredential(created.uid)).toEqual(created);
        expect((await svc.listFiles()).items).toEqual(created.files);
        const jobs = await svc.listJobs();
        expect(jobs.total_items).toBe(1);
        expect(jobs.items[0]).toMatchObject({ chain: 'local', status: 'scheduled' });
        expect(uids(await svc.listJobCredentials(jobs.items[0]!.uid))).toEqual([created.uid]);
      });

      it('details may come as JSON text; metadata alone needs no file; the job is shared with scheduled credentials', async () => {
        const svc = ctx().serviceA;
        const plain = await metaCredential(svc, 'Plain');
        const job = await svc.scheduleCredentials({ engine: 'local', credentials: [plain.uid] });
        const fromText = await svc.createAndScheduleCredential('local', { credential_details: JSON.stringify({ title: 'From text', metadata: { a: 1 }, credentials: [plain.uid] }) });
        expect(fromText.metadata).toEqual({ a: 1 });
        expect(fromText.credentials).toEqual([plain]);
        expect(fromText.files).toEqual([]);
        expect((await svc.listJobs()).items.map((j) => j.uid)).toEqual([job.uid]);
        expect(uids(await svc.listJobCredentials(job.uid))).toEqual([plain.uid, fromText.uid]);
        await expectError(svc.scheduleCredentials({ engine: 'local', credentials: [fromText.uid] }), 'credential_already_scheduled_or_issued');
      });

      it('an uploaded file is file_already_exists unless ignore_duplicate is "true" (or true)', async () => {
        const svc = ctx().serviceA;
        const bytes = uniqueBytes();
        const file = await svc.uploadFile({ file: { data: bytes, name: 'a.txt' } });
        await expectError(svc.createAndScheduleCredential('local', { file: { data: bytes }, credential_details: { title: 'Dup', metadata: {} } }), 'file_already_exists');
        expect((await svc.listCredentials()).total_items).toBe(0);
        expect((await svc.listJobs()).total_items).toBe(0);
        const c1 = await svc.createAndScheduleCredential('local', { file: { data: bytes, name: 'a.txt' }, credential_details: { title: 'Dup 1', metadata: {}, ignore_duplicate: 'true' } });
        const c2 = await svc.createAndScheduleCredential('local', { file: { data: bytes }, credential_details: JSON.stringify({ title: 'Dup 2', metadata: {}, ignore_duplicate: true }) });
        expect(c1.files).toEqual([file]);
        expect(c2.files).toEqual([file]);
        expect((await svc.listFiles()).items).toEqual([file]);
      });

      const failing: { what: string; id: ErrorId; engine?: string; details: CredentialDetails | string | undefined }[] = [
        { what: 'a bad tag', id: 'invalid_tag', details: { title: 'X', metadata: {}, tags: ['#1'] } },
        { what: 'a repeated tag', id: 'duplicated_tags', details: { title: 'X', metadata: {}, tags: ['same', 'same'] } },
        { what: 'an expiry in the past', id: 'invalid_expiry_date', details: { title: 'X', metadata: {}, expiry_date: '2020-01-01T00:00:00Z' } },
        { what: 'a malformed expiry', id: 'invalid_expiry_date', details: { title: 'X', metadata: {}, expiry_date: '2099-02-30' } },
        { what: 'an unknown linked credential', id: 'missing_credential', details: { title: 'X', metadata: {}, credentials: [randomUUID()] } },
        { what: 'an unknown engine', id: 'wrong_blockchain_engine', engine: 'nowhere', details: { title: 'X', metadata: {} } },
        { what: 'details that are not JSON', id: 'no_json', details: 'title=X' },
        { what: 'no details', id: 'missing_field', details: undefined },
        { what: 'no metadata', id: 'missing_field', details: bad({ title: 'X' }) },
        { what: 'no title', id: 'missing_field', details: bad({ metadata: {} }) },
        { what: 'an unknown detail', id: 'invalid_value', details: bad({ title: 'X', metadata: {}, signed_by: 'me' }) },
      ];
      for (const row of failing) {
        it(`with a file and ${row.what}: ${row.id}, and nothing is stored`, async () => {
          const c = ctx();
          const bytes = uniqueBytes();
          const request: CreateAndScheduleRequest = { file: { data: bytes, name: 'x.txt' } };
          if (row.details !== undefined) request.credential_details = row.details;
          await expectError(c.serviceA.createAndScheduleCredential(row.engine ?? 'local', request), row.id);
          expect(await snapshotBoth(c)).toEqual(snapshotBothEmpty());
          // The same bytes can be uploaded afterwards: no record was left behind.
          expect((await c.serviceA.uploadFile({ file: { data: bytes } })).file_hash).toBe(sha256(bytes));
        });
      }

      it('the request must be an object', async () => {
        const c = ctx();
        await expectError(c.serviceA.createAndScheduleCredential('local', bad(null)), 'no_json');
        await expectError(c.serviceA.createAndScheduleCredential('local', bad('{"title":"X"}')), 'no_json');
        expect(await snapshotBoth(c)).toEqual(snapshotBothEmpty());
      });

      it('a credential made this way can be unscheduled, and is then deleted', async () => {
        const svc = ctx().serviceA;
        const created = await svc.createAndScheduleCredential('local', { credential_details: { title: 'Once', metadata: { a: 1 } } });
        expect(await svc.unscheduleCredential(created.uid, 'local')).toEqual({ credential_uid: created.uid, engine: 'local', credential_deleted: true });
        expect((await svc.listCredentials()).total_items).toBe(0);
      });
    });

    function snapshotBothEmpty(): unknown {
      const empty = { page: 1, per_page: 0, total_items: 0, total_pages: 0, items: [] };
      const one = { files: empty, credentials: empty, jobs: empty, jobCredentials: {} };
      return { a: one, b: one };
    }

    if (canMoveTime) {
      describe('unused uploads are deleted after one hour', () => {
        const ctx = freshContext();
        const later = (c: IssuingContext, ms: number): void => {
          c.advanceTime!(ms);
          c.sweep!();
        };

        it('an unused upload survives 59:59.999 and is gone after the hour; then its hash is missing_file', async () => {
          const c = ctx();
          const svc = c.serviceA;
          const bytes = uniqueBytes();
          const file = await svc.uploadFile({ file: { data: bytes } });
          later(c, HOUR - 1);
          expect(await svc.getFile(file.file_hash)).toEqual(file);
          later(c, 2);
          await expectError(svc.getFile(file.file_hash), 'missing_file');
          expect((await svc.listFiles()).total_items).toBe(0);
          await expectError(svc.createCredential({ title: 'Late', metadata: {}, files: [file.file_hash] }), 'missing_file');
          expect((await svc.listCredentials()).total_items).toBe(0);
          // It can be uploaded anew (no longer a duplicate).
          expect(await svc.uploadFile({ file: { data: bytes } })).toEqual(file);
        });

        it('a file used by a credential within the hour is kept', async () => {
          const c = ctx();
          const svc = c.serviceA;
          const used = await svc.uploadFile({ file: { data: uniqueBytes() } });
          const unused = await svc.uploadFile({ file: { data: uniqueBytes() } });
          later(c, 30 * 60 * 1000);
          const credential = await svc.createCredential({ title: 'Uses it', metadata: {}, files: [used.file_hash] });
          later(c, 2 * HOUR);
          expect(await svc.getFile(used.file_hash)).toEqual(used);
          await expectError(svc.getFile(unused.file_hash), 'missing_file');
          expect((await svc.getCredential(credential.uid)).files).toEqual([used]);
        });

        it('the file of a create-and-schedule is in use', async () => {
          const c = ctx();
          const created = await c.serviceA.createAndScheduleCredential('local', { file: { data: uniqueBytes(), name: 'x.txt' }, credential_details: { title: 'X', metadata: {} } });
          later(c, 3 * HOUR);
          expect((await c.serviceA.listFiles()).items).toEqual(created.files);
        });

        it('re-uploading with ignore_duplicated restarts the hour', async () => {
          const c = ctx();
          const svc = c.serviceA;
          const bytes = uniqueBytes();
          const file = await svc.uploadFile({ file: { data: bytes } });
          later(c, 50 * 60 * 1000);
          await svc.uploadFile({ file: { data: bytes }, ignore_duplicated: true });
          later(c, 20 * 60 * 1000);
          expect(await svc.getFile(file.file_hash)).toEqual(file);
          later(c, 41 * 60 * 1000);
          await expectError(svc.getFile(file.file_hash), 'missing_file');
        });

        it('the files of a credential deleted by unscheduling become unused and go an hour later', async () => {
          const c = ctx();
          const svc = c.serviceA;
          const own = await svc.uploadFile({ file: { data: uniqueBytes() } });
          const shared = await svc.uploadFile({ file: { data: uniqueBytes() } });
          const gone = await svc.createCredential({ title: 'Gone', metadata: {}, files: [own.file_hash, shared.file_hash] });
          const keep = await svc.createCredential({ title: 'Keep', metadata: {}, files: [shared.file_hash] });
          later(c, 5 * HOUR);
          await svc.scheduleCredentials({ engine: 'local', credentials: [gone.uid] });
          expect((await svc.unscheduleCredential(gone.uid, 'local')).credential_deleted).toBe(true);
          later(c, 30 * 60 * 1000);
          expect(await svc.getFile(own.file_hash)).toEqual(own);
          later(c, 31 * 60 * 1000);
          await expectError(svc.getFile(own.file_hash), 'missing_file');
          expect(await svc.getFile(shared.file_hash)).toEqual(shared);
          expect((await svc.getCredential(keep.uid)).files).toEqual([shared]);
        });

        it('another Partner\'s unused copy of the same bytes goes alone', async () => {
          const c = ctx();
          const bytes = uniqueBytes();
          const a = await c.serviceA.uploadFile({ file: { data: bytes } });
          const credential = await c.serviceA.createCredential({ title: 'A', metadata: {}, files: [a.file_hash] });
          await c.serviceB.uploadFile({ file: { data: bytes } });
          later(c, 2 * HOUR);
          await expectError(c.serviceB.getFile(a.file_hash), 'missing_file');
          expect(await c.serviceA.getFile(a.file_hash)).toEqual(a);
          expect((await c.serviceA.getCredential(credential.uid)).files).toEqual([a]);
          // And the other way round: B's used copy outlives A's unused one.
          const bytes2 = uniqueBytes();
          await c.serviceA.uploadFile({ file: { data: bytes2 } });
          const b2 = await c.serviceB.uploadFile({ file: { data: bytes2 } });
          await c.serviceB.createCredential({ title: 'B', metadata: {}, files: [b2.file_hash] });
          later(c, 2 * HOUR);
          await expectError(c.serviceA.getFile(b2.file_hash), 'missing_file');
          expect(await c.serviceB.getFile(b2.file_hash)).toEqual(b2);
        });
      });
    }

    describe('every error of part 1, provoked', () => {
      let ctx: IssuingContext;
      let seedA: Seed;
      beforeAll(async () => {
        ctx = await makeContext();
        seedA = await seed(ctx.serviceA, 'A');
        await seed(ctx.serviceB, 'B');
      });
      afterAll(async () => {
        await ctx?.close();
      });

      for (const row of ERROR_ROWS) {
        it(`${row.id} (${ERROR_STATUS[row.id]}): ${row.what}; nothing changes`, async () => {
          const before = await snapshotBoth(ctx);
          await expectError(row.provoke(ctx.serviceA, seedA), row.id);
          expect(await snapshotBoth(ctx)).toEqual(before);
        });
      }

      it('the table provokes every error id of part 1', () => {
        for (const id of IDS_OUTSIDE_PART_1) expect(ERROR_IDS).toContain(id);
        const expected = ERROR_IDS.filter((id) => !IDS_OUTSIDE_PART_1.includes(id));
        expect(sorted([...new Set(ERROR_ROWS.map((r) => r.id))])).toEqual(sorted(expected));
      });
    });

    describe('Partners are isolated', () => {
      let ctx: IssuingContext;
      let a: Seed;
      let b: Seed;
      let snapshotA: unknown;
      beforeAll(async () => {
        ctx = await makeContext();
        a = await seed(ctx.serviceA, 'A');
        b = await seed(ctx.serviceB, 'B');
        snapshotA = await snapshot(ctx.serviceA);
      });
      afterAll(async () => {
        await ctx?.close();
      });
      afterEach(async () => {
        // Whatever B did, A's data is as it was.
        expect(await snapshot(ctx.serviceA)).toEqual(snapshotA);
      });

      /** B's attempt with A's identifier fails exactly like the same attempt with a missing one. */
      const sameAsMissing: { what: string; id: ErrorId; withA: (svc: IssuingService) => Promise<unknown>; withMissing: (svc: IssuingService) => Promise<unknown> }[] = [
        { what: 'GET /files/<hash>', id: 'missing_file', withA: (svc) => svc.getFile(a.fileUsed.file_hash), withMissing: (svc) => svc.getFile(missingHash()) },
        { what: 'GET /files/<hash> of an unused file', id: 'missing_file', withA: (svc) => svc.getFile(a.fileFree.file_hash), withMissing: (svc) => svc.getFile(missingHash()) },
        {
          what: 'POST /credentials with A\'s file',
          id: 'missing_file',
          withA: (svc) => svc.createCredential({ title: 'Steal', metadata: {}, files: [a.fileFree.file_hash] }),
          withMissing: (svc) => svc.createCredential({ title: 'Steal', metadata: {}, files: [missingHash()] }),
        },
        {
          what: 'POST /credentials linking A\'s credential',
          id: 'missing_credential',
          withA: (svc) => svc.createCredential({ title: 'Link', metadata: { a: 1 }, credentials: [a.cFree.uid] }),
          withMissing: (svc) => svc.createCredential({ title: 'Link', metadata: { a: 1 }, credentials: [missingUid()] }),
        },
        {
          what: 'POST /credentials/schedule/<engine> linking A\'s credential',
          id: 'missing_credential',
          withA: (svc) => svc.createAndScheduleCredential('local', { credential_details: { title: 'Link', metadata: { a: 1 }, credentials: [a.cTagged.uid] } }),
          withMissing: (svc) => svc.createAndScheduleCredential('local', { credential_details: { title: 'Link', metadata: { a: 1 }, credentials: [missingUid()] } }),
        },
        { what: 'GET /credentials/<uid>', id: 'missing_credential', withA: (svc) => svc.getCredential(a.cTagged.uid), withMissing: (svc) => svc.getCredential(missingUid()) },
        {
          what: 'PATCH /credentials',
          id: 'missing_credential',
          withA: (svc) => svc.addCredentialTags({ credentials: [{ credential_uid: a.cFree.uid, tags: ['stolen'] }] }),
          withMissing: (svc) => svc.addCredentialTags({ credentials: [{ credential_uid: missingUid(), tags: ['stolen'] }] }),
        },
        {
          what: 'PATCH /credentials with B\'s own credential first',
          id: 'missing_credential',
          withA: (svc) => svc.addCredentialTags({ credentials: [{ credential_uid: b.cFree.uid, tags: ['mine'] }, { credential_uid: a.cFree.uid, tags: ['stolen'] }] }),
          withMissing: (svc) => svc.addCredentialTags({ credentials: [{ credential_uid: b.cFree.uid, tags: ['mine'] }, { credential_uid: missingUid(), tags: ['stolen'] }] }),
        },
        {
          what: 'PUT /credentials',
          id: 'missing_job',
          withA: (svc) => svc.replaceCredentialTags({ credentials: [{ credential_uid: a.cTagged.uid, tags: ['stolen'] }] }),
          withMissing: (svc) => svc.replaceCredentialTags({ credentials: [{ credential_uid: missingUid(), tags: ['stolen'] }] }),
        },
        {
          what: 'PATCH /credentials/<uid>/delete_tag',
          id: 'missing_credential',
          withA: (svc) => svc.deleteCredentialTag(a.cTagged.uid, 'alpha'),
          withMissing: (svc) => svc.deleteCredentialTag(missingUid(), 'alpha'),
        },
        {
          what: 'POST /credentials/schedule',
          id: 'missing_credential',
          withA: (svc) => svc.scheduleCredentials({ engine: 'local', credentials: [a.cFree.uid] }),
          withMissing: (svc) => svc.scheduleCredentials({ engine: 'local', credentials: [missingUid()] }),
        },
        {
          what: 'POST /credentials/schedule with B\'s own credential too',
          id: 'missing_credential',
          withA: (svc) => svc.scheduleCredentials({ engine: a.engines.other, credentials: [b.cFree.uid, a.cFree.uid] }),
          withMissing: (svc) => svc.scheduleCredentials({ engine: a.engines.other, credentials: [b.cFree.uid, missingUid()] }),
        },
        {
          what: 'DELETE /credentials/<uid>/unschedule/<engine>',
          id: 'missing_credential',
          withA: (svc) => svc.unscheduleCredential(a.cScheduled.uid, 'local'),
          withMissing: (svc) => svc.unscheduleCredential(missingUid(), 'local'),
        },
        {
          what: 'DELETE /credentials/<uid>/unschedule/<engine> on an engine where B has no job',
          id: 'missing_credential',
          withA: (svc) => svc.unscheduleCredential(a.cScheduled.uid, a.engines.other),
          withMissing: (svc) => svc.unscheduleCredential(missingUid(), a.engines.other),
        },
        { what: 'GET /jobs/<uid>', id: 'missing_job', withA: (svc) => svc.getJob(a.job.uid), withMissing: (svc) => svc.getJob(missingUid()) },
        {
          what: 'PATCH /jobs',
          id: 'missing_job',
          withA: (svc) => svc.addJobTags({ jobs: [{ job_uid: a.job.uid, tags: ['stolen'] }] }),
          withMissing: (svc) => svc.addJobTags({ jobs: [{ job_uid: missingUid(), tags: ['stolen'] }] }),
        },
        {
          what: 'PUT /jobs',
          id: 'missing_job',
          withA: (svc) => svc.replaceJobTags({ jobs: [{ job_uid: b.job.uid, tags: ['mine'] }, { job_uid: a.job.uid, tags: ['stolen'] }] }),
          withMissing: (svc) => svc.replaceJobTags({ jobs: [{ job_uid: b.job.uid, tags: ['mine'] }, { job_uid: missingUid(), tags: ['stolen'] }] }),
        },
        {
          what: 'GET /jobs/<uid>/credentials',
          id: 'missing_job',
          withA: (svc) => svc.listJobCredentials(a.job.uid),
          withMissing: (svc) => svc.listJobCredentials(missingUid()),
        },
        {
          what: 'GET /jobs/<uid>/credentials with a tag filter',
          id: 'missing_job',
          withA: (svc) => svc.listJobCredentials(a.job.uid, { and_tags: 'gamma' }),
          withMissing: (svc) => svc.listJobCredentials(missingUid(), { and_tags: 'gamma' }),
        },
      ];
      for (const row of sameAsMissing) {
        it(`${row.what}: A's identifier is ${row.id} for B, exactly like a missing one, and B changes nothing`, async () => {
          const beforeB = await snapshot(ctx.serviceB);
          expect(await expectSameFailure(row.withA(ctx.serviceB), row.withMissing(ctx.serviceB))).toBe(row.id);
          expect(await snapshot(ctx.serviceB)).toEqual(beforeB);
        });
      }

      it('GET /files, /credentials, /jobs show B only its own data, whatever the filter', async () => {
        const svc = ctx.serviceB;
        const aUids = [a.cTagged.uid, a.cScheduled.uid, a.cFree.uid];
        const bUids = [b.cTagged.uid, b.cScheduled.uid, b.cFree.uid];
        expect(sorted(hashes(await svc.listFiles({ per_page: 0 })))).toEqual(sorted([b.fileUsed.file_hash, b.fileFree.file_hash]));
        expect((await svc.listFiles({ file_hash: a.fileUsed.file_hash })).total_items).toBe(0);
        expect(sorted(uids(await svc.listCredentials({ per_page: 0 })))).toEqual(sorted(bUids));
        for (const uid of aUids) expect((await svc.listCredentials({ uid })).total_items).toBe(0);
        // The same tag names exist at A: B's filters find only B's.
        expect(uids(await svc.listCredentials({ and_tags: 'alpha,beta' }))).toEqual([b.cTagged.uid]);
        expect(sorted(uids(await svc.listCredentials({ or_tags: 'alpha,gamma' })))).toEqual(sorted([b.cTagged.uid, b.cScheduled.uid]));
        const windowAll = await svc.listCredentials({ upload_date_from: '2000-01-01', upload_date_to: '2999-01-01', per_page: 0 });
        expect(sorted(uids(windowAll))).toEqual(sorted(bUids));
        expect((await svc.listJobs({ per_page: 0 })).items.map((j) => j.uid)).toEqual([b.job.uid]);
        expect((await svc.listJobs({ and_tags: 'batch-1' })).items.map((j) => j.uid)).toEqual([b.job.uid]);
        expect((await svc.listJobs({ uid: a.cScheduled.uid })).total_items).toBe(0);
        expect((await svc.listJobs({ status: 'scheduled' })).items.map((j) => j.uid)).toEqual([b.job.uid]);
        expect(uids(await svc.listJobCredentials(b.job.uid))).toEqual([b.cScheduled.uid]);
        expect(b.job.partner).not.toEqual(a.job.partner);
      });

      it('B uploading A\'s bytes is a new upload for B, not a duplicate, and B\'s schedule makes B\'s own job', async () => {
        const svc = ctx.serviceB;
        const file = await svc.uploadFile({ file: { data: a.freeBytes, name: 'same.txt' } });
        expect(file.file_hash).toBe(a.fileFree.file_hash);
        const c = await svc.createCredential({ title: 'B with A-bytes', metadata: {}, files: [file.file_hash] });
        const job = await svc.scheduleCredentials({ engine: a.engines.other, credentials: [c.uid] });
        expect(job.partner).toEqual(b.job.partner);
        expect((await ctx.serviceA.listJobs()).items.map((j) => j.uid)).not.toContain(job.uid);
        const created = await svc.createAndScheduleCredential('local', { file: { data: a.usedBytes, name: 'same.txt' }, credential_details: { title: 'B too', metadata: {} } });
        expect(created.files[0]!.file_hash).toBe(a.fileUsed.file_hash);
        expect(uids(await svc.listJobCredentials(b.job.uid))).toEqual([b.cScheduled.uid, created.uid]);
      });
    });
  });
}
