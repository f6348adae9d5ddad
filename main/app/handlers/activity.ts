/** Handlers of the Activity view (common/ipc/activity.ts): the active Partner's activity log. */
import { ServiceError } from '../../../common/errors.js';
import type { ACTIVITY_IPC } from '../../../common/ipc/activity.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';

export function createActivityHandlers(ctx: AppContext): HandlersOf<typeof ACTIVITY_IPC> {
  return {
    'activity:list': async (query) => {
      const { service } = ctx.require();
      if (!service.listActivity) throw new ServiceError('not_found', 'The service this app is connected to keeps no activity log.');
      return service.listActivity(query);
    },
  };
}
