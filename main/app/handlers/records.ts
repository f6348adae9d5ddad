/**
 * Handlers of the Records view's slice (common/ipc/records.ts), over the connection's
 * RecordsBackend (the embedded engine or a remote service, main/workspace/records-backend.ts).
 * Bulk work runs as a task; when it ends, a `counts` event tells every view to refetch what it shows.
 */
import type { RECORDS_IPC } from '../../../common/ipc/records.js';
import type { Selection, TagEdit } from '../../../common/records.js';
import type { TaskKind, TaskLabelCode } from '../../../common/tasks.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';

/** "50,000 credentials", "1 credential". */
export function credentialCount(count: number): string {
  return `${count.toLocaleString('en-US')} credential${count === 1 ? '' : 's'}`;
}

/** What a tag edit's task is called, before the count. */
function tagVerb(edit: TagEdit): string {
  return { add: 'Adding tags to', replace: 'Replacing the tags of', remove: `Removing tag ${edit.mode === 'remove' ? edit.tag : ''} from` }[edit.mode];
}

export function createRecordsHandlers(ctx: AppContext): HandlersOf<typeof RECORDS_IPC> {
  /** Starts bulk work on a selection; the label names the count, as the progressbar's name. */
  const startBulk = async <R>(kind: TaskKind, verb: (count: string) => string, code: Omit<TaskLabelCode, 'count'>, selection: Selection, work: Parameters<AppContext['tasks']['start']>[2]) => {
    const count = await ctx.records().count(selection);
    const label = { text: verb(credentialCount(count)), code: { ...code, count } };
    return ctx.tasks.start<R>(kind, label, async (task) => {
      try {
        return (await work(task)) as R;
      } finally {
        ctx.events.emit({ type: 'counts', scopes: ['credentials', 'jobs', 'tags'] });
      }
    });
  };

  return {
    'records:window': (request) => ctx.records().window(request),
    'records:tags': (prefix, limit) => ctx.records().tags(prefix, limit),
    'records:metadataKeys': (limit) => ctx.records().metadataKeys(limit),
    'records:count': (selection) => ctx.records().count(selection),
    'records:total': (filter) => ctx.records().total(filter),
    'records:editTags': async (selection, edit) => {
      const records = ctx.records();
      const kind: TaskKind = edit.mode === 'add' ? 'tags-add' : edit.mode === 'replace' ? 'tags-replace' : 'tag-remove';
      const code: Omit<TaskLabelCode, 'count'> = edit.mode === 'remove' ? { id: 'tagRemove', name: edit.tag } : { id: edit.mode === 'add' ? 'tagsAdd' : 'tagsReplace' };
      return startBulk(kind, (n) => `${tagVerb(edit)} ${n}`, code, selection, (task) => records.editTags(selection, edit, task));
    },
    'records:undoTags': async (token) => {
      const records = ctx.records();
      return ctx.tasks.start('tags-undo', 'Undoing the tag change', async (task) => {
        try {
          return await records.undoTags(token, task);
        } finally {
          ctx.events.emit({ type: 'counts', scopes: ['credentials', 'tags'] });
        }
      });
    },
    'records:schedule': async (selection, engines) => {
      const records = ctx.records();
      // An unknown engine fails now, before a task starts (wrong_blockchain_engine).
      records.checkEngines(engines);
      return startBulk('schedule', (n) => `Scheduling ${n} on ${engines.join(', ')}`, { id: 'schedule', name: engines.join(', ') }, selection, (task) => records.schedule(selection, engines, task));
    },
    'records:unschedule': async (selection, engine) => {
      const records = ctx.records();
      records.checkEngines([engine]);
      return startBulk('unschedule', (n) => `Unscheduling ${n} from ${engine}`, { id: 'unschedule', name: engine }, selection, (task) => records.unschedule(selection, engine, task));
    },
  };
}
