/**
 * Verification of a W3C Verifiable Credential file, beside proof files. Proofdesk's own
 * credentials (with an anchor proof) get the six steps of a proof file: the proof file is
 * rebuilt from the anchor proof, the credential must be exactly the one derived from the
 * anchored certificate payload (step 1), and the issuer step also needs the Data Integrity
 * proof to hold. Other issuers' credentials (VC 2.0 or 1.1) secured with `eddsa-rdfc-2022`,
 * `eddsa-jcs-2022` or `Ed25519Signature2020` get the steps that apply (verify-foreign.ts).
 * Nothing is fetched: contexts and did:key come from the static loader (a credentialStatus's
 * status list only with the network on: status-check.ts).
 */
import { createHash } from 'node:crypto';
import * as vc from '@digitalbazaar/vc';
import { ServiceError } from '../../../common/errors.js';
import type { VerificationResult } from '../../../common/wire-types.js';
import { canonicalJson, leafOf } from '../proofs/certificate-payload.js';
import { verifySignature } from '../proofs/ed25519.js';
import { rootFromHexPath } from '../proofs/merkle-tree.js';
import { PROOF_FORMAT, type ProofFile } from '../proofs/proof-file.js';
import { verifyChecked, type VerifyOptions } from '../proofs/verify-proof.js';
import { validateProofFile } from '../proofs/verify-proof-shape.js';
import { looksLikeCredential, NEITHER_PROOF_NOR_CREDENTIAL } from './credential-kind.js';
import { ANCHOR_PROOF_TYPE, credentialOf, type AnchorProof } from './credential-vc.js';
import { publicKeyOfDidKey } from './did-key.js';
import { isKnownContext, loaderWith, staticDocumentLoader, UnknownDocumentError, VC_CONTEXT_V1, VC_CONTEXT_V2 } from './document-loader.js';
import { proofKindText, proofsOf, securingProofOf, SUPPORTED_SUITES_TEXT, verifierSuite, type ProofSuiteName } from './proof-suites.js';
import { foreignResult, validityOf } from './verify-foreign.js';
import { networkDocuments } from './did-web-resolve.js';
import { withCredentialStatus } from './status-check.js';
import { ownStatusEntry } from './status-entry.js';

// Proofdesk signs its own credentials with this cryptosuite only.
const ANCHORED_CRYPTOSUITE = 'eddsa-rdfc-2022';

function invalid(message: string): ServiceError {
  return new ServiceError('invalid_value', message);
}

