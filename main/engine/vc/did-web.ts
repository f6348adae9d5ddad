/**
 * The Partner as a `did:web`: the DID document `serve` publishes at `/.well-known/did.json`,
 * listing the same Ed25519 key as the Partner's `did:key` (the key its credentials are signed with).
 */
import { ServiceError } from '../../../common/errors.js';
import { cached } from '../list-query.js';
import type { PartnerScope } from '../scope.js';
import { ed25519Multibase } from './did-key.js';

const DID_CONTEXT = 'https://www.w3.org/ns/did/v1';
const MULTIKEY_CONTEXT = 'https://w3id.org/security/multikey/v1';

/** The did:web of a host as a Host header names it (`issuer.example`, `127.0.0.1:8080`): a port's colon is percent-encoded. */
export function didWebOf(host: string): string {
  return `did:web:${host.toLowerCase().replace(/:/g, '%3A')}`;
}

/** The DID document of `did` with one Ed25519 key (hex), for assertions (credentials) and authentication. */
export function didWebDocument(did: string, publicKeyHex: string): Record<string, unknown> {
  const multibase = ed25519Multibase(publicKeyHex);
  const id = `${did}#${multibase}`;
  return {
    '@context': [DID_CONTEXT, MULTIKEY_CONTEXT],
    id: did,
    verificationMethod: [{ id, type: 'Multikey', controller: did, publicKeyMultibase: multibase }],
    assertionMethod: [id],
    authentication: [id],
  };
}

/** The Partner's DID document as `host` publishes it. */
export function partnerDidDocument(scope: PartnerScope, host: string): Record<string, unknown> {
  const key = cached(scope.db, 'SELECT signing_public_key FROM partner_keys WHERE partner_id = ?').pluck().get(scope.partner.id) as string | undefined;
  if (key === undefined) throw new ServiceError('not_found', 'This Partner has no signing key yet, so it has no DID document');
  return didWebDocument(didWebOf(host), key);
}
