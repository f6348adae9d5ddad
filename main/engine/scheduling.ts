import { ServiceError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import type { ScheduleBody } from '../../common/requests.js';
import { isPlainObject, isUuid, rejectUnknownFields, requireField } from '../../common/validate.js';
import type { UnscheduleResult } from '../../common/wire-types.js';
import { releaseUnusedFiles } from './files.js';
import { findScheduledJob, openScheduledJob } from './jobs.js';
import { cached } from './list-query.js';
import { inTransaction } from './database.js';
import { recordCredentialActivity } from './activity.js';
import type { PartnerScope } from './scope.js';
import { CREDENTIAL_TAGS, ownedId, ownedIds, unindexTags } from './tag-writer.js';
import { jsonIdList, postgresChunks } from './store/dialect.js';

/** The credential's row id, or `missing_credential` (also for another Partner's uid). */
export function credentialIdOf(scope: PartnerScope, uid: unknown): number {
  const id = isUuid(uid) ? ownedId(scope, 'credentials', uid) : undefined;
  if (id === undefined) throw new ServiceError('missing_credential', `No credential ${JSON.stringify(uid)}`);
  return id;
}

/**
 * Adds credentials to the Partner's open job for the engine (inside the caller's
 * transaction) and returns the job's row id. Each must be free on that engine.
 */
export function addToScheduledJob(scope: PartnerScope, engine: string, credentialIds: readonly number[], uids: readonly string[]): number {
  const now = scope.clock.now();
  const facts = schedulingFacts(scope, engine, credentialIds);
  credentialIds.forEach((id, i) => {
    const expiry = facts.get(id)?.expiry ?? null;
    // Issuing it now would anchor a credential that is already expired.
    if (expiry !== null && expiry <= now) {
      throw new ServiceError('invalid_expiry_date', `Credential ${uids[i]} expired on ${new Date(expiry).toISOString()}; it cannot be scheduled`);
    }
    if (facts.get(id)?.taken === true) {
      throw new ServiceError('credential_already_scheduled_or_issued', `Credential ${uids[i]} is already scheduled or issued on ${engine}`);
    }
  });
  const jobId = openScheduledJob(scope, engine);
  cached(scope.db, `INSERT INTO job_credentials (job_id, credential_id, engine) SELECT CAST(? AS BIGINT), value, ? FROM (${jsonIdList(scope.db)}) AS ids`).run(
    jobId,
    engine,
    JSON.stringify(credentialIds),
  );
  recordCredentialActivity(scope, 'scheduled', credentialIds.map((id) => [id]), { engine, jobId });
  return jobId;
}

/**
 * Each credential's expiry and whether it is taken on the engine, read many per statement: on
 * PostgreSQL a statement per credential would cost two round trips to the server each, and on
 * SQLite it costs more than the rows it reads.
 */
function schedulingFacts(scope: PartnerScope, engine: string, credentialIds: readonly number[]): Map<number, { expiry: number | null; taken: boolean }> {
  const read = cached(
    scope.db,
    `SELECT c.id, c.expiry_date, EXISTS (SELECT 1 FROM job_credentials jc WHERE jc.credential_id = c.id AND jc.engine = ? AND jc.active = 1) AS taken
     FROM credentials c WHERE c.id IN (${jsonIdList(scope.db)})`,
  );
  const facts = new Map<number, { expiry: number | null; taken: boolean }>();
  for (const chunk of postgresChunks(credentialIds)) {
    for (const row of read.all(engine, JSON.stringify(chunk)) as { id: number; expiry_date: number | null; taken: number }[]) {
      facts.set(row.id, { expiry: row.expiry_date, taken: row.taken === 1 });
    }
  }
  return facts;
}

/**
 * The row ids of credential uids, in order, or `missing_credential` for the first that is not
 * the Partner's, many per statement.
 */
function credentialIdsOf(scope: PartnerScope, uids: readonly unknown[]): number[] {
  // Uids are stored in lower case; UUIDs compare without regard to case (RFC 9562).
  const found = ownedIds(scope, 'credentials', 'uid', uids.filter(isUuid).map((uid) => uid.toLowerCase()));
  return uids.map((uid) => {
    const id = isUuid(uid) ? found.get(uid.toLowerCase()) : undefined;
    if (id === undefined) throw new ServiceError('missing_credential', `No credential ${JSON.stringify(uid)}`);
    return id;
  });
}

/** POST /credentials/schedule: all listed credentials join the open job, or none does. */
export function scheduleCredentials(scope: PartnerScope, body: ScheduleBody | unknown): number {
  if (!isPlainObject(body)) throw new ServiceError('no_json', 'The request body must be a JSON object');
  rejectUnknownFields(body, ['engine', 'credentials'], 'the request');
  const engineId = requireField(body, 'engine', 'the request');
  const uids = requireField(body, 'credentials', 'the request');
  const engine = scope.catalog.get(engineId);
  if (!Array.isArray(uids) || uids.length === 0 || uids.length > LIMITS.maxBatch) {
    throw new ServiceError('invalid_value', `credentials must be a non-empty array of at most ${LIMITS.maxBatch} credential uids`);
  }
  const unique = [...new Set(uids as unknown[])];
  return inTransaction(scope.db, () => {
    const ids = credentialIdsOf(scope, unique);
    return addToScheduledJob(scope, engine.id, ids, unique as string[]);
  });
}

/**
 * DELETE /credentials/<uid>/unschedule/<engine>. The credential leaves the open job; when it
 * is then neither scheduled nor issued anywhere it is deleted too — unless another credential
 * links to it, since deleting it would change that record.
 */
export function unscheduleCredential(scope: PartnerScope, uid: string, engineId: string): UnscheduleResult {
  const engine = scope.catalog.get(engineId);
  return inTransaction(scope.db, () => {
    const id = credentialIdOf(scope, uid);
    const jobId = findScheduledJob(scope, engine.id);
    if (jobId === undefined) throw new ServiceError('missing_job', `There is no scheduled job on ${engine.id}`);
    const removed = cached(scope.db, 'DELETE FROM job_credentials WHERE job_id = ? AND credential_id = ?').run(jobId, id).changes;
    if (removed === 0) throw new ServiceError('credential_not_scheduled', `Credential ${uid} is not scheduled on ${engine.id}`);
    const stillUsed =
      cached(scope.db, 'SELECT 1 FROM job_credentials WHERE credential_id = ? AND active = 1').get(id) !== undefined ||
      cached(scope.db, 'SELECT 1 FROM credential_links WHERE linked_id = ?').get(id) !== undefined;
    // Logged before a deletion, while the credential's uid can still be read.
    recordCredentialActivity(scope, 'unscheduled', [[id, { credential_deleted: !stillUsed }]], { engine: engine.id, jobId });
    if (stillUsed) return { credential_uid: uid, engine: engine.id, credential_deleted: false };
    const fileIds = cached(scope.db, 'SELECT file_id FROM credential_files WHERE credential_id = ?').pluck().all(id) as number[];
    // Rows of failed jobs that once carried it go with it.
    cached(scope.db, 'DELETE FROM job_credentials WHERE credential_id = ?').run(id);
    unindexTags(scope, CREDENTIAL_TAGS, id);
    cached(scope.db, 'DELETE FROM credentials WHERE id = ?').run(id);
    releaseUnusedFiles(scope.db, fileIds, scope.clock.now());
    return { credential_uid: uid, engine: engine.id, credential_deleted: true };
  });
}
