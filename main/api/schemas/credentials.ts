/** Route schemas of the Credentials endpoints. */
import { Type } from '@sinclair/typebox';
import type { ErrorId } from '../../../common/errors.js';
import { ref } from '../../../common/schemas/primitives.js';
import { CreateCredentialBodySchema, CredentialDetailsSchema, CredentialQuerySchema, CredentialTagsBodySchema, DeleteTagQuerySchema, ScheduleBodySchema } from '../../../common/schemas/requests.js';
import { CredentialPageSchema, CredentialSchema, JobSchema, RevokeResultSchema, UnscheduleResultSchema } from '../../../common/schemas/resources.js';
import { NO_CONTENT, envelope, form, pathParams, route } from './common.js';

const CRED = ['Credentials'];

/** What the PATCH and PUT of many objects' tags answer besides their unknown-uid id. */
export const TAG_WRITE_ERRORS: ErrorId[] = ['no_json', 'missing_field', 'invalid_value', 'invalid_tag', 'duplicated_tags', 'payload_too_large'];

const credentialDetails = Type.Unsafe<string>({
  type: 'string',
  contentMediaType: 'application/json',
  contentSchema: CredentialDetailsSchema,
  description: 'JSON text: title, metadata, credentials, tags, expiry_date, ignore_duplicate',
});

export const createCredential = route({
  operationId: 'createCredential',
  summary: 'Create a credential',
  description: 'From file hashes and/or metadata. No issuing is triggered.',
  tags: CRED,
  body: CreateCredentialBodySchema,
  response: { 201: envelope(ref(CredentialSchema), 'The credential') },
  errors: ['no_json', 'missing_field', 'invalid_value', 'missing_file_and_metadata', 'invalid_tag', 'duplicated_tags', 'invalid_expiry_date', 'missing_file', 'missing_credential', 'payload_too_large'],
});

export const createAndSchedule = route({
  operationId: 'createAndScheduleCredential',
  summary: 'Create a credential and schedule it on an engine',
  description:
    'Uploads the file (optional) and creates the credential in one request, then adds it to the current scheduled job of the engine. ' +
    'Send `credential_details` before the file part to let the file stream straight into the store.',
  tags: CRED,
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
});

export const listCredentials = route({
  operationId: 'listCredentials',
  summary: 'List credentials',
  tags: CRED,
  querystring: CredentialQuerySchema,
  response: { 200: envelope(ref(CredentialPageSchema), 'A page of credentials') },
  errors: ['wrong_pagination_argument', 'invalid_value'],
});

export const getCredential = route({
  operationId: 'getCredential',
  summary: 'Get a credential',
  tags: CRED,
  params: pathParams({ uid: 'The credential uid' }),
  response: { 200: envelope(ref(CredentialSchema), 'The credential') },
  errors: ['missing_credential'],
});

export const addCredentialTags = route({
  operationId: 'addCredentialTags',
  summary: 'Add tags to credentials',
  description: 'Existing tags are kept. All or nothing: one bad entry changes nothing.',
  tags: CRED,
  body: CredentialTagsBodySchema,
  response: { 200: NO_CONTENT },
  errors: [...TAG_WRITE_ERRORS, 'missing_credential'],
});

export const replaceCredentialTags = route({
  operationId: 'replaceCredentialTags',
  summary: 'Replace the tags of credentials',
  description: 'Old tags are deleted. All or nothing. An unknown credential is `missing_job`, as the spec says.',
  tags: CRED,
  body: CredentialTagsBodySchema,
  response: { 200: NO_CONTENT },
  errors: [...TAG_WRITE_ERRORS, 'missing_job'],
});

export const deleteCredentialTag = route({
  operationId: 'deleteCredentialTag',
  summary: 'Remove a tag from a credential',
  tags: CRED,
  params: pathParams({ uid: 'The credential uid' }),
  querystring: DeleteTagQuerySchema,
  response: { 200: NO_CONTENT },
  errors: ['invalid_value', 'missing_credential', 'tag_does_not_exist'],
});

export const scheduleCredentials = route({
  operationId: 'scheduleCredentials',
  summary: 'Schedule credentials on an engine',
  description: "Adds them to the Partner's current scheduled job of the engine (made when there is none). All or nothing.",
  tags: CRED,
  body: ScheduleBodySchema,
  response: { 201: envelope(ref(JobSchema), 'The scheduled job') },
  errors: ['no_json', 'missing_field', 'invalid_value', 'missing_credential', 'credential_already_scheduled_or_issued', 'wrong_blockchain_engine', 'payload_too_large'],
});

export const unscheduleCredential = route({
  operationId: 'unscheduleCredential',
  summary: 'Unschedule a credential from an engine',
  description: 'When the credential is then neither scheduled nor issued anywhere (and no credential links to it), it is deleted.',
  tags: CRED,
  params: pathParams({ uid: 'The credential uid', engine: 'The blockchain engine' }),
  response: { 200: envelope(ref(UnscheduleResultSchema), 'What happened') },
  errors: ['wrong_blockchain_engine', 'missing_credential', 'missing_job', 'credential_not_scheduled'],
});

export const revokeCredential = route({
  operationId: 'revokeCredential',
  summary: "Revoke a credential's certificate on an engine",
  description: 'Answers once the revocation transaction is mined.',
  tags: CRED,
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
});
