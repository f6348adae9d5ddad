/** Credentials: create, create-and-schedule (streamed upload), list, get, tags, schedule, unschedule, revoke. */
import { Type } from '@sinclair/typebox';
import type { ErrorId } from '../../../common/errors.js';
import type { CredentialDetails, CredentialTagsBody, CreateCredentialBody, ScheduleBody } from '../../../common/requests.js';
import { ref } from '../../../common/schemas/primitives.js';
import { CreateCredentialBodySchema, CredentialDetailsSchema, CredentialQuerySchema, CredentialTagsBodySchema, DeleteTagQuerySchema, ScheduleBodySchema } from '../../../common/schemas/requests.js';
import { CredentialPageSchema, CredentialSchema, JobSchema, RevokeResultSchema, UnscheduleResultSchema } from '../../../common/schemas/resources.js';
import { checkJson } from '../content-types.js';
import { withForm } from '../multipart.js';
import { intakeSenderFor } from '../../intake/index.js';
import { NO_CONTENT, envelope, form, pathParams, endpoints } from './route.js';

/** What the PATCH and PUT of many objects' tags answer besides their unknown-uid id. */
export const TAG_WRITE_ERRORS: ErrorId[] = ['no_json', 'missing_field', 'invalid_value', 'invalid_tag', 'duplicated_tags', 'payload_too_large'];

const credentialDetails = Type.Unsafe<string>({
  type: 'string',
  contentMediaType: 'application/json',
  contentSchema: CredentialDetailsSchema,
  description: 'JSON text: title, metadata, credentials, tags, expiry_date, ignore_duplicate',
});

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

export const credentialRoutes = endpoints('Credentials', [
  {
    method: 'POST',
    url: '/credentials',
    operationId: 'createCredential',
    summary: 'Create a credential',
    description: 'From file hashes and/or metadata. No issuing is triggered.',
    body: CreateCredentialBodySchema,
    response: { 201: envelope(ref(CredentialSchema), 'The credential') },
    errors: ['no_json', 'missing_field', 'invalid_value', 'missing_file_and_metadata', 'invalid_tag', 'duplicated_tags', 'invalid_expiry_date', 'missing_file', 'missing_credential', 'payload_too_large'],
    handle: (request) => request.service.createCredential(request.body as CreateCredentialBody),
  },
  {
    method: 'POST',
    url: '/credentials/schedule/:engine',
    operationId: 'createAndScheduleCredential',
    summary: 'Create a credential and schedule it on an engine',
    description:
      'Uploads the file (optional) and creates the credential in one request, then adds it to the current scheduled job of the engine. ' +
      'Send `credential_details` before the file part to let the file stream straight into the store.',
    params: pathParams({ engine: 'The blockchain engine (GET /engines)' }),
    form: form({ credential_details: credentialDetails }, ['credential_details'], 'The file to issue (optional)'),
    response: { 201: envelope(ref(CredentialSchema), 'The credential, scheduled') },
    errors: [
      'no_json',
      'missing_field',
      'invalid_value',
      'missing_file_and_metadata',
      'invalid_tag',
      'duplicated_tags',
      'invalid_expiry_date',
      'missing_credential',
      'file_already_exists',
      'wrong_blockchain_engine',
      'payload_too_large',
    ],
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
    operationId: 'scheduleCredentials',
    summary: 'Schedule credentials on an engine',
    description: "Adds them to the Partner's current scheduled job of the engine (made when there is none). All or nothing.",
    body: ScheduleBodySchema,
    response: { 201: envelope(ref(JobSchema), 'The scheduled job') },
    errors: ['no_json', 'missing_field', 'invalid_value', 'missing_credential', 'credential_already_scheduled_or_issued', 'wrong_blockchain_engine', 'payload_too_large'],
    handle: (request) => request.service.scheduleCredentials(request.body as ScheduleBody),
  },
  {
    method: 'GET',
    url: '/credentials',
    operationId: 'listCredentials',
    summary: 'List credentials',
    querystring: CredentialQuerySchema,
    response: { 200: envelope(ref(CredentialPageSchema), 'A page of credentials') },
    errors: ['wrong_pagination_argument', 'invalid_value'],
    handle: (request) => request.service.listCredentials(request.query),
  },
  {
    method: 'GET',
    url: '/credentials/:uid',
    operationId: 'getCredential',
    summary: 'Get a credential',
    params: pathParams({ uid: 'The credential uid' }),
    response: { 200: envelope(ref(CredentialSchema), 'The credential') },
    errors: ['missing_credential'],
    handle: (request) => request.service.getCredential(request.params.uid!),
  },
  {
    method: 'PATCH',
    url: '/credentials',
    operationId: 'addCredentialTags',
    summary: 'Add tags to credentials',
    description: 'Existing tags are kept. All or nothing: one bad entry changes nothing.',
    body: CredentialTagsBodySchema,
    response: { 200: NO_CONTENT },
    errors: [...TAG_WRITE_ERRORS, 'missing_credential'],
    handle: (request) => request.service.addCredentialTags(request.body as CredentialTagsBody),
  },
  {
    method: 'PUT',
    url: '/credentials',
    operationId: 'replaceCredentialTags',
    summary: 'Replace the tags of credentials',
    description: 'Old tags are deleted. All or nothing. An unknown credential is `missing_job`, as the spec says.',
    body: CredentialTagsBodySchema,
    response: { 200: NO_CONTENT },
    errors: [...TAG_WRITE_ERRORS, 'missing_job'],
    handle: (request) => request.service.replaceCredentialTags(request.body as CredentialTagsBody),
  },
  {
    method: 'PATCH',
    url: '/credentials/:uid/delete_tag',
    operationId: 'deleteCredentialTag',
    summary: 'Remove a tag from a credential',
    params: pathParams({ uid: 'The credential uid' }),
    querystring: DeleteTagQuerySchema,
    response: { 200: NO_CONTENT },
    errors: ['invalid_value', 'missing_credential', 'tag_does_not_exist'],
    handle: (request) => request.service.deleteCredentialTag(request.params.uid!, request.query.tag as string),
  },
  {
    method: 'DELETE',
    url: '/credentials/:uid/unschedule/:engine',
    operationId: 'unscheduleCredential',
    summary: 'Unschedule a credential from an engine',
    description: 'When the credential is then neither scheduled nor issued anywhere (and no credential links to it), it is deleted.',
    params: pathParams({ uid: 'The credential uid', engine: 'The blockchain engine' }),
    response: { 200: envelope(ref(UnscheduleResultSchema), 'What happened') },
    errors: ['wrong_blockchain_engine', 'missing_credential', 'missing_job', 'credential_not_scheduled'],
    handle: (request) => request.service.unscheduleCredential(request.params.uid!, request.params.engine!),
  },
  {
    method: 'POST',
    url: '/credentials/:uid/revoke/:engine',
    operationId: 'revokeCredential',
    summary: "Revoke a credential's certificate on an engine",
    description: 'Answers once the revocation transaction is mined.',
    params: pathParams({ uid: 'The credential uid', engine: 'The blockchain engine' }),
    response: { 200: envelope(ref(RevokeResultSchema), 'The revocation date') },
    errors: [
      'wrong_blockchain_engine',
      'missing_credential',
      'missing_certificate_by_credential',
      'unconfirmed_certificate_transaction',
      'certificate_already_revoked',
      'try_again_later',
    ],
    handle: (request) => request.service.revokeCredential(request.params.uid!, request.params.engine!),
  },
]);
