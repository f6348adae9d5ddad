/**
 * Verification of a W3C Verifiable Credential file, beside proof files. Proofdesk's own
 * credentials (with an anchor proof) get the six steps of a proof file: the proof file is
 * rebuilt from the anchor proof, the credential must be exactly the one derived from the
 * anchored certificate payload (step 1), and the issuer step also needs the Data Integrity
 * proof to hold. Other issuers' credentials secured with `eddsa-rdfc-2022` get the steps that
 * apply (integrity and issuer by the Data Integrity proof, expiry by `validUntil`); the others
 * say why they do not apply. Nothing is fetched: contexts and did:key come from the static loader
 * (a credentialStatus's status list only with the network on: status-check.ts).
 */
import { createHash } from 'node:crypto';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { ServiceError } from '../../../common/errors.js';
import { type StepStatus, type VerificationResult, type VerificationStep, type VerificationStepKey } from '../../../common/wire-types.js';
import { canonicalJson, leafOf } from '../proofs/certificate-payload.js';
import { verifySignature } from '../proofs/ed25519.js';
import { rootFromHexPath } from '../proofs/merkle-tree.js';
import { PROOF_FORMAT, type ProofFile } from '../proofs/proof-file.js';
import { resultStatus, verifyChecked, VERIFICATION_STEP_NAMES, type VerifyOptions } from '../proofs/verify-proof.js';
import { validateProofFile } from '../proofs/verify-proof-shape.js';
import { credentialFileHashes, looksLikeCredential } from './credential-kind.js';
import { ANCHOR_PROOF_TYPE, credentialOf, type AnchorProof } from './credential-vc.js';
import { publicKeyOfDidKey } from './did-key.js';
import { isKnownContext, staticDocumentLoader, UnknownDocumentError, VC_CONTEXT_V2 } from './document-loader.js';
import { withCredentialStatus } from './status-check.js';
import { ownStatusEntry } from './status-entry.js';

const SUPPORTED_CRYPTOSUITE = 'eddsa-rdfc-2022';

function invalid(message: string): ServiceError {
  return new ServiceError('invalid_value', message);
}

/** The credential's proofs, after checking what can be checked without a signature. */
function shapeOf(value: unknown): { credential: Record<string, unknown>; dataIntegrity: Record<string, unknown>; anchor: AnchorProof | undefined } {
  if (!looksLikeCredential(value)) throw invalid('This file is neither a Proofdesk proof file nor a Verifiable Credential');
  const credential = value as Record<string, unknown>;
  const contexts = Array.isArray(credential['@context']) ? credential['@context'] : [credential['@context']];
  if (contexts[0] !== VC_CONTEXT_V2) {
    throw invalid(`This Verifiable Credential's first @context is ${JSON.stringify(contexts[0])}, not ${VC_CONTEXT_V2}: only VC 2.0 credentials are verified`);
  }
  for (const context of contexts) {
    if (typeof context === 'string' && !isKnownContext(context)) {
      throw invalid(`This Verifiable Credential uses the JSON-LD context ${JSON.stringify(context)}, which is not bundled with Proofdesk (nothing is fetched from the network)`);
    }
    if (typeof context !== 'string' && (typeof context !== 'object' || context === null || Array.isArray(context))) {
      throw invalid('This Verifiable Credential has an @context entry that is neither a URL nor an object');
    }
  }
  const types = Array.isArray(credential.type) ? credential.type : [credential.type];
  if (!types.includes('VerifiableCredential')) throw invalid('This file has a JSON-LD @context but its type is not VerifiableCredential');
  const proofs = (Array.isArray(credential.proof) ? credential.proof : [credential.proof]).filter((p) => p !== undefined);
  if (proofs.length === 0) throw invalid('This Verifiable Credential has no proof: it is not secured, so there is nothing to verify');
  if (!proofs.every((p) => typeof p === 'object' && p !== null && !Array.isArray(p))) throw invalid('This Verifiable Credential has a proof that is not a JSON object');
  const records = proofs as Record<string, unknown>[];
  const dataIntegrity = records.find((p) => p.type === 'DataIntegrityProof' && p.cryptosuite === SUPPORTED_CRYPTOSUITE);
  if (!dataIntegrity) {
    const named = records.filter((p) => p.type !== ANCHOR_PROOF_TYPE).map((p) => (p.type === 'DataIntegrityProof' ? `DataIntegrityProof with cryptosuite ${JSON.stringify(p.cryptosuite)}` : JSON.stringify(p.type)));
    throw invalid(`This Verifiable Credential is secured with ${named.join(', ') || 'no Data Integrity proof'}; Proofdesk verifies DataIntegrityProof with ${SUPPORTED_CRYPTOSUITE}`);
  }
  const anchor = records.find((p) => p.type === ANCHOR_PROOF_TYPE) as AnchorProof | undefined;
  return { credential, dataIntegrity, anchor };
}

