import type { KeyObject } from 'node:crypto';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { signMessage } from '../proofs/ed25519.js';
import type { ProofFile } from '../proofs/proof-file.js';
import { anchorProofOf, credentialOf, type VerifiableCredential } from './credential-vc.js';
import { verificationMethodOf } from './did-key.js';
import { staticDocumentLoader } from './document-loader.js';
import type { BitstringStatusListEntry } from './status-entry.js';

/** Signs bytes with the Partner's Ed25519 key: the key itself stays where the function keeps it. */
export type Ed25519Sign = (data: Uint8Array) => Uint8Array | Promise<Uint8Array>;

/** An Ed25519Sign over a private key loaded from the secret store (it never leaves this process). */
export function keySigner(privateKey: KeyObject): Ed25519Sign {
  return (data) => signMessage(privateKey, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
}

/**
 * The Verifiable Credential of an issued certificate: the credential derived from the proof
 * file, signed with a Data Integrity proof (`eddsa-rdfc-2022`, dated at the issued date so the
 * same proof always gives the same credential), followed by the anchor proof. `status`: the
 * certificate's entry in its Partner's status list, when it has one.
 *
 * @example
 * const credential = await signedCredentialOf(proof, keySigner((await loadSigningKey(secrets, partnerId)).key));
 */
export async function signedCredentialOf(proof: ProofFile, sign: Ed25519Sign, status?: BitstringStatusListEntry): Promise<VerifiableCredential> {
  const credential = credentialOf(proof.certificate, proof.issued_date, proof.issuer.public_key, status);
  const signer = { id: verificationMethodOf(proof.issuer.public_key), algorithm: 'Ed25519', sign: async ({ data }: { data: Uint8Array }) => sign(data) };
  const suite = new DataIntegrityProof({ signer, cryptosuite, date: credential.validFrom as string });
  // `now` inside the validity: an expired certificate is still exported as what it was.
  const signed = await vc.issue({ credential, suite, documentLoader: staticDocumentLoader, now: credential.validFrom as string });
  return { ...signed, proof: [signed.proof as Record<string, unknown>, anchorProofOf(proof)] };
}

/** The text of an exported credential: two-space indented JSON and a final newline, as proof files. */
export function credentialText(credential: VerifiableCredential): string {
  return `${JSON.stringify(credential, null, 2)}\n`;
}
