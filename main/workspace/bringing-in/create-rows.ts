/**
 * Creates staged rows (or CSV rows) as credentials, one row at a time and each all or nothing,
 * in link order: a row linking to another row gets that row's new uid. Bad rows are refused
 * before anything of theirs is uploaded; a cancel stops between rows, so every row is either
 * wholly created or not at all.
 */
import { ServiceError, isServiceError } from '../../../common/errors.js';
import { checkRowFields, type RowOutcome, type StagingCreateRow } from '../../../common/ipc/staging.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import type { TaskContext, TaskError } from '../../../common/tasks.js';
import { isUuid } from '../../../common/validate.js';
import type { PartnerScope } from '../../engine/scope.js';
import { createChunk } from './create-chunk.js';
import { orderByLinks } from './link-order.js';

/** Rows recorded per write transaction on the embedded engine (also how often a cancel is seen). */
const CHUNK = 100;

export interface CreateRowsOptions {
  /**
   * The embedded engine's scope: rows are then recorded a chunk per transaction (create-chunk.ts);
   * without it (a remote service) one service call per row.
   */
  scope?: PartnerScope | null;
  /** Schedule each created credential on this engine; null creates only. */
  engine: string | null;
  allowDuplicates: boolean;
  /** How a row is named in messages about links (e.g. "row 12"). */
  label?: (key: string) => string;
  now?: number;
}

function asTaskError(error: unknown): TaskError {
  if (isServiceError(error)) return { id: error.id, message: error.message };
  // A bug: the admin gets a sentence, main's log the details.
  console.error('creating a credential failed:', error);
  return { id: 'internal_error', message: 'This row could not be created because of an unexpected error; try again, and report it if it persists.' };
}

/**
 * Creates the rows; returns one outcome per row, in the rows' order.
 *
 * @example const outcomes = await createRows(service, rows, { engine: 'local', allowDuplicates: false }, task)
 */
export async function createRows(service: IssuingService, rows: StagingCreateRow[], options: CreateRowsOptions, task: TaskContext): Promise<RowOutcome[]> {
  const now = options.now ?? Date.now();
  const label = options.label ?? ((key: string) => JSON.stringify(key));
  const outcomes = new Map<string, RowOutcome>();
  const byKey = new Map(rows.map((r) => [r.key, r]));

  if (options.engine !== null && !(await service.listEngines()).some((e) => e.id === options.engine)) {
    throw new ServiceError('wrong_blockchain_engine', `There is no engine ${JSON.stringify(options.engine)}; pick one of the listed engines.`);
  }

  // Links to existing credentials are checked up front: one read per distinct uid.
  const externals = [...new Set(rows.flatMap((r) => r.links).filter((l) => !byKey.has(l)))];
  const existing = new Set<string>();
  for (const uid of externals) {
    if (!isUuid(uid)) continue;
    try {
      await service.getCredential(uid);
      existing.add(uid);
    } catch (error) {
      if (!isServiceError(error) || error.id !== 'missing_credential') throw error;
    }
  }
  const plan = orderByLinks(rows, (link) => existing.has(link), label);
  for (const [key, error] of plan.errors) outcomes.set(key, { key, status: 'failed', error });

  const created = new Map<string, string>();
  let done = plan.errors.size;
  task.progress(done, rows.length);
  if (options.scope) {
    const scope = options.scope;
    for (let at = 0; at < plan.order.length; at += CHUNK) {
      const keys = plan.order.slice(at, at + CHUNK);
      if (task.signal.aborted) {
        for (const key of keys) outcomes.set(key, { key, status: 'not_created', reason: 'Cancelled before this row was created' });
        continue;
      }
      // Checked first, so a bad row fails alone and none of its file is read.
      const ready: StagingCreateRow[] = [];
      for (const key of keys) {
        const row = byKey.get(key)!;
        const problems = checkRowFields(row, row.file !== null, now);
        if (problems.length > 0) outcomes.set(key, { key, status: 'failed', error: { id: problems[0]!.id, message: problems.map((p) => p.message).join('; ') } });
        else ready.push(row);
      }
      // Rows of this chunk that failed their checks count as not created for links within it.
      for (const outcome of await createChunk(scope, ready, { engine: options.engine, allowDuplicates: options.allowDuplicates }, created, (l) => byKey.has(l))) {
        const target = outcome.status === 'not_created' ? byKey.get(outcome.key)!.links.find((l) => byKey.has(l) && !created.has(l)) : undefined;
        outcomes.set(outcome.key, target !== undefined ? { key: outcome.key, status: 'not_created', reason: `It links to ${label(target)}, which was not created` } : outcome);
      }
      done += keys.length;
      task.progress(done, rows.length);
    }
    return rows.map((r) => outcomes.get(r.key)!);
  }
  for (const key of plan.order) {
    const row = byKey.get(key)!;
    if (task.signal.aborted) {
      outcomes.set(key, { key, status: 'not_created', reason: 'Cancelled before this row was created' });
      continue;
    }
    const blocker = row.links.find((l) => byKey.has(l) && !created.has(l));
    if (blocker !== undefined) {
      outcomes.set(key, { key, status: 'not_created', reason: `It links to ${label(blocker)}, which was not created` });
    } else {
      outcomes.set(key, await createOne(service, row, options, now, created));
    }
    task.progress(++done, rows.length);
  }
  return rows.map((r) => outcomes.get(r.key)!);
}

async function createOne(service: IssuingService, row: StagingCreateRow, options: CreateRowsOptions, now: number, created: Map<string, string>): Promise<RowOutcome> {
  const problems = checkRowFields(row, row.file !== null, now);
  if (problems.length > 0) return { key: row.key, status: 'failed', error: { id: problems[0]!.id, message: problems.map((p) => p.message).join('; ') } };
  const details = {
    title: row.title,
    metadata: row.metadata,
    tags: row.tags,
    credentials: row.links.map((l) => created.get(l) ?? l),
    ...(row.expiry_date ? { expiry_date: row.expiry_date } : {}),
  };
  try {
    let uid: string;
    if (options.engine !== null) {
      // One call, one transaction: the file, the credential and its place in the job, or nothing.
      const credential = await service.createAndScheduleCredential(options.engine, {
        ...(row.file ? { file: { path: row.file.path } } : {}),
        credential_details: { ...details, ignore_duplicate: options.allowDuplicates ? 'true' : 'false' },
      });
      uid = credential.uid;
    } else {
      const files = row.file ? [(await service.uploadFile({ file: { path: row.file.path }, ignore_duplicated: options.allowDuplicates })).file_hash] : [];
      // Everything createCredential checks was checked above, so the upload is not left alone
      // (and if it were, the spec's one-hour rule removes an unused upload).
      uid = (await service.createCredential({ ...details, files })).uid;
    }
    created.set(row.key, uid);
    return { key: row.key, status: 'created', uid };
  } catch (error) {
    return { key: row.key, status: 'failed', error: asTaskError(error) };
  }
}
