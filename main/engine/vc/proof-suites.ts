/**
 * The proof suites Proofdesk verifies credentials with: Data Integrity with `eddsa-rdfc-2022`
 * (Proofdesk's own and Open Badges 3.0's) or `eddsa-jcs-2022`, and the older
 * `Ed25519Signature2020` of VC 1.1 wallets and issuers. Each is checked by Digital Bazaar's
 * implementation of it.
 */
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { Ed25519Signature2020 } from '@digitalbazaar/ed25519-signature-2020';
import { createVerifyCryptosuite } from '@digitalbazaar/eddsa-jcs-2022-cryptosuite';
import { cryptosuite as rdfcCryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';

/** The name of a suite Proofdesk verifies: a Data Integrity cryptosuite, or a proof type. */
export type ProofSuiteName = 'eddsa-rdfc-2022' | 'eddsa-jcs-2022' | 'Ed25519Signature2020';

/** What the messages name as verifiable, in one phrase. */
export const SUPPORTED_SUITES_TEXT = 'DataIntegrityProof with eddsa-rdfc-2022 or eddsa-jcs-2022, or Ed25519Signature2020';

/** The suite a proof is secured with, when Proofdesk verifies it. */
export function suiteNameOf(proof: Record<string, unknown>): ProofSuiteName | undefined {
  if (proof.type === 'DataIntegrityProof' && (proof.cryptosuite === 'eddsa-rdfc-2022' || proof.cryptosuite === 'eddsa-jcs-2022')) return proof.cryptosuite;
  if (proof.type === 'Ed25519Signature2020') return 'Ed25519Signature2020';
  return undefined;
}

/** A proof in words, for a message naming what a credential is secured with. */
export function proofKindText(proof: Record<string, unknown>): string {
  return proof.type === 'DataIntegrityProof' ? `DataIntegrityProof with cryptosuite ${JSON.stringify(proof.cryptosuite)}` : JSON.stringify(proof.type);
}

/** The credential's proofs as objects (a single proof or a set); empty when it has none. */
export function proofsOf(credential: Record<string, unknown>): unknown[] {
  return (Array.isArray(credential.proof) ? credential.proof : [credential.proof]).filter((p) => p !== undefined);
}

/** The first proof of a credential that a supported suite secures, with the suite's name. */
export function securingProofOf(credential: Record<string, unknown>): { proof: Record<string, unknown>; suite: ProofSuiteName } | undefined {
  for (const proof of proofsOf(credential)) {
    if (typeof proof !== 'object' || proof === null || Array.isArray(proof)) continue;
    const suite = suiteNameOf(proof as Record<string, unknown>);
    if (suite) return { proof: proof as Record<string, unknown>, suite };
  }
  return undefined;
}

/** A verifying suite object for `@digitalbazaar/vc`'s verifyCredential. */
export function verifierSuite(name: ProofSuiteName): unknown {
  switch (name) {
    case 'eddsa-rdfc-2022':
      return new DataIntegrityProof({ cryptosuite: rdfcCryptosuite });
    case 'eddsa-jcs-2022':
      return new DataIntegrityProof({ cryptosuite: createVerifyCryptosuite() });
    case 'Ed25519Signature2020':
      return new Ed25519Signature2020();
  }
}