/** The credential's proofs, after checking what can be checked without a signature. */
function shapeOf(value: unknown): { credential: Record<string, unknown>; secured: Record<string, unknown>; suite: ProofSuiteName; anchor: AnchorProof | undefined } {
  if (!looksLikeCredential(value)) throw invalid(NEITHER_PROOF_NOR_CREDENTIAL);
  const credential = value as Record<string, unknown>;
  const contexts = Array.isArray(credential['@context']) ? credential['@context'] : [credential['@context']];
  if (contexts[0] !== VC_CONTEXT_V2 && contexts[0] !== VC_CONTEXT_V1) {
    throw invalid(`This Verifiable Credential's first @context is ${JSON.stringify(contexts[0])}, neither VC 2.0 (${VC_CONTEXT_V2}) nor VC 1.1 (${VC_CONTEXT_V1})`);
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
  const proofs = proofsOf(credential);
  if (proofs.length === 0) throw invalid('This Verifiable Credential has no proof: it is not secured, so there is nothing to verify');
  if (!proofs.every((p) => typeof p === 'object' && p !== null && !Array.isArray(p))) throw invalid('This Verifiable Credential has a proof that is not a JSON object');
  const records = proofs as Record<string, unknown>[];
  const anchor = records.find((p) => p.type === ANCHOR_PROOF_TYPE) as AnchorProof | undefined;
  if (anchor) {
    // Proofdesk's own credential: its anchor proof goes with the eddsa-rdfc-2022 proof it signs beside.
    const secured = records.find((p) => p.type === 'DataIntegrityProof' && p.cryptosuite === ANCHORED_CRYPTOSUITE);
    if (contexts[0] !== VC_CONTEXT_V2) throw invalid(`This Verifiable Credential has a Proofdesk anchor proof but its first @context is not ${VC_CONTEXT_V2}`);
    if (!secured) throw invalid(`This Verifiable Credential has a Proofdesk anchor proof but is secured with ${records.filter((p) => p.type !== ANCHOR_PROOF_TYPE).map(proofKindText).join(', ') || 'nothing else'}; Proofdesk's own credentials carry a DataIntegrityProof with ${ANCHORED_CRYPTOSUITE}`);
    return { credential, secured, suite: ANCHORED_CRYPTOSUITE, anchor };
  }
  const found = securingProofOf(credential);
  if (!found) throw invalid(`This Verifiable Credential is secured with ${records.map(proofKindText).join(', ')}; Proofdesk verifies ${SUPPORTED_SUITES_TEXT}`);
  return { credential, secured: found.proof, suite: found.suite, anchor: undefined };
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
 * Whether the credential's signature holds (its first proof of a supported suite; Proofdesk's
 * own: the Data Integrity proof), checked by Digital Bazaar's verifier, its date checks left to
 * the expiry step. A key or context that cannot be had offline is not a failed signature: it is
 * refused with the URL named.
 */
export async function dataIntegrityHolds(credential: Record<string, unknown>, documents?: ReadonlyMap<string, Record<string, unknown>>): Promise<boolean> {
  const secured = securingProofOf(credential);
  if (!secured) return false;
  // The start of the validity period as "now": inside it, so only the signature decides.
  const { from } = validityOf(credential);
  const now = from ? { now: from } : {};
  try {
    vc._checkCredential({ credential, mode: 'verify', ...now });
  } catch (error) {
    // Not a failed signature: the credential breaks the data model (a missing property, a date that is not one).
    throw invalid(`This Verifiable Credential is malformed: ${(error as Error).message}`);
  }
  // Its status (a status list online) is the revocation step's to tell, never the signature's.
  const checkStatus = async () => ({ verified: true });
  const documentLoader = documents ? loaderWith(documents) : staticDocumentLoader;
  const result = await vc.verifyCredential({ credential, suite: verifierSuite(secured.suite), documentLoader, checkStatus, ...now });
  if (!result.verified) {
    const url = refusedUrl(result.error) ?? result.results?.map((r) => refusedUrl(r.error)).find((u) => u !== undefined);
    if (url !== undefined) throw invalid(`This Verifiable Credential needs ${JSON.stringify(url)}, which Proofdesk cannot resolve offline (it resolves did:key and the bundled contexts; a did:web is fetched only with the network on: verify --network)`);
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

/**
 * Verifies a parsed Verifiable Credential. Throws ServiceError('invalid_value') with a sentence
 * saying what is wrong when it cannot be verified here (unknown context, a proof of no supported
 * suite, no proof, a malformed anchor proof); every other outcome is in the result. The signature
 * (most of the cost: JSON-LD expansion and RDF canonicalization) is checked on this thread unless
 * options.checkDataIntegrity says otherwise.
 */
export async function verifyCredentialFile(value: unknown, options: VerifyOptions): Promise<VerificationResult> {
  const { credential, secured, suite, anchor } = shapeOf(value);
  // An issuer's did:web is fetched with the network on, and then checked here (not on a worker).
  const documents = await networkDocuments(secured.verificationMethod, options);
  const check = documents ? (c: Record<string, unknown>) => dataIntegrityHolds(c, documents) : (options.checkDataIntegrity ?? dataIntegrityHolds);
  const result = anchor ? await verifyAnchored(credential, secured, anchor, options, check) : await foreignResult(credential, secured, suite, await check(credential), options);
  return withCredentialStatus(credential, result, anchor !== undefined, options);
}
