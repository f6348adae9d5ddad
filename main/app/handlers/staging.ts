/**
 * Handlers of the staging slice (common/ipc/staging.ts): stage dropped paths, create the rows
 * as a task. The work itself is in main/workspace/bringing-in.
 */
import type { StagingIpc } from '../../../common/ipc/staging.js';
import { createRows } from '../../workspace/bringing-in/create-rows.js';
import { stagePaths } from '../../workspace/bringing-in/stage-files.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';

/** `Creating 1,000 credentials`: the task's label is also its progressbar's accessible name. */
export function creatingLabel(count: number, scheduling: boolean): string {
  const n = `${count.toLocaleString('en-US')} credential${count === 1 ? '' : 's'}`;
  return scheduling ? `Creating and scheduling ${n}` : `Creating ${n}`;
}

export function createStagingHandlers(ctx: AppContext): HandlersOf<StagingIpc> {
  return {
    'staging:addPaths': async (paths) => {
      const { partner } = ctx.require();
      return stagePaths(paths, { scope: ctx.engine ? ctx.engine.scopeFor(partner.id) : null });
    },
    'staging:create': async (request) => {
      const { service } = ctx.require();
      const total = request.rows.length;
      return ctx.tasks.start(
        'create-credentials',
        creatingLabel(total, request.engine !== null),
        async (task) => {
          try {
            const outcomes = await createRows(service, request.rows, { engine: request.engine, allowDuplicates: request.allow_duplicates }, task);
            return {
              outcomes,
              created: outcomes.filter((o) => o.status === 'created').length,
              failed: outcomes.filter((o) => o.status !== 'created').length,
            };
          } finally {
            ctx.events.emit({ type: 'counts', scopes: ['credentials', 'files', 'jobs', 'tags'] });
          }
        },
        total,
      );
    },
  };
}
