/**
 * The Verifiable Credential stack, loaded on first use: behind it JSON-LD, RDF canonicalization,
 * the Digital Bazaar suites and their contexts take a few hundred milliseconds to load, which a
 * command or request that issues, hands out or verifies only proof files never needs.
 */
import type { verifyCredentialFile as VerifyCredentialFile } from './verify-credential.js';

/** Signing: a Partner's signer and the credentials of proof files. */
export async function verifiableCredentials() {
  const [signer, signing] = await Promise.all([import('./partner-signer.js'), import('./sign-credential.js')]);
  return {
    partnerSigner: signer.partnerSigner,
    partnerCredentialTexts: signer.partnerCredentialTexts,
    credentialText: signing.credentialText,
    signedCredentialOf: signing.signedCredentialOf,
  };
}

/** Verifying a credential file (Proofdesk's own or another issuer's). */
export async function credentialVerifier(): Promise<typeof VerifyCredentialFile> {
  return (await import('./verify-credential.js')).verifyCredentialFile;
}
