/** Credentials: create, create-and-schedule (streamed upload), list, get, tags, schedule, unschedule, revoke. */
import type { CredentialDetails, CredentialTagsBody, CreateCredentialBody, ScheduleBody } from '../../../common/requests.js';
import { checkJson } from '../content-types.js';
import * as S from '../schemas/credentials.js';
import { withForm } from '../multipart.js';
import { intakeSenderFor } from '../../intake/index.js';
import type { ApiRoute } from './route.js';

/** The JSON text of credential_details is held to the JSON bodies' rule: no prototype keys, no extreme nesting. */
function refuseProtoKeys(details: unknown): void {
  let value: unknown = details;
  if (typeof details === 'string') {
    try {
      value = JSON.parse(details);
    } catch {
      return; // not JSON: the engine answers no_json
    }
  }
  checkJson(value);
}

export const credentialRoutes: ApiRoute[] = [
  {
    method: 'POST',
    url: '/credentials',
    schema: S.createCredential,
    body: 'json',
    status: 201,
    handle: (request) => request.service.createCredential(request.body as CreateCredentialBody),
  },
  {
    method: 'POST',
    url: '/credentials/schedule/:engine',
    schema: S.createAndSchedule,
    body: 'multipart',
    status: 201,
    handle: (request, ctx) => {
      const engine = request.params.engine!;
      // Not a form at all: the engine answers no_json, as for a JSON endpoint without a body.
      if (!request.isMultipart()) return request.service.createAndScheduleCredential(engine, undefined as never);
      return withForm(request, ctx, { fields: ['credential_details'], fileOptional: true }, ({ fields, file }) => {
        const details = fields.credential_details as CredentialDetails | string | undefined;
        refuseProtoKeys(details);
        // Through the shared intake: concurrent requests without a streamed file share one write transaction.
        return intakeSenderFor(request.service).createAndSchedule(engine, { file, credential_details: details });
      });
    },
  },
  {
    method: 'POST',
    url: '/credentials/schedule',
    schema: S.scheduleCredentials,
    body: 'json',
    status: 201,
    handle: (request) => request.service.scheduleCredentials(request.body as ScheduleBody),
  },
  { method: 'GET', url: '/credentials', schema: S.listCredentials, status: 200, handle: (request) => request.service.listCredentials(request.query) },
  { method: 'GET', url: '/credentials/:uid', schema: S.getCredential, status: 200, handle: (request) => request.service.getCredential(request.params.uid!) },
  {
    method: 'PATCH',
    url: '/credentials',
    schema: S.addCredentialTags,
    body: 'json',
    status: 200,
    handle: (request) => request.service.addCredentialTags(request.body as CredentialTagsBody),
  },
  {
    method: 'PUT',
    url: '/credentials',
    schema: S.replaceCredentialTags,
    body: 'json',
    status: 200,
    handle: (request) => request.service.replaceCredentialTags(request.body as CredentialTagsBody),
  },
  {
    method: 'PATCH',
    url: '/credentials/:uid/delete_tag',
    schema: S.deleteCredentialTag,
    status: 200,
    handle: (request) => request.service.deleteCredentialTag(request.params.uid!, request.query.tag as string),
  },
  {
    method: 'DELETE',
    url: '/credentials/:uid/unschedule/:engine',
    schema: S.unscheduleCredential,
    status: 200,
    handle: (request) => request.service.unscheduleCredential(request.params.uid!, request.params.engine!),
  },
  {
    method: 'POST',
    url: '/credentials/:uid/revoke/:engine',
    schema: S.revokeCredential,
    status: 200,
    handle: (request) => request.service.revokeCredential(request.params.uid!, request.params.engine!),
  },
];
