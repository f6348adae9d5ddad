/**
 * The spec's request bodies and query strings as TypeBox schemas: what the REST server
 * declares for each endpoint (and the OpenAPI document shows), and the source of the body
 * types in common/requests.ts.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { JOB_STATUSES, VERIFICATION_STATUSES } from '../wire-types.js';
import { LIMITS } from '../limits.js';
import { ACTIVITY_KINDS } from '../activity.js';
import { DateFilter, DateOrDateTime, SHA256_PATTERN, TAG_FILTERS, TagFilter, TagList, Uuid, pagination } from './primitives.js';

const Uids = (options: { minItems?: number; maxItems: number; uniqueItems?: boolean; description?: string }) => Type.Array(Uuid(), options);

const CREDENTIAL_FIELDS = {
  title: Type.String({ minLength: 1, maxLength: LIMITS.titleMaxLength }),
  metadata: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description: 'At most 64 KiB as compact JSON; may be {} only when a file is given' }),
  credentials: Type.Optional(Uids({ maxItems: LIMITS.maxLinks, uniqueItems: true, description: 'Uids of credentials to link' })),
  tags: Type.Optional(TagList),
  expiry_date: Type.Optional(
    Type.Unsafe<string | null>({ anyOf: [DateOrDateTime(), { type: 'null' }], description: 'In the future; a date (00:00 UTC) or an RFC 3339 date-time' }),
  ),
};

/** Body of POST /credentials. */
export const CreateCredentialBodySchema = Type.Object(
  {
    ...CREDENTIAL_FIELDS,
    files: Type.Optional(Type.Array(Type.String({ pattern: SHA256_PATTERN }), { maxItems: LIMITS.maxLinks, description: 'Hashes of uploaded files' })),
  },
  { additionalProperties: false },
);

/** The `credential_details` form field of POST /credentials/schedule/<engine>: JSON text of these fields. */
export const CredentialDetailsSchema = Type.Object(
  {
    ...CREDENTIAL_FIELDS,
    ignore_duplicate: Type.Optional(
      Type.Unsafe<string | boolean>({ type: ['string', 'boolean'], enum: ['true', 'false', true, false], default: 'false', description: 'true: accept a file uploaded before' }),
    ),
  },
  { additionalProperties: false },
);

/** A list of PATCH / PUT tag entries: all or nothing, at least one. */
const TagEntries = <T extends TSchema>(entry: T) => Type.Array(entry, { minItems: 1, maxItems: LIMITS.maxBatch });

/** Body of PATCH / PUT /credentials. */
export const CredentialTagsBodySchema = Type.Object(
  { credentials: TagEntries(Type.Object({ credential_uid: Uuid(), tags: TagList }, { additionalProperties: false })) },
  { additionalProperties: false },
);

/** Body of PATCH / PUT /jobs. */
export const JobTagsBodySchema = Type.Object(
  { jobs: TagEntries(Type.Object({ job_uid: Uuid(), tags: TagList }, { additionalProperties: false })) },
  { additionalProperties: false },
);

/** Body of POST /credentials/schedule. */
export const ScheduleBodySchema = Type.Object(
  { engine: Type.String(), credentials: Uids({ minItems: 1, maxItems: LIMITS.maxBatch }) },
  { additionalProperties: false },
);

/** Body of POST /jobs/immediate. */
export const IssueNowBodySchema = Type.Object({ engine: Type.String() }, { additionalProperties: false });

/** The form field of POST /files. */
export const IgnoreDuplicatedField = Type.Unsafe<string>({
  type: 'string',
  enum: ['true', 'false'],
  default: 'false',
  description: 'true: answer the existing record instead of file_already_exists',
});

const JOB_SORT = ['status', 'chain', 'created_date', 'start_date', 'issued_date', 'ready_date', 'failed_date'];
const CERTIFICATE_SORT = ['issued_date', 'chain'];

export const FileQuerySchema = Type.Object({ file_hash: Type.Optional(Type.String({ description: 'Only the file with this hash' })), ...pagination(['uploaded'], 'uploaded') });

/** Query of GET /activity (an extension: docs/api.md). */
export const ActivityQuerySchema = Type.Object({
  kind: Type.Optional(
    Type.String({
      pattern: `^(${ACTIVITY_KINDS.join('|')})(,(${ACTIVITY_KINDS.join('|')}))*$`,
      description: `Only entries of this kind, or of these kinds separated by commas: ${ACTIVITY_KINDS.join(', ')}`,
    }),
  ),
  date_from: Type.Optional(DateFilter('Done at or after')),
  date_until: Type.Optional(DateFilter('Done up to')),
  credential_uid: Type.Optional(Uuid('Only entries about this credential')),
  job_uid: Type.Optional(Uuid('Only entries about this job')),
  ...pagination(['date'], 'id'),
});

export const CredentialQuerySchema = Type.Object({
  uid: Type.Optional(Uuid('Only this credential')),
  upload_date_from: Type.Optional(DateFilter('Created at or after')),
  upload_date_to: Type.Optional(DateFilter('Created up to')),
  ...TAG_FILTERS,
  ...pagination(['title', 'upload_date'], 'created_date'),
});

export const JobQuerySchema = Type.Object({
  uid: Type.Optional(Uuid('Jobs that contain this credential')),
  status: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...JOB_STATUSES] })),
  start_date_from: Type.Optional(DateFilter('Started at or after')),
  start_date_until: Type.Optional(DateFilter('Started up to')),
  issued_date_from: Type.Optional(DateFilter('Issued at or after')),
  issued_date_until: Type.Optional(DateFilter('Issued up to')),
  created_date_from: Type.Optional(DateFilter('Created at or after')),
  created_date_until: Type.Optional(DateFilter('Created up to')),
  ...TAG_FILTERS,
  ...pagination(JOB_SORT, 'created_date'),
});

export const JobCredentialsQuerySchema = Type.Object({ ...TAG_FILTERS, ...pagination(JOB_SORT, 'created_date') });

export const JobCertificatesQuerySchema = Type.Object({ ...TAG_FILTERS, ...pagination(CERTIFICATE_SORT, 'issued_date') });

export const CertificateQuerySchema = Type.Object({
  uid: Type.Optional(Uuid('Only this certificate')),
  job_uid: Type.Optional(Uuid('Certificates of this job')),
  credential_uid: Type.Optional(Uuid('Certificates of this credential')),
  issued_date_from: Type.Optional(DateFilter('Issued at or after')),
  issued_date_until: Type.Optional(DateFilter('Issued up to')),
  verification_status: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...VERIFICATION_STATUSES], description: 'Status of the latest verification' })),
  and_credential_tags: Type.Optional(TagFilter('Certificates whose credential carries all of these tags')),
  or_credential_tags: Type.Optional(TagFilter('Certificates whose credential carries at least one of these tags')),
  and_job_tags: Type.Optional(TagFilter('Certificates whose job carries all of these tags')),
  or_job_tags: Type.Optional(TagFilter('Certificates whose job carries at least one of these tags')),
  ...pagination(CERTIFICATE_SORT, 'issued_date'),
});

/** The query of the verification listings (by credential, by original file). */
export const VerificationQuerySchema = Type.Object(pagination(['issued_date'], 'issued_date'));

/**
 * The query of DELETE-a-tag. `tag` is required, but not declared so: the engine looks the
 * credential up first (an unknown one is `missing_credential` with or without a tag), and
 * answers a missing tag `invalid_value` after that.
 */
export const DeleteTagQuerySchema = Type.Object({ tag: Type.Optional(Type.String({ description: 'The tag to remove (required; without it the answer is `invalid_value`)' })) });
