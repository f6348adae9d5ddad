/**
 * The spec's resources as TypeBox schemas: the one source of their wire types
 * (common/wire-types.ts derives them with `Static`) and of the shared `components.schemas` of
 * the OpenAPI document (each `$id` is its component name).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { ACTIVITY_KINDS } from '../activity.js';
import { ERROR_IDS } from '../errors.js';
import { JOB_STATUSES, STEP_STATUSES, VERIFICATION_STATUSES, VERIFICATION_STEP_KEYS } from '../wire-types.js';
import { DateTime, NullableDateTime, SHA256_PATTERN, Uuid, ref } from './primitives.js';

const oneOf = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** A free-form JSON object. */
const JsonObject = (description: string) => Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description });

export const MetaSchema = Type.Object(
  {
    last_update: Type.String({ description: 'HTTP date of the latest update of the service (when this server started)', examples: ['Sun, 22 Nov 2026 11:18:00 GMT'] }),
    date: Type.String({ description: 'HTTP date of this response' }),
    message: Type.String({ description: 'Notices of breaking changes of specific endpoints; empty when there are none' }),
    version: Type.String({ description: 'Version of the service' }),
    documentation: Type.String({ format: 'uri', description: 'This OpenAPI document' }),
  },
  { $id: 'Meta', description: 'Server information carried by every response.' },
);

export const ErrorSchema = Type.Object(
  {
    error: Type.Object({ id: oneOf(ERROR_IDS), message: Type.String({ description: 'For people; never parsed' }) }),
    meta: ref(MetaSchema),
  },
  { $id: 'Error', description: 'The body of every error response, with the HTTP status of the id (see the error table in the description).' },
);

export const PartnerSchema = Type.Object({ id: Type.String(), name: Type.String() }, { $id: 'Partner' });

export const FileSchema = Type.Object(
  {
    file_hash: Type.String({ pattern: SHA256_PATTERN, description: 'SHA-256 of the file, lowercase hex' }),
    file_type: Type.Optional(Type.String({ description: 'MIME type, from the magic bytes or else the name; absent when unknown' })),
  },
  { $id: 'File', description: 'A file uploaded by the Partner.' },
);

export const CredentialSchema = Type.Recursive(
  (self) =>
    Type.Object({
      uid: Uuid('UUID version 7'),
      title: Type.String(),
      metadata: JsonObject("The Partner's free-form JSON object"),
      files: Type.Array(ref(FileSchema)),
      credentials: Type.Array(self, { description: 'Linked credentials (same shape, recursive)' }),
      upload_date: DateTime('Creation date'),
      tags: Type.Array(Type.String()),
      expiry_date: NullableDateTime('Expiry, if any'),
    }),
  { $id: 'Credential', description: 'A fingerprint of files plus Partner-supplied data; linked credentials nest recursively.' },
);

const NullableString = (description?: string) => Type.Union([Type.String(), Type.Null()], description === undefined ? {} : { description });

export const JobTransactionSchema = Type.Object(
  {
    hash: Type.String(),
    explorer_url: NullableString('Explorer link, when the engine has one configured'),
    pending_since: NullableDateTime('When it was first signed and sent, while not mined; null once mined'),
    max_fee_gwei: NullableString('Max fee per gas (gas price for a legacy transaction), gwei'),
    tip_gwei: NullableString('Priority fee per gas, gwei; null for a legacy transaction'),
    variants: Type.Integer({ description: 'Variants signed for its nonce (more than 1 once replaced with higher fees)' }),
  },
  { description: 'Proofdesk extension: the anchoring transaction as it stands (the current variant, or the one mined)' },
);

export const JobSchema = Type.Object(
  {
    uid: Uuid('UUID version 7'),
    partner: ref(PartnerSchema),
    chain: Type.String({ description: 'The blockchain engine' }),
    tags: Type.Array(Type.String()),
    status: oneOf(JOB_STATUSES),
    created_date: DateTime('Creation date'),
    start_date: NullableDateTime('When issuing started'),
    issued_date: NullableDateTime('Block time of the issuing transaction'),
    finished_date: NullableDateTime('When the block became final'),
    failed_date: NullableDateTime('When the job failed'),
    scheduled_date: NullableDateTime('When the job is due'),
    waiting: Type.Optional(NullableString('Proofdesk extension: why the job is not moving now (funds, fees above the cap)')),
    failure_reason: Type.Optional(NullableString('Proofdesk extension: why a failed job failed')),
    transaction: Type.Optional(Type.Union([JobTransactionSchema, Type.Null()])),
    finality: Type.Optional(
      Type.Object(
        {
          confirmations: Type.Integer({ minimum: 0, description: 'Blocks including the transaction, as last seen' }),
          required: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: "The depth that makes it final; null: waiting for the chain's finalized block" }),
        },
        { description: 'Extension, on GET /jobs/<uid> of an unconfirmed job: how far its block is towards final' },
      ),
    ),
  },
  { $id: 'Job', description: 'One blockchain transaction bundling scheduled credentials of one Partner on one engine.' },
);

const Verified = (description: string) => Type.Object({ status: oneOf(VERIFICATION_STATUSES), timestamp: DateTime(description) });

export const CertificateSchema = Type.Object(
  {
    certificate: Type.Object({
      uid: Uuid('Certificate uid'),
      partner: ref(PartnerSchema),
      credential: ref(CredentialSchema),
      issued_date: DateTime('Block time of the issuing transaction'),
      signature: Type.String({ description: "The leaf signed with the Partner's key (Ed25519)" }),
    }),
    revoked_date: NullableDateTime('Date of revocation, if any'),
    last_verification: Type.Union([Type.Null(), Verified('Time of the latest verification')]),
  },
  { $id: 'Certificate', description: 'One issued credential on one engine.' },
);

