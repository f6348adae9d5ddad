import type { ActivityEntry, ActivityQuery } from './activity.js';
import type { ServiceError } from './errors.js';
import type {
  Certificate,
  Credential,
  EngineInfo,
  FileRecord,
  Job,
  Page,
  RevokeResult,
  UnscheduleResult,
  VerificationResult,
} from './wire-types.js';
import type {
  CertificateQuery,
  CreateAndScheduleRequest,
  CreateCredentialBody,
  CredentialQuery,
  CredentialTagsBody,
  FileQuery,
  IssueNowBody,
  JobQuery,
  JobTagsBody,
  PageQuery,
  ScheduleBody,
  TagQuery,
  UploadFileRequest,
  UploadSource,
} from './requests.js';

/** One request's outcome in a batched call: its result, or the error that refused it alone. */
export type BatchOutcome<T> = { credential: T; error?: undefined } | { error: ServiceError; credential?: undefined };

/**
 * The Credential Issuing Service, one method per endpoint of the spec, scoped to one Partner.
 * Implemented in-process by the embedded engine and over HTTP by the remote client; both
 * throw `ServiceError` with the spec's id and status for every failure a caller can cause.
 */
export interface IssuingService {
  // Files
  /** POST /files */
  uploadFile(request: UploadFileRequest): Promise<FileRecord>;
  /** GET /files */
  listFiles(query?: FileQuery): Promise<Page<FileRecord>>;
  /** GET /files/<file_hash> */
  getFile(fileHash: string): Promise<FileRecord>;

  // Credentials
  /** POST /credentials */
  createCredential(body: CreateCredentialBody): Promise<Credential>;
  /** POST /credentials/schedule/<engine> */
  createAndScheduleCredential(engine: string, request: CreateAndScheduleRequest): Promise<Credential>;
  /**
   * Not an endpoint: many create-and-schedule requests at once, each all or nothing, one
   * outcome per request in order; `engine` null creates without scheduling (as uploadFile +
   * createCredential). Only the embedded engine has it (one write transaction for them all);
   * file intake (main/intake/) falls back to single requests without it.
   */
  createAndScheduleCredentials?(engine: string | null, requests: CreateAndScheduleRequest[]): Promise<BatchOutcome<Credential>[]>;
  /** GET /credentials */
  listCredentials(query?: CredentialQuery): Promise<Page<Credential>>;
  /** GET /credentials/<uid> */
  getCredential(uid: string): Promise<Credential>;
  /** PATCH /credentials: adds tags, keeps the old ones. All or nothing. */
  addCredentialTags(body: CredentialTagsBody): Promise<void>;
  /** PUT /credentials: replaces all tags. All or nothing. */
  replaceCredentialTags(body: CredentialTagsBody): Promise<void>;
  /** PATCH /credentials/<uid>/delete_tag?tag= */
  deleteCredentialTag(uid: string, tag: string): Promise<void>;
  /** POST /credentials/schedule */
  scheduleCredentials(body: ScheduleBody): Promise<Job>;
  /** DELETE /credentials/<uid>/unschedule/<engine> */
  unscheduleCredential(uid: string, engine: string): Promise<UnscheduleResult>;
  /** POST /credentials/<uid>/revoke/<engine> */
  revokeCredential(uid: string, engine: string): Promise<RevokeResult>;

  // Jobs
  /** GET /jobs */
  listJobs(query?: JobQuery): Promise<Page<Job>>;
  /** GET /jobs/<uid> */
  getJob(uid: string): Promise<Job>;
  /** PATCH /jobs */
  addJobTags(body: JobTagsBody): Promise<void>;
  /** PUT /jobs */
  replaceJobTags(body: JobTagsBody): Promise<void>;
  /** GET /jobs/<uid>/credentials */
  listJobCredentials(jobUid: string, query?: PageQuery & TagQuery): Promise<Page<Credential>>;
  /** GET /jobs/<uid>/certificates */
  listJobCertificates(jobUid: string, query?: PageQuery & TagQuery): Promise<Page<Certificate>>;
  /**
   * Not an endpoint: a job's issued certificates as credential uid → certificate uid (what
   * listJobCertificates tells, in one call). Only the embedded engine has it; the watched folder
   * and `issue` page through listJobCertificates without it.
   */
  jobCertificateUids?(jobUid: string): Promise<Map<string, string>>;
  /** POST /jobs/immediate (demo environment only) */
  issueJobNow(body: IssueNowBody): Promise<Job>;

  /**
   * GET /activity, an extension of the spec (docs/api.md): the Partner's activity log. Where a
   * service does not offer it, it is absent.
   */
  listActivity?(query?: ActivityQuery): Promise<Page<ActivityEntry>>;

  // Certificates
  /** GET /certificates */
  listCertificates(query?: CertificateQuery): Promise<Page<Certificate>>;
  /** GET /certificates/<uid>/download: the proof file's JSON text. */
  downloadCertificate(uid: string): Promise<string>;
  /**
   * GET /certificates/<uid>/download?format=vc: the certificate as a W3C Verifiable Credential
   * 2.0 (Open Badges 3.0), JSON text (docs/verifiable-credentials.md).
   */
  downloadCertificateVc(uid: string): Promise<string>;
  /**
   * Not an endpoint: the proof files of many certificates at once, one per uid in order (the
   * text downloadCertificate gives, or its error). Only the embedded engine has it (one query
   * for them all); the watched folder falls back to single downloads without it.
   */
  downloadCertificates?(uids: string[]): Promise<(string | ServiceError)[]>;
  /**
   * Not an endpoint: the Verifiable Credentials of many certificates at once, one per uid in
   * order (the text downloadCertificateVc gives, or its error), signed on worker threads. Only
   * the embedded engine has it; remote callers fall back to single downloads.
   */
  downloadCertificateVcs?(uids: string[]): Promise<(string | ServiceError)[]>;
  /** POST /certificates/<uid>/revoke */
  revokeCertificate(uid: string): Promise<RevokeResult>;

  // Verification
  /** GET /verify/<certificate_uid> */
  verifyCertificate(certificateUid: string): Promise<VerificationResult>;
  /** GET /verify/credential/<credential_uid> */
  verifyCredential(credentialUid: string, query?: PageQuery): Promise<Page<VerificationResult>>;
  /** POST /verify/upload/certificate */
  verifyProofFile(proof: UploadSource | undefined): Promise<VerificationResult>;
  /** POST /verify/upload/file */
  verifyOriginalFile(file: UploadSource | undefined, query?: PageQuery): Promise<Page<VerificationResult>>;

  // Engines (DESIGN.md: GET /engines lists them)
  /** GET /engines */
  listEngines(): Promise<EngineInfo[]>;
  /**
   * GET /engines/<engine>: the engine as listEngines has it; `wrong_blockchain_engine` (422)
   * with the reason when this service does not offer it (unknown, or `local` whose chain is
   * another data directory's).
   */
  getEngine(engine: string): Promise<EngineInfo>;
}