/** The URL the static loader refused somewhere in a verifier's error, if that is why it failed. */
function refusedUrl(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 8) return undefined;
  if (error instanceof UnknownDocumentError) return error.url;
  const e = error as { errors?: unknown[]; cause?: unknown; details?: { cause?: unknown } };
  for (const inner of [...(Array.isArray(e.errors) ? e.errors : []), e.cause, e.details?.cause]) {
    const url = refusedUrl(inner, depth + 1);
    if (url !== undefined) return url;
  }
  return undefined;
}

/**
 * Whether the Data Integrity proof holds, checked by Digital Bazaar's verifier (its expiry
 * check left to the expiry step). A key or context that cannot be had offline is not a
 * failed signature: it is refused with the URL named.
 */
export async function dataIntegrityHolds(credential: Record<string, unknown>): Promise<boolean> {
  const validFrom = typeof credential.validFrom === 'string' ? credential.validFrom : undefined;
  // The credentialStatus is the revocation step's (status-check.ts): nothing is fetched here.
  const checkStatus = async () => ({ verified: true });
  const result = await vc.verifyCredential({ credential, suite: new DataIntegrityProof({ cryptosuite }), documentLoader: staticDocumentLoader, checkStatus, ...(validFrom ? { now: validFrom } : {}) });
  if (!result.verified) {
    const url = refusedUrl(result.error) ?? result.results?.map((r) => refusedUrl(r.error)).find((u) => u !== undefined);
    if (url !== undefined) throw invalid(`This Verifiable Credential needs ${JSON.stringify(url)}, which Proofdesk cannot resolve offline (it resolves did:key and the bundled contexts, and fetches nothing from the network)`);
  }
  return result.verified;
}

/** The proof file an anchor proof stands for (issued date: the credential's validFrom). */
function proofFileOf(anchor: AnchorProof, validFrom: unknown): ProofFile {
  const chainId = /^eip155:(\d{1,15})$/.exec(String(anchor.chain))?.[1];
  const publicKey = typeof anchor.verificationMethod === 'string' ? publicKeyOfDidKey(anchor.verificationMethod) : undefined;
  if (chainId === undefined) throw invalid(`The anchor proof's chain ${JSON.stringify(anchor.chain)} is not a CAIP-2 EVM chain (eip155:<chain id>)`);
  if (publicKey === undefined) throw invalid("The anchor proof's verificationMethod is not an Ed25519 did:key");
  const candidate = {
    format: PROOF_FORMAT,
    certificate: anchor.certificate,
    issued_date: validFrom,
    hash_function: anchor.hashFunction,
    leaf: anchor.leaf,
    merkle_path: anchor.merklePath,
    root: anchor.merkleRoot,
    chain: {
      engine: anchor.engine,
      chain_id: Number(chainId),
      transaction_id: anchor.transaction,
      registry_address: anchor.registry,
      explorer_tx_url: null,
      ...(anchor.genesisHash !== undefined ? { genesis_hash: anchor.genesisHash } : {}),
      ...(anchor.installationId !== undefined ? { installation_id: anchor.installationId } : {}),
    },
    issuer: { public_key: publicKey, signature_scheme: 'Ed25519', signature: anchor.leafSignature },
  };
  try {
    return validateProofFile(candidate);
  } catch (error) {
    throw invalid(`The anchor proof of this Verifiable Credential is malformed: ${(error as Error).message}`);
  }
}

function withoutProof(credential: Record<string, unknown>): Record<string, unknown> {
  const { proof: _proof, ...rest } = credential;
  return rest;
}

type DataIntegrityCheck = (credential: Record<string, unknown>) => Promise<boolean>;

