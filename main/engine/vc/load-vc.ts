/**
 * The Verifiable Credential stack, loaded on first use: behind it JSON-LD, RDF canonicalization,
 * the Digital Bazaar suites and their contexts take a few hundred milliseconds to load, which a
 * command or request that issues, hands out or verifies only proof files never needs.
 */
import type { verifyCredentialFile as VerifyCredentialFile } from './verify-credential.js';

/** Signing: the credentials of proof files, by their Partner's key. */
export async function verifiableCredentials() {
  const { partnerCredentialText, partnerCredentialTexts } = await import('./partner-signer.js');
  return { partnerCredentialText, partnerCredentialTexts };
}

/** Verifying a credential file (Proofdesk's own or another issuer's). */
export async function credentialVerifier(): Promise<typeof VerifyCredentialFile> {
  return (await import('./verify-credential.js')).verifyCredentialFile;
}
