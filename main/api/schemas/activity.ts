/** Route schema of the activity log (an extension of the spec: docs/api.md). */
import { ref } from '../../../common/schemas/primitives.js';
import { ActivityQuerySchema } from '../../../common/schemas/requests.js';
import { ActivityPageSchema } from '../../../common/schemas/resources.js';
import { envelope, route } from './common.js';

export const listActivity = route({
  operationId: 'listActivity',
  summary: 'List the activity log',
  description:
    'Extension: what was created, scheduled, unscheduled, tagged, issued, revoked and exported for the calling Partner, when, by whom and on which engine, oldest first. Append-only: entries are never changed or deleted.',
  tags: ['Activity'],
  querystring: ActivityQuerySchema,
  response: { 200: envelope(ref(ActivityPageSchema), 'A page of activity entries') },
  errors: ['wrong_pagination_argument', 'invalid_value'],
});
