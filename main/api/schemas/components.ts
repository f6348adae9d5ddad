/**
 * The spec's resources as JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it): the shared
 * `components.schemas` of the OpenAPI document. Routes point at them with `ref(name)`.
 * They describe the wire shapes of common/wire-types.ts; keep the two in step.
 */
import { ERROR_IDS } from '../../../common/errors.js';
import { JOB_STATUSES, STEP_STATUSES, VERIFICATION_STATUSES, VERIFICATION_STEP_KEYS } from '../../../common/wire-types.js';

/** A JSON Schema object (loosely typed: these are data, read by the OpenAPI generator). */
export type JsonSchema = Record<string, unknown>;

/** A reference to one of the shared schemas below. */
export function ref(name: keyof typeof COMPONENT_SCHEMAS): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

const dateTime = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const nullableDateTime = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', description });
const uuid = (description: string): JsonSchema => ({ type: 'string', format: 'uuid', description });

/** The paginated object of a bulk retrieval, holding items of one schema. */
function page(item: keyof typeof RESOURCES, description: string): JsonSchema {
  return {
    type: 'object',
    description,
    required: ['page', 'total_pages', 'per_page', 'total_items', 'items'],
    properties: {
      page: { type: 'integer', minimum: 1 },
      total_pages: { type: 'integer', minimum: 0, description: '0 when there are no items' },
      per_page: { type: 'integer', minimum: 0, description: '0: every result in one page' },
      total_items: { type: 'integer', minimum: 0 },
      items: { type: 'array', items: ref(item) },
    },
  };
}

