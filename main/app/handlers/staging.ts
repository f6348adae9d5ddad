/**
 * Handlers of the staging slice (common/ipc/staging.ts): stage dropped paths, create the rows
 * as a task. The work itself is in main/workspace/rows-intake/.
 */
import type { RowOutcome, StagingCreateResult, StagingCreateRow, STAGING_IPC } from '../../../common/ipc/staging.js';
import { createRows } from '../../workspace/rows-intake/create-rows.js';
import { credentialTitles } from '../../workspace/rows-intake/existing-credentials.js';
import { stagePaths } from '../../workspace/rows-intake/stage-files.js';
import { stage } from '../../engine/index.js';
import { rememberOriginalPaths } from '../../workspace/original-paths.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';
import { watchFolderDesktop } from './watch-folders-desktop.js';

/** `Creating 1,000 credentials`: the task's label is also its progressbar's accessible name. */
export function creatingLabel(count: number, scheduling: boolean): string {
  const n = `${count.toLocaleString('en-US')} credential${count === 1 ? '' : 's'}`;
  return scheduling ? `Creating and scheduling ${n}` : `Creating ${n}`;
}

/**
 * The desktop app remembers where each created credential's file was dropped from, for "Open
 * the original file" (the browser bridge's paths are its own temporary uploads: not kept).
 */
function rememberDroppedPaths(ctx: AppContext, rows: StagingCreateRow[], outcomes: RowOutcome[]): void {
  if (!watchFolderDesktop() || !ctx.engine) return;
  const { dataDir } = ctx.engine;
  const fileOf = new Map(rows.map((r) => [r.key, r.file]));
  const entries = outcomes.flatMap((o) => {
    const file = o.status === 'created' ? fileOf.get(o.key) : null;
    return o.status === 'created' && file ? [{ uid: o.uid, hash: file.file_hash, path: file.path }] : [];
  });
  stage('create: original paths', () => rememberOriginalPaths(dataDir, entries));
}

/** Outcomes of the latest create tasks kept for `staging:outcome`. */
const KEEP_OUTCOMES = 20;

export function createStagingHandlers(ctx: AppContext): HandlersOf<typeof STAGING_IPC> {
  const outcomes = new Map<string, StagingCreateResult>();
  const keep = (taskId: string, result: StagingCreateResult) => {
    outcomes.set(taskId, result);
    for (const old of [...outcomes.keys()].slice(0, Math.max(0, outcomes.size - KEEP_OUTCOMES))) outcomes.delete(old);
  };
  return {
    'staging:addPaths': async (paths) => {
      const { partner } = ctx.require();
      return stagePaths(paths, { scope: ctx.engine ? ctx.engine.scopeFor(partner.id) : null });
    },
    'staging:create': async (request) => {
      const { service } = ctx.require();
      const total = request.rows.length;
      let taskId = '';
      const task = ctx.tasks.start(
        'create-credentials',
        { text: creatingLabel(total, request.engine !== null), code: { id: request.engine !== null ? 'createSchedule' : 'create', count: total } },
        async (context): Promise<StagingCreateResult> => {
          try {
            const rows = await createRows(service, request.rows, { engine: request.engine, allowDuplicates: request.allow_duplicates }, context);
            rememberDroppedPaths(ctx, request.rows, rows);
            const result = {
              outcomes: rows,
              created: rows.filter((o) => o.status === 'created').length,
              failed: rows.filter((o) => o.status === 'failed').length,
            };
            keep(taskId, result);
            return result;
          } finally {
            ctx.events.emit({ type: 'counts', scopes: ['credentials', 'files', 'jobs', 'tags'] });
          }
        },
        total,
      );
      // The work starts on the next turn (task-runner.ts), after this id is known.
      taskId = task.id;
      return task;
    },
    'staging:outcome': async (taskId) => outcomes.get(taskId) ?? null,
    'staging:linkTitles': async (uids) => {
      const { service } = ctx.require();
      return Object.fromEntries(await credentialTitles(ctx.engine ? ctx.scope() : null, service, uids));
    },
  };
}
