/**
 * Signing Verifiable Credentials, loaded on first use: the stack behind it (JSON-LD, RDF
 * canonicalization, the Digital Bazaar suites and their contexts) takes a few hundred
 * milliseconds to load, which a command or request that hands out only proof files never needs.
 */
export async function verifiableCredentials() {
  const [signer, signing] = await Promise.all([import('./partner-signer.js'), import('./sign-credential.js')]);
  return {
    partnerSigner: signer.partnerSigner,
    partnerCredentialTexts: signer.partnerCredentialTexts,
    credentialText: signing.credentialText,
    signedCredentialOf: signing.signedCredentialOf,
  };
}
