/** The activity log of the calling Partner (an extension of the spec). */
import { ServiceError } from '../../../common/errors.js';
import * as S from '../schemas/activity.js';
import type { ApiRoute } from './route.js';

export const activityRoutes: ApiRoute[] = [
  {
    method: 'GET',
    url: '/activity',
    schema: S.listActivity,
    status: 200,
    handle: (request) => {
      if (!request.service.listActivity) throw new ServiceError('not_found', 'This service keeps no activity log');
      return request.service.listActivity(request.query);
    },
  },
];
