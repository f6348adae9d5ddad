/** Handlers of the Activity view (common/ipc/activity.ts): the active Partner's activity log. */
import { ServiceError } from '../../../common/errors.js';
import type { ActivityJob, ACTIVITY_IPC } from '../../../common/ipc/activity.js';
import { jobSummaries, jobTags } from '../../engine/index.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';

export function createActivityHandlers(ctx: AppContext): HandlersOf<typeof ACTIVITY_IPC> {
  return {
    'activity:list': async (query) => {
      const { service } = ctx.require();
      if (!service.listActivity) throw new ServiceError('not_found', 'The service this app is connected to keeps no activity log.');
      const page = await service.listActivity(query);
      // The page's jobs named as the Jobs view names them, read once per page for its few jobs.
      // A remote service would cost requests per job: there the view shows the job's uid.
      const jobs: Record<string, ActivityJob> = {};
      const uids = [...new Set(page.items.flatMap((e) => (e.job_uid ? [e.job_uid] : [])))];
      if (ctx.engine && uids.length > 0) {
        const scope = ctx.scope();
        const summaries = jobSummaries(scope, uids);
        for (const [uid, tags] of Object.entries(jobTags(scope, uids))) {
          const summary = summaries[uid];
          if (summary) jobs[uid] = { tags, summary };
        }
      }
      return { ...page, jobs };
    },
  };
}
