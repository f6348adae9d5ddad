/** Route schemas of the Credentials endpoints. */
import { ref, type JsonSchema } from './components.js';
import { DATE_OR_DATE_TIME, NO_CONTENT, TAG_FILTERS, TAG_LIST, tagWriteRoutes, dateFilter, envelope, form, paginationParams, pathParams, query, type RouteSchema } from './common.js';

const tags = TAG_LIST;
const uids: JsonSchema = { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: 1000, uniqueItems: true };

const CREDENTIAL_FIELDS: Record<string, JsonSchema> = {
  title: { type: 'string', minLength: 1, maxLength: 1000 },
  metadata: { type: 'object', additionalProperties: true, description: 'At most 64 KiB as compact JSON; may be {} only when a file is given' },
  credentials: { ...uids, description: 'Uids of credentials to link' },
  tags,
  expiry_date: { anyOf: [DATE_OR_DATE_TIME, { type: 'null' }], description: 'In the future; a date (00:00 UTC) or an RFC 3339 date-time' },
};

const createBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'metadata'],
  properties: { ...CREDENTIAL_FIELDS, files: { type: 'array', items: { type: 'string', pattern: '^[0-9a-f]{64}$' }, maxItems: 1000, description: 'Hashes of uploaded files' } },
};

const credentialDetails: JsonSchema = {
  type: 'string',
  contentMediaType: 'application/json',
  contentSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'metadata'],
    properties: { ...CREDENTIAL_FIELDS, ignore_duplicate: { type: ['string', 'boolean'], enum: ['true', 'false', true, false], default: 'false', description: 'true: accept a file uploaded before' } },
  },
  description: 'JSON text: title, metadata, credentials, tags, expiry_date, ignore_duplicate',
};

const CRED = ['Credentials'];

export const createCredential: RouteSchema = {
  operationId: 'createCredential',
  summary: 'Create a credential',
  description: 'From file hashes and/or metadata. No issuing is triggered.',
  tags: CRED,
  body: createBody,
  response: { 201: envelope(ref('Credential'), 'The credential') },
  errors: ['no_json', 'missing_field', 'invalid_value', 'missing_file_and_metadata', 'invalid_tag', 'duplicated_tags', 'invalid_expiry_date', 'missing_file', 'missing_credential', 'payload_too_large'],
};

export const createAndSchedule: RouteSchema = {
  operationId: 'createAndScheduleCredential',
  summary: 'Create a credential and schedule it on an engine',
  description:
    'Uploads the file (optional) and creates the credential in one request, then adds it to the current scheduled job of the engine. ' +
    'Send `credential_details` before the file part to let the file stream straight into the store.',
  tags: CRED,
  params: pathParams({ engine: 'The blockchain engine (GET /engines)' }),
  consumes: 'multipart/form-data',
  body: form({ credential_details: credentialDetails }, ['credential_details'], 'The file to issue (optional)'),
  response: { 201: envelope(ref('Credential'), 'The credential, scheduled') },
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
};

export const listCredentials: RouteSchema = {
  operationId: 'listCredentials',
  summary: 'List credentials',
  tags: CRED,
  querystring: query({
    uid: { type: 'string', format: 'uuid', description: 'Only this credential' },
    upload_date_from: dateFilter('Created at or after'),
    upload_date_to: dateFilter('Created up to'),
    ...TAG_FILTERS,
    ...paginationParams(['title', 'upload_date'], 'created_date'),
  }),
  response: { 200: envelope(ref('CredentialPage'), 'A page of credentials') },
  errors: ['wrong_pagination_argument', 'invalid_value'],
};

export const getCredential: RouteSchema = {
  operationId: 'getCredential',
  summary: 'Get a credential',
  tags: CRED,
  params: pathParams({ uid: 'The credential uid' }),
  response: { 200: envelope(ref('Credential'), 'The credential') },
  errors: ['missing_credential'],
};

const credentialTagRoutes = tagWriteRoutes({
  noun: 'credentials',
  uidField: 'credential_uid',
  operationIds: ['addCredentialTags', 'replaceCredentialTags'],
  tags: CRED,
  missing: { add: 'missing_credential', replace: 'missing_job' },
  replaceNote: 'An unknown credential is `missing_job`, as the spec says.',
});
export const addCredentialTags = credentialTagRoutes.add;
export const replaceCredentialTags = credentialTagRoutes.replace;

export const deleteCredentialTag: RouteSchema = {
  operationId: 'deleteCredentialTag',
  summary: 'Remove a tag from a credential',
  tags: CRED,
  params: pathParams({ uid: 'The credential uid' }),
  querystring: { type: 'object', required: ['tag'], properties: { tag: { type: 'string', description: 'The tag to remove' } } },
  response: { 200: NO_CONTENT },
  errors: ['invalid_value', 'missing_credential', 'tag_does_not_exist'],
};

export const scheduleCredentials: RouteSchema = {
  operationId: 'scheduleCredentials',
  summary: 'Schedule credentials on an engine',
  description: "Adds them to the Partner's current scheduled job of the engine (made when there is none). All or nothing.",
  tags: CRED,
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['engine', 'credentials'],
    properties: { engine: { type: 'string' }, credentials: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: 100000 } },
  },
  response: { 201: envelope(ref('Job'), 'The scheduled job') },
  errors: ['no_json', 'missing_field', 'invalid_value', 'missing_credential', 'credential_already_scheduled_or_issued', 'wrong_blockchain_engine', 'payload_too_large'],
};

export const unscheduleCredential: RouteSchema = {
  operationId: 'unscheduleCredential',
  summary: 'Unschedule a credential from an engine',
  description: 'When the credential is then neither scheduled nor issued anywhere (and no credential links to it), it is deleted.',
  tags: CRED,
  params: pathParams({ uid: 'The credential uid', engine: 'The blockchain engine' }),
  response: { 200: envelope(ref('UnscheduleResult'), 'What happened') },
  errors: ['wrong_blockchain_engine', 'missing_credential', 'missing_job', 'credential_not_scheduled'],
};

export const revokeCredential: RouteSchema = {
  operationId: 'revokeCredential',
  summary: "Revoke a credential's certificate on an engine",
  description: 'Answers once the revocation transaction is mined.',
  tags: CRED,
  params: pathParams({ uid: 'The credential uid', engine: 'The blockchain engine' }),
  response: { 200: envelope(ref('RevokeResult'), 'The revocation date') },
  errors: [
    'wrong_blockchain_engine',
    'missing_credential',
    'missing_certificate_by_credential',
    'unconfirmed_certificate_transaction',
    'certificate_already_revoked',
    'try_again_later',
  ],
};
