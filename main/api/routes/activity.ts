/** The activity log of the calling Partner (an extension of the spec: docs/api.md). */
import { ServiceError } from '../../../common/errors.js';
import { ref } from '../../../common/schemas/primitives.js';
import { ActivityQuerySchema } from '../../../common/schemas/requests.js';
import { ActivityPageSchema } from '../../../common/schemas/resources.js';
import { envelope, endpoints } from './route.js';

export const activityRoutes = endpoints('Activity', [
  {
    method: 'GET',
    url: '/activity',
    operationId: 'listActivity',
    summary: 'List the activity log',
    description:
      'Extension: what was created, scheduled, unscheduled, tagged, issued, revoked and exported for the calling Partner, when, by whom and on which engine, oldest first. Append-only: entries are never changed or deleted.',
    querystring: ActivityQuerySchema,
    response: { 200: envelope(ref(ActivityPageSchema), 'A page of activity entries') },
    errors: ['wrong_pagination_argument', 'invalid_value'],
    handle: (request) => {
      if (!request.service.listActivity) throw new ServiceError('not_found', 'This service keeps no activity log');
      return request.service.listActivity(request.query);
    },
  },
]);
