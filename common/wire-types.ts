/**
 * The Credential Issuing Service's resources exactly as they travel on the wire
 * (snake_case, dates as ISO 8601 strings with offset). Every bundle shares these shapes; the
 * resources are derived from their schemas (common/schemas/resources.ts), so the type, the
 * validation and the OpenAPI document cannot drift apart.
 */
import type { Static } from '@sinclair/typebox';
import type {
  CertificateSchema,
  CredentialSchema,
  EngineInfoSchema,
  FileSchema,
  JobSchema,
  JobTransactionSchema,
  MetaSchema,
  PartnerSchema,
  RevokeResultSchema,
  UnscheduleResultSchema,
} from './schemas/resources.js';

/** A Partner: the tenant every resource is scoped to. */
export type Partner = Static<typeof PartnerSchema>;

/** A file uploaded by a Partner. `file_hash` is SHA-256, lowercase hex (DESIGN.md). */
export type FileRecord = Static<typeof FileSchema>;

/** A fingerprint of files plus Partner-supplied data; linked credentials nest recursively. */
export type Credential = Static<typeof CredentialSchema>;

/** Job statuses fixed by DESIGN.md where the spec is silent. */
export const JOB_STATUSES = ['scheduled', 'started', 'unconfirmed', 'finished', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job: one blockchain transaction bundling a Partner's scheduled credentials for one engine. */
export type Job = Static<typeof JobSchema>;

/** A job's anchoring transaction as it stands (the current variant, or the one that was mined). */
export type JobTransaction = Static<typeof JobTransactionSchema>;

/** Verification result statuses fixed by DESIGN.md. */
export const VERIFICATION_STATUSES = ['ok', 'pending', 'expired', 'revoked', 'failed', 'error'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** Step statuses fixed by DESIGN.md. */
export const STEP_STATUSES = ['not_started', 'passed', 'pending', 'failed', 'error'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** A certificate: one issued credential on one engine. */
export type Certificate = Static<typeof CertificateSchema>;

/** One step of a verification run. */
export interface VerificationStep<D = Record<string, unknown>> {
  name: string;
  description: D;
  status: StepStatus;
}

/** The six steps, in the spec's order. */
export const VERIFICATION_STEP_KEYS = ['certificate', 'blockchain', 'issuer', 'file', 'expiry', 'revocation'] as const;
export type VerificationStepKey = (typeof VERIFICATION_STEP_KEYS)[number];

/** The spec's step names, as a result carries them. */
export const VERIFICATION_STEP_NAMES: Readonly<Record<VerificationStepKey, string>> = {
  certificate: 'Checking certificate integrity',
  blockchain: 'Checking certificate is anchored to the blockchain',
  issuer: 'Checking issuer authenticity',
  file: 'Checking file integrity',
  expiry: 'Checking expiry date',
  revocation: 'Checking revocation date',
};

/** The result of verifying one certificate. */
export interface VerificationResult {
  verification: Record<VerificationStepKey, VerificationStep>;
  result: { status: VerificationStatus; timestamp: string };
}

/** A blockchain engine a Partner can issue on. `local` is the embedded dev chain. */
export type EngineInfo = Static<typeof EngineInfoSchema>;

/** The paginated object every bulk retrieval returns. */
export interface Page<T> {
  page: number;
  total_pages: number;
  per_page: number;
  total_items: number;
  items: T[];
}

/** The `meta` object of every response envelope. */
export type ResponseMeta = Static<typeof MetaSchema>;

/** Response of unscheduling a credential (DESIGN.md's decision). */
export type UnscheduleResult = Static<typeof UnscheduleResultSchema>;

/** A certificate's file as the REST download names it (and `certificate download` writes it): the uid's own characters only. */
export function certificateFileName(uid: string, kind: 'proof' | 'vc'): string {
  return `${uid.replace(/[^A-Za-z0-9-]/g, '').slice(0, 64) || 'certificate'}.${kind}.json`;
}

/** Response of both revoke endpoints (DESIGN.md's decision). */
export type RevokeResult = Static<typeof RevokeResultSchema>;
