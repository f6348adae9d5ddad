/**
 * Many create-and-schedule requests recorded in one write transaction: the bulk path of file
 * intake (main/intake/). Each request gets exactly what `createAndScheduleCredential` would
 * answer — the same validation, error ids and duplicate rules — and one refused request never
 * loses the others, but a thousand of them cost a few commits instead of a thousand. The batch
 * is checked first and written without a savepoint per request (batch-records.ts); only when a
 * write fails that no check foresaw is it rolled back and redone with a savepoint per request.
 */
import { ServiceError, isServiceError } from '../../common/errors.js';
import type { BatchOutcome } from '../../common/issuing-service.js';
import type { CreateAndScheduleRequest, UploadSource } from '../../common/requests.js';
import { isPlainObject } from '../../common/validate.js';
import type { Credential } from '../../common/wire-types.js';
import { writeBatch, UnforeseenWriteError, type BatchItem } from './batch-records.js';
import { parseCredentialDetails } from './credential-input.js';
import { insertCredential, resolveReferences } from './credentials.js';
import { inTransaction, inWriteLock } from './database.js';
import type { StagedUpload } from './file-bytes.js';
import { fileRecord, isReferenced, recordUpload, stageUpload } from './files.js';
import { addToScheduledJob } from './scheduling.js';
import { recordCredentialActivity } from './activity.js';
import type { PartnerScope } from './scope.js';
import { stage } from './stage-timing.js';
import pMap from 'p-map';

/**
 * Files staged at a time. Creating a file is mostly a wait in the kernel, and 64 in flight
 * keep the thread pool's 4 threads busy: several times the files per second of 16.
 */
const STAGE_CONCURRENCY = 64;

/** The most requests one call takes (the caller splits longer lists: memory stays bounded). */
export const MAX_BATCH = 1_000;

type Prepared = { error: ServiceError } | BatchItem;

function asServiceError(error: unknown): ServiceError {
  if (isServiceError(error)) return error;
  return new ServiceError('internal_error', 'The credential could not be created because of an unexpected error', { cause: error });
}

/** A request's details checked, its file (if any) not yet staged. */
type Parsed = { error: ServiceError } | { details: BatchItem['details']; file: UploadSource | undefined };

function parse(request: CreateAndScheduleRequest): Parsed {
  try {
    if (!isPlainObject(request)) throw new ServiceError('no_json', 'Expected the credential_details form field');
    const file = (request as CreateAndScheduleRequest).file ?? undefined;
    return { details: parseCredentialDetails((request as CreateAndScheduleRequest).credential_details, file !== undefined), file };
  } catch (error) {
    return { error: asServiceError(error) };
  }
}

/** Stages a checked request's file; a refused request's file is never read. */
async function prepare(scope: PartnerScope, parsed: Parsed): Promise<Prepared> {
  if ('error' in parsed) return parsed;
  try {
    return { details: parsed.details, staged: parsed.file === undefined ? undefined : await stageUpload(scope, parsed.file) };
  } catch (error) {
    return { error: asServiceError(error) };
  }
}

/**
 * Creates and schedules each request's credential on `engine` (null: creates it only, as
 * upload + create would); one outcome per request, in order. An unknown engine or too many
 * requests fail the whole call before anything is read.
 */
export async function createAndScheduleMany(scope: PartnerScope, engine: string | null, requests: CreateAndScheduleRequest[]): Promise<BatchOutcome<Credential>[]> {
  if (!Array.isArray(requests) || requests.length > MAX_BATCH) throw new ServiceError('invalid_value', `Expected an array of at most ${MAX_BATCH} requests`);
  const target = engine === null ? null : scope.catalog.get(engine);
  // Every request checked first, then the files of those that passed staged (as timed stages).
  const parsed = stage('validate', () => requests.map(parse));
  const prepared = await stage('temp files', () => pMap(parsed, (item) => prepare(scope, item), { concurrency: STAGE_CONCURRENCY }));
  // The batch's bytes (and any new store folder for them) durable before the transaction that
  // records them commits: one pass.
  const staged = prepared.flatMap((item) => ('error' in item || !item.staged ? [] : [item.staged]));
  try {
    await stage('sync', () => scope.store.makeDurable(staged));
  } catch (error) {
    for (const item of staged) scope.store.discard(item);
    throw error;
  }
  const committed: StagedUpload[] = [];
  try {
    const items = prepared.map((item) => ('error' in item ? undefined : item));
    let written: ReturnType<typeof writeBatch> | undefined;
    try {
      written = stage('insert', () => inWriteLock(scope.db, () => writeBatch(scope, target?.id ?? null, items, committed)));
    } catch (error) {
      if (!(error instanceof UnforeseenWriteError)) throw error;
      // Rolled back whole; bytes it moved stay in the store (the requests below name them again
      // or remove them) and each request goes on its own savepoint, as the single call would.
    }
    if (written) {
      return written.map((result, i): BatchOutcome<Credential> => result ?? { error: (prepared[i] as { error: ServiceError }).error });
    }
    const moved = new Set(committed);
    return inWriteLock(scope.db, () => prepared.map((item) => ('error' in item ? { error: item.error } : oneByOne(scope, target?.id ?? null, item, moved, committed))));
  } catch (error) {
    // The transaction as a whole failed (its commit: a full disk): nothing of it was recorded.
    for (const staged of committed) if (!isReferenced(scope.db, staged.hash)) scope.store.remove(staged.hash);
    throw error;
  } finally {
    // What the store took is no longer staged (renamed, or removed as a copy of stored bytes):
    // only the rest is deleted, not a delete per file of a name already gone.
    const taken = new Set(committed);
    for (const item of prepared) if (!('error' in item) && item.staged && !taken.has(item.staged)) scope.store.discard(item.staged);
  }
}

/**
 * One request on a savepoint of its own (the fallback when a batch write failed unforeseen):
 * exactly the single call's steps. Bytes in `moved` are in the store already.
 */
function oneByOne(scope: PartnerScope, engine: string | null, item: BatchItem, moved: Set<StagedUpload>, committed: StagedUpload[]): BatchOutcome<Credential> {
  const { details, staged } = item;
  try {
    const credential = inTransaction(scope.db, () => {
      const file = staged ? recordUpload(scope, staged, details.ignoreDuplicate) : undefined;
      const described = file ? [fileRecord(file)] : [];
      const { id, credential } = insertCredential(scope, details, resolveReferences(scope, details, file ? [file.id] : []), described);
      recordCredentialActivity(scope, 'created', [[id]]);
      if (engine) addToScheduledJob(scope, engine, [id], [credential.uid]);
      if (staged && !moved.has(staged)) {
        // The bytes go into the store as the request's last step, under the write lock
        // (see storeThenRecord): its records are not committed without them.
        try {
          scope.store.commit(staged);
        } catch (error) {
          throw new ServiceError('internal_error', 'Could not store the uploaded file', { cause: error });
        }
        committed.push(staged);
      }
      return credential;
    });
    return { credential };
  } catch (error) {
    // The savepoint rolled this request back; bytes nothing names any more go too.
    if (staged && !isReferenced(scope.db, staged.hash)) scope.store.remove(staged.hash);
    return { error: asServiceError(error) };
  }
}
