import { ServiceError } from '../../common/errors.js';
import type { BulkScheduleResult, BulkUnscheduleResult, Selection } from '../../common/records.js';
import type { TaskContext } from '../../common/tasks.js';
import { findScheduledJob, scheduleIds, uidsOf, unscheduleUids, type PartnerScope } from '../engine/index.js';
import { resolveSelection, throwIfCancelled } from './selection.js';

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
  const result = scheduleIds(scope, ids, engines, (i) => task.progress(ids.length * (i + 1)));
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
  return unscheduleUids(scope, uids, engine, ids.length, (done) => task.progress(done));
}
