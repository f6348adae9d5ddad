/**
 * The revocation step of a Verifiable Credential that names a Bitstring Status List
 * (`credentialStatus`): with the network on, its status list is fetched, its signature and
 * issuer checked (Digital Bazaar's status list library), and its bit read; with the network
 * off (the default) nothing is fetched and the step says so. For Proofdesk's own credentials
 * the chain's answer (the anchor proof) stays what the step reports unless the list says
 * revoked; for another issuer's, the list is the only answer there is.
 */
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import type { DocumentLoader } from '@digitalbazaar/vc';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import type { VerificationResult, VerificationStep } from '../../../common/wire-types.js';
import { resultStatus, type VerifyOptions } from '../proofs/verify-proof.js';
import { staticDocumentLoader } from './document-loader.js';

/** How long fetching a status list may take, and how large it may be. */
const FETCH_TIMEOUT_MS = 10_000;
const MAX_LIST_BYTES = 4 * 1024 * 1024;

/** What the revocation step says of a credentialStatus (its description's `credential_status`). */
export interface CredentialStatusDescription {
  status_list_credential: string;
  status_list_index: string;
  checked: boolean;
  /** Set when checked: whether the list's bit for this credential is set. */
  revoked?: boolean;
  reason?: string;
}

/** The BitstringStatusListEntry of a credential for revocation, if it names one. */
function revocationEntry(credential: Record<string, unknown>): { statusListCredential: string; statusListIndex: string } | undefined {
  const all = Array.isArray(credential.credentialStatus) ? credential.credentialStatus : [credential.credentialStatus];
  const entry = all.find((s): s is Record<string, unknown> => typeof s === 'object' && s !== null && s.type === 'BitstringStatusListEntry' && s.statusPurpose === 'revocation');
  if (!entry) return undefined;
  return { statusListCredential: String(entry.statusListCredential ?? ''), statusListIndex: String(entry.statusListIndex ?? '') };
}

class FetchError extends Error {}

/** The status list credential at `url`, fetched (http(s) only, bounded in time and size). */
async function fetchStatusList(url: string): Promise<unknown> {
  if (!/^https?:\/\//.test(url)) throw new FetchError(`${JSON.stringify(url)} is not an http(s) URL`);
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/vc, application/json' }, redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    throw new FetchError(`${url} did not answer (${(error as Error).message})`);
  }
  if (!response.ok) throw new FetchError(`${url} answered HTTP ${response.status}`);
  const body = await response.arrayBuffer();
  if (body.byteLength > MAX_LIST_BYTES) throw new FetchError(`${url} answered more than ${MAX_LIST_BYTES} bytes`);
  try {
    return JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    throw new FetchError(`${url} did not answer JSON`);
  }
}

type Outcome = { kind: 'revoked' | 'not_revoked' } | { kind: 'unreachable' | 'invalid'; reason: string };

/**
 * Fetches the list (once per verifying run: its credentials mostly share a few lists) and reads
 * the bit: Digital Bazaar's checkStatus verifies the list's proof and issuer.
 */
async function readStatus(credential: Record<string, unknown>, url: string, share: VerifyOptions['share']): Promise<Outcome> {
  let list: unknown;
  try {
    list = await (share ? share(`status-list ${url}`, () => fetchStatusList(url)) : fetchStatusList(url));
  } catch (error) {
    if (error instanceof FetchError) return { kind: 'unreachable', reason: `its status list could not be fetched: ${error.message}` };
    throw error;
  }
  const documentLoader: DocumentLoader = async (u) => (u === url ? { contextUrl: null, documentUrl: u, document: list } : staticDocumentLoader(u));
  const answer = await checkStatus({ credential, documentLoader, suite: new DataIntegrityProof({ cryptosuite }) });
  const result = answer.results?.[0];
  if (!answer.verified || !result) return { kind: 'invalid', reason: `its status list ${url} does not hold: ${answer.error?.message ?? 'no answer'}` };
  return { kind: result.status ? 'revoked' : 'not_revoked' };
}

function withRevocation(result: VerificationResult, step: VerificationStep): VerificationResult {
  const verification = { ...result.verification, revocation: step };
  return { verification, result: { ...result.result, status: resultStatus(verification) } };
}

/**
 * The verification result with the revocation step answered by the credential's status list as
 * well, when it names one and the steps before revocation let it run; unchanged otherwise.
 * The list is fetched only when `options.network` is true.
 */
export async function withCredentialStatus(credential: Record<string, unknown>, result: VerificationResult, anchored: boolean, options: Pick<VerifyOptions, 'network' | 'share'>): Promise<VerificationResult> {
  const entry = revocationEntry(credential);
  if (!entry) return result;
  const v = result.verification;
  // Proofdesk's own credential: the chain steps ran (revocation is started unless an earlier step
  // stopped the run). Another issuer's: revocation never starts; its offline steps decide.
  const reached = anchored ? v.revocation.status !== 'not_started' : [v.certificate, v.issuer, v.expiry].every((s) => s.status === 'passed') && v.file.status !== 'failed';
  if (!reached) return result;
  const status: CredentialStatusDescription = { status_list_credential: entry.statusListCredential, status_list_index: entry.statusListIndex, checked: false };
  const step = (s: VerificationStep['status'], extra: Record<string, unknown>): VerificationStep => ({ ...v.revocation, status: s, description: { ...v.revocation.description, ...extra, credential_status: status } });
  if (options.network !== true) {
    status.reason = `not checked: checking it fetches ${entry.statusListCredential}, and the network is off (verify --network turns it on)`;
    return withRevocation(result, anchored ? step(v.revocation.status, {}) : step('not_started', { reason: `its credentialStatus was ${status.reason}` }));
  }
  const outcome = await readStatus(credential, entry.statusListCredential, options.share);
  if (outcome.kind === 'unreachable') {
    status.reason = outcome.reason;
    // Another issuer's credential has no other answer: pending until the list can be had.
    return withRevocation(result, anchored ? step(v.revocation.status, {}) : step('pending', { reason: outcome.reason }));
  }
  if (outcome.kind === 'invalid') {
    status.reason = outcome.reason;
    return withRevocation(result, step('error', { reason: outcome.reason }));
  }
  status.checked = true;
  status.revoked = outcome.kind === 'revoked';
  if (status.revoked) return withRevocation(result, step('failed', { is_revoked: true }));
  return withRevocation(result, anchored ? step(v.revocation.status, {}) : step('passed', { is_revoked: false, reason: undefined }));
}