const RESOURCES = {
  Meta: {
    type: 'object',
    description: 'Server information carried by every response.',
    required: ['last_update', 'date', 'message', 'version', 'documentation'],
    properties: {
      last_update: { type: 'string', description: 'HTTP date of the latest update of the service (when this server started)', examples: ['Sun, 22 Nov 2026 11:18:00 GMT'] },
      date: { type: 'string', description: 'HTTP date of this response' },
      message: { type: 'string', description: 'Notices of breaking changes of specific endpoints; empty when there are none' },
      version: { type: 'string', description: 'Version of the service' },
      documentation: { type: 'string', format: 'uri', description: 'This OpenAPI document' },
    },
  },
  Error: {
    type: 'object',
    description: 'The body of every error response, with the HTTP status of the id (see the error table in the description).',
    required: ['error', 'meta'],
    properties: {
      error: {
        type: 'object',
        required: ['id', 'message'],
        properties: {
          id: { type: 'string', enum: [...ERROR_IDS] },
          message: { type: 'string', description: 'For people; never parsed' },
        },
      },
      meta: { $ref: '#/components/schemas/Meta' },
    },
  },
  Partner: {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'string' }, name: { type: 'string' } },
  },
  File: {
    type: 'object',
    description: 'A file uploaded by the Partner.',
    required: ['file_hash'],
    properties: {
      file_hash: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the file, lowercase hex' },
      file_type: { type: 'string', description: 'MIME type, from the magic bytes or else the name; absent when unknown' },
    },
  },
  Credential: {
    type: 'object',
    description: 'A fingerprint of files plus Partner-supplied data; linked credentials nest recursively.',
    required: ['uid', 'title', 'metadata', 'files', 'credentials', 'upload_date', 'tags', 'expiry_date'],
    properties: {
      uid: uuid('UUID version 7'),
      title: { type: 'string' },
      metadata: { type: 'object', additionalProperties: true, description: "The Partner's free-form JSON object" },
      files: { type: 'array', items: { $ref: '#/components/schemas/File' } },
      credentials: { type: 'array', items: { $ref: '#/components/schemas/Credential' }, description: 'Linked credentials (same shape, recursive)' },
      upload_date: dateTime('Creation date'),
      tags: { type: 'array', items: { type: 'string' } },
      expiry_date: nullableDateTime('Expiry, if any'),
    },
  },
  Job: {
    type: 'object',
    description: 'One blockchain transaction bundling scheduled credentials of one Partner on one engine.',
    required: ['uid', 'partner', 'chain', 'tags', 'status', 'created_date', 'start_date', 'issued_date', 'finished_date', 'failed_date', 'scheduled_date'],
    properties: {
      uid: uuid('UUID version 7'),
      partner: { $ref: '#/components/schemas/Partner' },
      chain: { type: 'string', description: 'The blockchain engine' },
      tags: { type: 'array', items: { type: 'string' } },
      status: { type: 'string', enum: [...JOB_STATUSES] },
      created_date: dateTime('Creation date'),
      start_date: nullableDateTime('When issuing started'),
      issued_date: nullableDateTime('Block time of the issuing transaction'),
      finished_date: nullableDateTime('When the required confirmations were seen'),
      failed_date: nullableDateTime('When the job failed'),
      scheduled_date: nullableDateTime('When the job is due'),
      waiting: { type: ['string', 'null'], description: 'Proofdesk extension: why the job is not moving now (funds, fees above the cap)' },
      failure_reason: { type: ['string', 'null'], description: 'Proofdesk extension: why a failed job failed' },
      transaction: {
        type: ['object', 'null'],
        description: 'Proofdesk extension: the anchoring transaction, once signed',
        required: ['hash', 'explorer_url', 'pending_since', 'max_fee_gwei', 'tip_gwei', 'variants'],
        properties: {
          hash: { type: 'string' },
          explorer_url: { type: ['string', 'null'] },
          pending_since: nullableDateTime('When it was first signed, while not mined'),
          max_fee_gwei: { type: ['string', 'null'], description: 'Max fee per gas (gas price for legacy), gwei' },
          tip_gwei: { type: ['string', 'null'], description: 'Priority fee per gas, gwei' },
          variants: { type: 'integer', description: 'Variants signed for its nonce (more than 1 once replaced)' },
        },
      },
    },
  },
  Certificate: {
    type: 'object',
    description: 'One issued credential on one engine.',
    required: ['certificate', 'revoked_date', 'last_verification'],
    properties: {
      certificate: {
        type: 'object',
        required: ['uid', 'partner', 'credential', 'issued_date', 'signature'],
        properties: {
          uid: uuid('Certificate uid'),
          partner: { $ref: '#/components/schemas/Partner' },
          credential: { $ref: '#/components/schemas/Credential' },
          issued_date: dateTime('Block time of the issuing transaction'),
          signature: { type: 'string', description: "The leaf signed with the Partner's key (Ed25519)" },
        },
      },
      revoked_date: nullableDateTime('Date of revocation, if any'),
      last_verification: {
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            required: ['status', 'timestamp'],
            properties: { status: { type: 'string', enum: [...VERIFICATION_STATUSES] }, timestamp: dateTime('Time of the latest verification') },
          },
        ],
      },
    },
  },
  VerificationStep: {
    type: 'object',
    required: ['name', 'description', 'status'],
    properties: {
      name: { type: 'string' },
      description: { type: 'object', additionalProperties: true, description: "The step's fields (the spec's table of description fields)" },
      status: { type: 'string', enum: [...STEP_STATUSES] },
    },
  },
  VerificationResult: {
    type: 'object',
    required: ['verification', 'result'],
    properties: {
      verification: {
        type: 'object',
        description: 'The six steps, in the order they run',
        required: [...VERIFICATION_STEP_KEYS],
        properties: Object.fromEntries(VERIFICATION_STEP_KEYS.map((key) => [key, { $ref: '#/components/schemas/VerificationStep' }])),
      },
      result: {
        type: 'object',
        required: ['status', 'timestamp'],
        properties: { status: { type: 'string', enum: [...VERIFICATION_STATUSES] }, timestamp: dateTime('When the verification ran') },
      },
    },
  },
  EngineInfo: {
    type: 'object',
    required: ['id', 'chain_id', 'environment', 'confirmations'],
    properties: {
      id: { type: 'string', description: 'The engine identifier used in paths and bodies' },
      chain_id: { type: ['integer', 'null'] },
      environment: { type: 'string', enum: ['live', 'demo'] },
      confirmations: { type: 'integer', minimum: 1, description: 'Confirmations a job needs to be finished' },
    },
  },
  UnscheduleResult: {
    type: 'object',
    required: ['credential_uid', 'engine', 'credential_deleted'],
    properties: {
      credential_uid: uuid('The credential'),
      engine: { type: 'string' },
      credential_deleted: { type: 'boolean', description: 'True when the credential was deleted (neither scheduled nor issued anywhere, and not linked)' },
    },
  },
  RevokeResult: {
    type: 'object',
    required: ['revoked_date'],
    properties: { revoked_date: dateTime('Block time of the revocation') },
  },
  ProofFile: {
    type: 'object',
    additionalProperties: true,
    description: 'A proof file (format `proofdesk-proof/1`): self-contained JSON, verifiable without this server. Its full JSON Schema is docs/proof-file.schema.json.',
    required: ['format', 'certificate'],
    properties: { format: { const: 'proofdesk-proof/1' }, certificate: { type: 'object' } },
  },
  Token: {
    type: 'object',
    description: 'OAuth 2.0 token response (RFC 6749 section 5.1).',
    required: ['access_token', 'token_type', 'expires_in'],
    properties: {
      access_token: { type: 'string', description: 'A signed JWT' },
      token_type: { const: 'Bearer' },
      expires_in: { type: 'integer', description: 'Lifetime in seconds (300)' },
    },
  },
} as const satisfies Record<string, JsonSchema>;

/** Every shared schema of the OpenAPI document, the paginated ones included. */
export const COMPONENT_SCHEMAS = {
  ...RESOURCES,
  FilePage: page('File', 'A page of files'),
  CredentialPage: page('Credential', 'A page of credentials'),
  JobPage: page('Job', 'A page of jobs'),
  CertificatePage: page('Certificate', 'A page of certificates'),
  VerificationResultPage: page('VerificationResult', 'A page of verification results'),
} satisfies Record<string, JsonSchema>;
