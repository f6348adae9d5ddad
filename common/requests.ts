/**
 * Request shapes of the IssuingService: bodies and query parameters as the spec names them.
 * The JSON bodies are derived from their schemas (common/schemas/requests.ts). Query values are
 * kept as the wire carries them (strings, or numbers from typed callers): parsing and rejecting
 * them is the service's job, so every implementation fails alike.
 */
import type { Static } from '@sinclair/typebox';
import type { CreateCredentialBodySchema, CredentialDetailsSchema, CredentialTagsBodySchema, IssueNowBodySchema, JobTagsBodySchema, ScheduleBodySchema } from './schemas/requests.js';

/** A tag filter value: the wire's comma-separated list, or an array of tags. */
export type TagList = string | string[];

/** Pagination parameters common to every bulk retrieval. */
export interface PageQuery {
  sort_by?: string;
  order?: string;
  per_page?: number | string;
  page?: number | string;
}

/** Tag filters of retrieval endpoints. */
export interface TagQuery {
  and_tags?: TagList;
  or_tags?: TagList;
}

export interface FileQuery extends PageQuery {
  file_hash?: string;
}

export interface CredentialQuery extends PageQuery, TagQuery {
  uid?: string;
  upload_date_from?: string;
  upload_date_to?: string;
}

export interface JobQuery extends PageQuery, TagQuery {
  /** A credential uid: jobs that contain it. */
  uid?: string;
  status?: string;
  start_date_from?: string;
  start_date_until?: string;
  issued_date_from?: string;
  issued_date_until?: string;
  created_date_from?: string;
  created_date_until?: string;
}

export interface CertificateQuery extends PageQuery {
  uid?: string;
  job_uid?: string;
  credential_uid?: string;
  issued_date_from?: string;
  issued_date_until?: string;
  verification_status?: string;
  and_credential_tags?: TagList;
  or_credential_tags?: TagList;
  and_job_tags?: TagList;
  or_job_tags?: TagList;
}

/** Body of POST /credentials. */
export type CreateCredentialBody = Static<typeof CreateCredentialBodySchema>;

/** The `credential_details` form field of POST /credentials/schedule/<engine>. */
export type CredentialDetails = Static<typeof CredentialDetailsSchema>;

/**
 * Where uploaded bytes come from. A path is read (and, remotely, streamed) from disk;
 * `data` is for bytes the caller already holds or streams. Env-free on purpose.
 */
export type UploadSource =
  | { path: string; name?: string }
  | { data: Uint8Array | AsyncIterable<Uint8Array>; name?: string };

export interface UploadFileRequest {
  file?: UploadSource;
  ignore_duplicated?: boolean | string;
}

export interface CreateAndScheduleRequest {
  file?: UploadSource;
  /** An object, or the JSON text the multipart form field carries. */
  credential_details?: CredentialDetails | string;
}

/** Body of PATCH / PUT /credentials. */
export type CredentialTagsBody = Static<typeof CredentialTagsBodySchema>;

/** Body of PATCH / PUT /jobs. */
export type JobTagsBody = Static<typeof JobTagsBodySchema>;

/** Body of POST /credentials/schedule. */
export type ScheduleBody = Static<typeof ScheduleBodySchema>;

/** Body of POST /jobs/immediate. */
export type IssueNowBody = Static<typeof IssueNowBodySchema>;