/** Proofdesk's own credential: the six steps of the proof file its anchor proof carries. */
async function verifyAnchored(credential: Record<string, unknown>, dataIntegrity: Record<string, unknown>, anchor: AnchorProof, options: VerifyOptions, holds: DataIntegrityCheck): Promise<VerificationResult> {
  const p = proofFileOf(anchor, credential.validFrom);
  const check = options.checkSignature ?? verifySignature;
  const body = canonicalJson(withoutProof(credential));
  return verifyChecked(
    p,
    {
      // The credential must be exactly the one derived from the anchored payload: then its
      // hash is the leaf's. Otherwise the step shows the hash of the credential as it is.
      leaf: () => (body === canonicalJson(credentialOf(p.certificate, p.issued_date, p.issuer.public_key, ownStatusEntry(credential.credentialStatus))) ? leafOf(p.certificate).toString('hex') : createHash('sha256').update(body).digest('hex')),
      certificateRoot: () => rootFromHexPath(p.leaf, p.merkle_path),
      signature: async () =>
        dataIntegrity.verificationMethod === anchor.verificationMethod &&
        (await check(p.issuer.public_key, Buffer.from(p.leaf, 'hex'), Buffer.from(p.issuer.signature, 'hex'))) &&
        (await holds(credential)),
    },
    options,
  );
}

function step(key: VerificationStepKey, status: StepStatus, description: Record<string, unknown>): VerificationStep {
  return { name: VERIFICATION_STEP_NAMES[key], description, status };
}

/** Another issuer's credential: the steps its Data Integrity proof and dates can answer. */
async function verifyForeign(credential: Record<string, unknown>, dataIntegrity: Record<string, unknown>, options: VerifyOptions, check: DataIntegrityCheck): Promise<VerificationResult> {
  const now = (options.now ?? (() => new Date()))();
  const holds = await check(credential);
  const issuer = credential.issuer;
  const issuerId = typeof issuer === 'string' ? issuer : String((issuer as { id?: unknown } | null)?.id ?? '');
  const issuerName = typeof issuer === 'object' && issuer !== null && typeof (issuer as { name?: unknown }).name === 'string' ? (issuer as { name: string }).name : issuerId;
  const validUntil = typeof credential.validUntil === 'string' ? credential.validUntil : null;
  const expired = validUntil !== null && !(new Date(validUntil).getTime() > now.getTime());
  const original = options.originalFileHash?.toLowerCase();
  const fileHashes = credentialFileHashes(credential);
  const notAnchored = 'this credential has no Proofdesk anchor proof: it is not anchored on a chain this verifier can check';
  const verification: Record<VerificationStepKey, VerificationStep> = {
    certificate: step('certificate', holds ? 'passed' : 'failed', { cryptosuite: SUPPORTED_CRYPTOSUITE, checked_by: 'the Data Integrity proof' }),
    blockchain: step('blockchain', 'not_started', { reason: notAnchored }),
    issuer: step('issuer', holds ? 'passed' : 'not_started', { issuer_name: issuerName, issuer_id: issuerId, verification_method: String(dataIntegrity.verificationMethod ?? '') }),
    file: step('file', holds ? (original === undefined || fileHashes.includes(original) ? 'passed' : 'failed') : 'not_started', {
      hash_function: 'SHA-256',
      expected_file_hash: fileHashes.length > 0 ? fileHashes.join(',') : null,
      actual_file_hash: original ?? null,
    }),
    expiry: step('expiry', holds ? (expired ? 'failed' : 'passed') : 'not_started', { issued_date: credential.validFrom ?? null, expiry_date: validUntil }),
    revocation: step('revocation', 'not_started', { reason: `${notAnchored}, and its credentialStatus (if any) is not read` }),
  };
  return { verification, result: { status: resultStatus(verification), timestamp: now.toISOString() } };
}

/**
 * Verifies a parsed Verifiable Credential. Throws ServiceError('invalid_value') with a sentence
 * saying what is wrong when it is not a VC 2.0 credential secured with eddsa-rdfc-2022 (unknown
 * context, unknown cryptosuite, no proof, a malformed anchor proof); every other outcome is in
 * the result. The Data Integrity proof (most of the cost: JSON-LD expansion and RDF
 * canonicalization) is checked on this thread unless options.checkDataIntegrity says otherwise.
 */
export async function verifyCredentialFile(value: unknown, options: VerifyOptions): Promise<VerificationResult> {
  const { credential, dataIntegrity, anchor } = shapeOf(value);
  const check = options.checkDataIntegrity ?? dataIntegrityHolds;
  const result = anchor ? await verifyAnchored(credential, dataIntegrity, anchor, options, check) : await verifyForeign(credential, dataIntegrity, options, check);
  return withCredentialStatus(credential, result, anchor !== undefined, options);
}
