/**
 * Handlers of the Records view's slice (common/ipc/records.ts), over main/workspace. Bulk work
 * runs as a task; when it ends, a `counts` event tells every view to refetch what it shows.
 */
import type { RecordsIpc } from '../../../common/ipc/records.js';
import type { Selection } from '../../../common/records.js';
import type { TaskKind } from '../../../common/tasks.js';
import { countSelection } from '../../workspace/selection.js';
import { editSelectionTags } from '../../workspace/bulk-tags.js';
import { scheduleSelection, unscheduleSelection } from '../../workspace/bulk-schedule.js';
import { recordWindow, tagSuggestions } from '../../workspace/record-query.js';
import { remoteCount, remoteEditTags, remoteRecordWindow, remoteSchedule, remoteUnschedule } from '../../workspace/remote-records.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';

/** "50,000 credentials", "1 credential". */
export function credentialCount(count: number): string {
  return `${count.toLocaleString('en-US')} credential${count === 1 ? '' : 's'}`;
}

export function createRecordsHandlers(ctx: AppContext): HandlersOf<RecordsIpc> {
  const embedded = createEmbeddedRecordsHandlers(ctx);
  // With a remote service in use, the same channels go through the spec's endpoints.
  const remote = () => (ctx.engine ? null : ctx.require().service);
  const remoteTask = <R>(kind: TaskKind, label: string, work: Parameters<AppContext['tasks']['start']>[2]) =>
    ctx.tasks.start<R>(kind, label, async (task) => {
      try {
        return (await work(task)) as R;
      } finally {
        ctx.events.emit({ type: 'counts', scopes: ['credentials', 'jobs', 'tags'] });
      }
    });
  const named = async (service: NonNullable<ReturnType<typeof remote>>, selection: Selection) => credentialCount(await remoteCount(service, selection));
  return {
    ...embedded,
    'records:window': async (request) => {
      const service = remote();
      return service ? remoteRecordWindow(service, request) : embedded['records:window'](request);
    },
    // The spec lists no tags: no suggestions, the filter still takes typed tags.
    'records:tags': async (prefix, limit) => (remote() ? [] : embedded['records:tags'](prefix, limit)),
    'records:count': async (selection) => {
      const service = remote();
      return service ? remoteCount(service, selection) : embedded['records:count'](selection);
    },
    'records:total': async (filter) => {
      const service = remote();
      return service ? remoteCount(service, { kind: 'filter', filter }) : embedded['records:total'](filter);
    },
    'records:editTags': async (selection, edit) => {
      const service = remote();
      if (!service) return embedded['records:editTags'](selection, edit);
      const kind: TaskKind = edit.mode === 'add' ? 'tags-add' : edit.mode === 'replace' ? 'tags-replace' : 'tag-remove';
      return remoteTask(kind, `Editing the tags of ${await named(service, selection)}`, (task) => remoteEditTags(service, selection, edit, task));
    },
    'records:schedule': async (selection, engines) => {
      const service = remote();
      if (!service) return embedded['records:schedule'](selection, engines);
      return remoteTask('schedule', `Scheduling ${await named(service, selection)} on ${engines.join(', ')}`, (task) => remoteSchedule(service, selection, engines, task));
    },
    'records:unschedule': async (selection, engine) => {
      const service = remote();
      if (!service) return embedded['records:unschedule'](selection, engine);
      return remoteTask('unschedule', `Unscheduling ${await named(service, selection)} from ${engine}`, (task) => remoteUnschedule(service, selection, engine, task));
    },
  };
}

function createEmbeddedRecordsHandlers(ctx: AppContext): HandlersOf<RecordsIpc> {
  /** Starts bulk work on a selection; the label names the count, as the progressbar's name. */
  const startBulk = <R>(kind: TaskKind, verb: (count: string) => string, selection: Selection, work: Parameters<AppContext['tasks']['start']>[2]) => {
    const scope = ctx.scope();
    const label = verb(credentialCount(countSelection(scope, selection)));
    const wrapped = async (task: Parameters<typeof work>[0]) => {
      try {
        return (await work(task)) as R;
      } finally {
        ctx.events.emit({ type: 'counts', scopes: ['credentials', 'jobs', 'tags'] });
      }
    };
    return ctx.tasks.start<R>(kind, label, wrapped);
  };

  return {
    'records:window': async (request) => recordWindow(ctx.scope(), request),
    'records:tags': async (prefix, limit) => tagSuggestions(ctx.scope(), prefix, limit),
    'records:count': async (selection) => countSelection(ctx.scope(), selection),
    'records:total': async (filter) => countSelection(ctx.scope(), { kind: 'filter', filter }),
    'records:editTags': async (selection, edit) => {
      const scope = ctx.scope();
      const verb = { add: 'Adding tags to', replace: 'Replacing the tags of', remove: `Removing tag ${edit.mode === 'remove' ? edit.tag : ''} from` }[edit.mode];
      const kind: TaskKind = edit.mode === 'add' ? 'tags-add' : edit.mode === 'replace' ? 'tags-replace' : 'tag-remove';
      return startBulk(kind, (n) => `${verb} ${n}`, selection, (task) => editSelectionTags(scope, selection, edit, task));
    },
    'records:schedule': async (selection, engines) => {
      const scope = ctx.scope();
      // An unknown engine fails now, before a task starts (wrong_blockchain_engine).
      for (const engine of engines) scope.catalog.get(engine);
      return startBulk('schedule', (n) => `Scheduling ${n} on ${engines.join(', ')}`, selection, (task) => scheduleSelection(scope, selection, engines, task));
    },
    'records:unschedule': async (selection, engine) => {
      const scope = ctx.scope();
      scope.catalog.get(engine);
      return startBulk('unschedule', (n) => `Unscheduling ${n} from ${engine}`, selection, (task) => unscheduleSelection(scope, selection, engine, task));
    },
  };
}
