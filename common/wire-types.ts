/**
 * The Credential Issuing Service's resources exactly as they travel on the wire
 * (snake_case, dates as ISO 8601 strings with offset). Every bundle shares these shapes.
 */

/** A Partner: the tenant every resource is scoped to. */
export interface Partner {
  id: string;
  name: string;
}

/** A file uploaded by a Partner. `file_hash` is SHA-256, lowercase hex (DESIGN.md). */
export interface FileRecord {
  file_hash: string;
  file_type?: string;
}

/** A fingerprint of files plus Partner-supplied data; linked credentials nest recursively. */
export interface Credential {
  uid: string;
  title: string;
  metadata: Record<string, unknown>;
  files: FileRecord[];
  credentials: Credential[];
  upload_date: string;
  tags: string[];
  expiry_date: string | null;
}

/** Job statuses fixed by DESIGN.md where the spec is silent. */
export const JOB_STATUSES = ['scheduled', 'started', 'unconfirmed', 'finished', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job: one blockchain transaction bundling a Partner's scheduled credentials for one engine. */
export interface Job {
  uid: string;
  partner: Partner;
  chain: string;
  tags: string[];
  status: JobStatus;
  created_date: string;
  start_date: string | null;
  issued_date: string | null;
  finished_date: string | null;
  failed_date: string | null;
  scheduled_date: string | null;
  /** Proofdesk extension (docs/api.md): why it is not moving now, e.g. waiting for funds or for fees below the cap. */
  waiting?: string | null;
  /** Proofdesk extension: why a failed job failed. */
  failure_reason?: string | null;
  /** Proofdesk extension: its anchoring transaction, once signed. */
  transaction?: JobTransaction | null;
}

/** A job's anchoring transaction as it stands (the current variant, or the one that was mined). */
export interface JobTransaction {
  hash: string;
  /** Explorer link, when the engine has one configured. */
  explorer_url: string | null;
  /** When it was first signed and sent, while not mined yet; null once mined. */
  pending_since: string | null;
  /** Max fee per gas, in gwei (the gas price of a legacy transaction); null when not recorded. */
  max_fee_gwei: string | null;
  /** Priority fee per gas (tip), in gwei; null for a legacy transaction. */
  tip_gwei: string | null;
  /** How many variants were signed for its nonce (more than 1 once it was replaced with higher fees). */
  variants: number;
}

/** Verification result statuses fixed by DESIGN.md. */
export const VERIFICATION_STATUSES = ['ok', 'pending', 'expired', 'revoked', 'failed', 'error'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** Step statuses fixed by DESIGN.md. */
export const STEP_STATUSES = ['not_started', 'passed', 'pending', 'failed', 'error'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** A certificate: one issued credential on one engine. */
export interface Certificate {
  certificate: {
    uid: string;
    partner: Partner;
    credential: Credential;
    issued_date: string;
    signature: string;
  };
  revoked_date: string | null;
  last_verification: { status: VerificationStatus; timestamp: string } | null;
}

/** One step of a verification run. */
export interface VerificationStep<D = Record<string, unknown>> {
  name: string;
  description: D;
  status: StepStatus;
}

/** The six steps, in the spec's order. */
export const VERIFICATION_STEP_KEYS = ['certificate', 'blockchain', 'issuer', 'file', 'expiry', 'revocation'] as const;
export type VerificationStepKey = (typeof VERIFICATION_STEP_KEYS)[number];

/** The result of verifying one certificate. */
export interface VerificationResult {
  verification: Record<VerificationStepKey, VerificationStep>;
  result: { status: VerificationStatus; timestamp: string };
}

/** A blockchain engine a Partner can issue on. `local` is the embedded dev chain. */
export interface EngineInfo {
  id: string;
  chain_id: number | null;
  environment: 'live' | 'demo';
  confirmations: number;
}

/** The paginated object every bulk retrieval returns. */
export interface Page<T> {
  page: number;
  total_pages: number;
  per_page: number;
  total_items: number;
  items: T[];
}

/** The `meta` object of every response envelope. */
export interface ResponseMeta {
  last_update: string;
  date: string;
  message: string;
  version: string;
  documentation: string;
}

/** Response of unscheduling a credential (DESIGN.md's decision). */
export interface UnscheduleResult {
  credential_uid: string;
  engine: string;
  credential_deleted: boolean;
}

/** Response of both revoke endpoints (DESIGN.md's decision). */
export interface RevokeResult {
  revoked_date: string;
}