export const VerificationStepSchema = Type.Object(
  {
    name: Type.String(),
    description: JsonObject("The step's fields (the spec's table of description fields)"),
    status: oneOf(STEP_STATUSES),
  },
  { $id: 'VerificationStep' },
);

export const VerificationResultSchema = Type.Object(
  {
    verification: Type.Object(Object.fromEntries(VERIFICATION_STEP_KEYS.map((key) => [key, ref(VerificationStepSchema)])), {
      description: 'The six steps, in the order they run',
    }),
    result: Verified('When the verification ran'),
  },
  { $id: 'VerificationResult' },
);

export const EngineInfoSchema = Type.Object(
  {
    id: Type.String({ description: 'The engine identifier used in paths and bodies' }),
    chain_id: Type.Union([Type.Integer(), Type.Null()]),
    environment: oneOf(['live', 'demo'] as const),
    confirmations: Type.Integer({ minimum: 1, description: 'Confirmations a job needs to be finished' }),
  },
  { $id: 'EngineInfo', description: 'A blockchain engine the Partner can issue on.' },
);

export const UnscheduleResultSchema = Type.Object(
  {
    credential_uid: Uuid('The credential'),
    engine: Type.String(),
    credential_deleted: Type.Boolean({ description: 'True when the credential was deleted (neither scheduled nor issued anywhere, and not linked)' }),
  },
  { $id: 'UnscheduleResult' },
);

export const RevokeResultSchema = Type.Object({ revoked_date: DateTime('Block time of the revocation') }, { $id: 'RevokeResult' });

export const ProofFileSchema = Type.Object(
  { format: Type.Literal('proofdesk-proof/1'), certificate: Type.Object({}) },
  {
    $id: 'ProofFile',
    additionalProperties: true,
    description: 'A proof file (format `proofdesk-proof/1`): self-contained JSON, verifiable without this server. Its full JSON Schema is docs/proof-file.schema.json.',
  },
);

export const TokenSchema = Type.Object(
  {
    access_token: Type.String({ description: 'A signed JWT' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Lifetime in seconds (300)' }),
  },
  { $id: 'Token', description: 'OAuth 2.0 token response (RFC 6749 section 5.1).' },
);

/** The paginated object of a bulk retrieval, holding items of one schema. */
function page<T extends TSchema>(item: T, id: string, description: string) {
  return Type.Object(
    {
      page: Type.Integer({ minimum: 1 }),
      total_pages: Type.Integer({ minimum: 0, description: '0 when there are no items' }),
      per_page: Type.Integer({ minimum: 0, description: '0: every result in one page' }),
      total_items: Type.Integer({ minimum: 0 }),
      items: Type.Array(ref(item)),
    },
    { $id: id, description },
  );
}

export const ActivityEntrySchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'Grows with every entry: the order of the log' }),
    date: DateTime('When it was done; for issued and revoked, the time of the block holding the transaction'),
    kind: oneOf(ACTIVITY_KINDS),
    actor: Type.String({ description: 'Who did it: the OAuth client id over REST, the OS user in the app and the CLI, `scheduler` for a job it started' }),
    engine: Type.Union([Type.String(), Type.Null()], { description: 'The engine (chain) it concerns' }),
    credential_uid: Type.Union([Uuid(), Type.Null()]),
    credential_title: Type.Union([Type.String(), Type.Null()], {
      description: "The credential's title as it is now: null when the entry names no credential or the credential has since been deleted",
    }),
    job_uid: Type.Union([Uuid(), Type.Null()]),
    certificate_uid: Type.Union([Uuid(), Type.Null()]),
    detail: Type.Union([JsonObject('`transaction` (issued, revoked), `tags` / `added` / `removed` (tagged), `format` (exported), `credential_deleted` (unscheduled)'), Type.Null()]),
  },
  { $id: 'ActivityEntry', description: 'One entry of the activity log: append-only, never changed.' },
);

export const FilePageSchema = page(FileSchema, 'FilePage', 'A page of files');
export const CredentialPageSchema = page(CredentialSchema, 'CredentialPage', 'A page of credentials');
export const JobPageSchema = page(JobSchema, 'JobPage', 'A page of jobs');
export const CertificatePageSchema = page(CertificateSchema, 'CertificatePage', 'A page of certificates');
export const VerificationResultPageSchema = page(VerificationResultSchema, 'VerificationResultPage', 'A page of verification results');
export const ActivityPageSchema = page(ActivityEntrySchema, 'ActivityPage', 'A page of activity entries');

/** Every shared schema of the OpenAPI document. */
export const COMPONENT_SCHEMAS: readonly (TSchema & { $id: string })[] = [
  MetaSchema,
  ErrorSchema,
  PartnerSchema,
  FileSchema,
  CredentialSchema,
  JobSchema,
  CertificateSchema,
  VerificationStepSchema,
  VerificationResultSchema,
  EngineInfoSchema,
  UnscheduleResultSchema,
  RevokeResultSchema,
  ProofFileSchema,
  TokenSchema,
  FilePageSchema,
  CredentialPageSchema,
  JobPageSchema,
  CertificatePageSchema,
  VerificationResultPageSchema,
  ActivityEntrySchema,
  ActivityPageSchema,
] as (TSchema & { $id: string })[];
