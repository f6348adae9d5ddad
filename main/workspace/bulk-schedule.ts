import { ServiceError, isServiceError } from '../../common/errors.js';
import type { BulkScheduleResult, BulkUnscheduleResult, Selection } from '../../common/records.js';
import type { TaskContext } from '../../common/tasks.js';
import { inTransaction } from '../engine/database.js';
import { findScheduledJob } from '../engine/jobs.js';
import { cached } from '../engine/list-query.js';
import { addToScheduledJob, unscheduleCredential } from '../engine/scheduling.js';
import type { PartnerScope } from '../engine/scope.js';
import { resolveSelection, throwIfCancelled, uidsOf } from './selection.js';

/**
 * Schedules a selection on one or more engines, in one transaction over all of them. The
 * spec's rule 1 (once per engine) holds: credentials already scheduled or issued on an engine
 * are left where they are and counted, the others join its open job. An unknown engine fails
 * the whole call before anything is written.
 */
export async function scheduleSelection(scope: PartnerScope, selection: Selection, engineIds: readonly string[], task: TaskContext): Promise<BulkScheduleResult> {
  const engines = engineIds.map((e) => scope.catalog.get(e).id);
  const ids = await resolveSelection(scope, selection, task, () => task.progress(0));
  if (ids.length === 0) throw new ServiceError('empty_credential_list', 'No credential matches the selection; nothing was scheduled.');
  throwIfCancelled(task.signal);
  task.progress(0, ids.length * engines.length);
  const list = JSON.stringify(ids);
  const result = inTransaction(scope.db, () =>
    engines.map((engine, i) => {
      const taken = new Set(
        cached(scope.db, 'SELECT credential_id FROM job_credentials WHERE engine = ? AND active = 1 AND credential_id IN (SELECT value FROM json_each(?))')
          .pluck()
          .all(engine, list) as number[],
      );
      const free = ids.filter((id) => !taken.has(id));
      let jobUid: string | null = null;
      if (free.length > 0) {
        const jobId = addToScheduledJob(scope, engine, free, free.map(String));
        jobUid = cached(scope.db, 'SELECT uid FROM jobs WHERE id = ?').pluck().get(jobId) as string;
      }
      task.progress(ids.length * (i + 1));
      return { engine, scheduled: free.length, alreadyTaken: taken.size, jobUid };
    }),
  );
  return { selected: ids.length, engines: result };
}

/**
 * Unschedules a selection from one engine in one transaction, with the spec's rule for each
 * credential (it is deleted when nothing else holds it). Selected credentials not scheduled
 * there are counted, not failed; any other error undoes the whole call.
 */
export async function unscheduleSelection(scope: PartnerScope, selection: Selection, engineId: string, task: TaskContext): Promise<BulkUnscheduleResult> {
  const engine = scope.catalog.get(engineId).id;
  const ids = await resolveSelection(scope, selection, task);
  if (ids.length === 0) throw new ServiceError('empty_credential_list', 'No credential matches the selection; nothing was unscheduled.');
  if (findScheduledJob(scope, engine) === undefined) throw new ServiceError('missing_job', `Nothing is scheduled on ${engine}; there is nothing to unschedule.`);
  throwIfCancelled(task.signal);
  task.progress(0, ids.length);
  const uids = uidsOf(scope, ids);
  return inTransaction(scope.db, () => {
    const result: BulkUnscheduleResult = { selected: ids.length, unscheduled: 0, deleted: 0, notScheduled: 0 };
    uids.forEach((uid, i) => {
      try {
        const one = unscheduleCredential(scope, uid, engine);
        result.unscheduled++;
        if (one.credential_deleted) result.deleted++;
      } catch (error) {
        if (!isServiceError(error) || error.id !== 'credential_not_scheduled') throw error;
        result.notScheduled++;
      }
      if (i % 1000 === 999) task.progress(i + 1);
    });
    return result;
  });
}
