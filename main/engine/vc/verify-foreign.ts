/**
 * Another issuer's Verifiable Credential (no Proofdesk anchor proof): the steps its proof and
 * dates can answer. The signature (by the suite its proof names) decides certificate integrity
 * and issuer authenticity; expiry reads `validUntil` (VC 2.0) or `expirationDate` (VC 1.1) and
 * the validity start `validFrom` or `issuanceDate`; file integrity compares an original file with
 * the `relatedResource` digests. The steps only Proofdesk's anchor answers say in one sentence why
 * they do not apply.
 */
import type { StepStatus, VerificationResult, VerificationStep, VerificationStepKey } from '../../../common/wire-types.js';
import { resultStatus, VERIFICATION_STEP_NAMES, type VerifyOptions } from '../proofs/verify-proof.js';
import { credentialFileHashes } from './credential-kind.js';
import type { ProofSuiteName } from './proof-suites.js';

/** Why the chain steps do not apply to a credential Proofdesk did not anchor. */
export const NOT_ANCHORED_REASON = 'Not anchored by Proofdesk: this credential has no anchor proof, so there is no chain to check it on';
const NO_ON_CHAIN_REVOCATION = 'Not revocable on a Proofdesk chain: this credential has no anchor proof, so no registry records its revocation';

function step(key: VerificationStepKey, status: StepStatus, description: Record<string, unknown>): VerificationStep {
  return { name: VERIFICATION_STEP_NAMES[key], description, status };
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The credential's validity period as it states it: VC 2.0's names, else VC 1.1's. */
export function validityOf(credential: Record<string, unknown>): { from: string | null; until: string | null } {
  return { from: text(credential.validFrom) ?? text(credential.issuanceDate), until: text(credential.validUntil) ?? text(credential.expirationDate) };
}

function issuerOf(credential: Record<string, unknown>): { id: string; name: string } {
  const issuer = credential.issuer;
  if (typeof issuer === 'string') return { id: issuer, name: issuer };
  const record = (typeof issuer === 'object' && issuer !== null ? issuer : {}) as { id?: unknown; name?: unknown };
  const id = text(record.id) ?? '';
  return { id, name: text(record.name) ?? id };
}

/** The file step: an original compared with the credential's digests, or why there is nothing to compare. */
function fileStep(credential: Record<string, unknown>, holds: boolean, original: string | undefined): VerificationStep {
  const fileHashes = credentialFileHashes(credential);
  const description = { hash_function: 'SHA-256', expected_file_hash: fileHashes.length > 0 ? fileHashes.join(',') : null, actual_file_hash: original ?? null };
  if (!holds) return step('file', 'not_started', description);
  if (fileHashes.length === 0) return step('file', 'not_started', { ...description, reason: 'No file to check: this credential names no file digest (relatedResource with a sha256 digestSRI)' });
  if (original === undefined) return step('file', 'not_started', { ...description, reason: 'No file to check: no original file was given with this credential (one whose SHA-256 is a relatedResource digest)' });
  return step('file', fileHashes.includes(original) ? 'passed' : 'failed', description);
}

/** The expiry step: the validity period against now, with the sentence saying which end it is outside. */
function expiryStep(credential: Record<string, unknown>, holds: boolean, now: Date): VerificationStep {
  const { from, until } = validityOf(credential);
  const description = { issued_date: from, expiry_date: until };
  if (!holds) return step('expiry', 'not_started', description);
  if (until !== null && !(new Date(until).getTime() > now.getTime())) return step('expiry', 'failed', { ...description, reason: `Expired: this credential was valid until ${until}` });
  if (from !== null && new Date(from).getTime() > now.getTime()) return step('expiry', 'failed', { ...description, reason: `Not valid yet: this credential is valid from ${from}` });
  return step('expiry', 'passed', description);
}

/**
 * What a result whose applicable steps all passed says of the steps that did not apply (another
 * issuer's credential): "Passed where they apply." and each one's reason; empty when every step ran.
 */
export function notApplicableSummary(result: VerificationResult): string {
  const reasons = Object.values(result.verification).flatMap((s) => (s.status === 'not_started' && typeof s.description.reason === 'string' ? [s.description.reason] : []));
  return reasons.length > 0 ? `Passed where they apply. ${reasons.map((r) => `${r}.`).join(' ')}` : '';
}

/**
 * The six steps of another issuer's credential whose signature (suite `suite`, proof `proof`)
 * `holds` or not: what applies is checked, what does not says why.
 */
export function foreignResult(credential: Record<string, unknown>, proof: Record<string, unknown>, suite: ProofSuiteName, holds: boolean, options: VerifyOptions): VerificationResult {
  const now = (options.now ?? (() => new Date()))();
  const issuer = issuerOf(credential);
  const verification: Record<VerificationStepKey, VerificationStep> = {
    certificate: step('certificate', holds ? 'passed' : 'failed', {
      cryptosuite: suite,
      checked_by: suite === 'Ed25519Signature2020' ? 'the Ed25519Signature2020 proof' : 'the Data Integrity proof',
      ...(holds ? {} : { reason: `The credential was changed after it was signed, or not signed by its issuer: its ${suite} proof does not hold` }),
    }),
    blockchain: step('blockchain', 'not_started', { reason: NOT_ANCHORED_REASON }),
    issuer: step('issuer', holds ? 'passed' : 'not_started', { issuer_name: issuer.name, issuer_id: issuer.id, verification_method: String(proof.verificationMethod ?? '') }),
    file: fileStep(credential, holds, options.originalFileHash?.toLowerCase()),
    expiry: expiryStep(credential, holds, now),
    revocation: step('revocation', 'not_started', { reason: credential.credentialStatus === undefined ? NO_ON_CHAIN_REVOCATION : `${NO_ON_CHAIN_REVOCATION} (its credentialStatus, a status list online, is not fetched)` }),
  };
  return { verification, result: { status: resultStatus(verification), timestamp: now.toISOString() } };
}
