/**
 * Resolving another issuer's `did:web` (W3C did:web method), only when the user turned the
 * network on: the DID document is fetched from the issuer's web server and offered to the
 * signature check beside the bundled contexts. https only, except for a loopback host (a
 * `serve` on this machine), as for status lists.
 */
import { ServiceError } from '../../../common/errors.js';
import type { VerifyOptions } from '../proofs/verify-proof.js';

const FETCH_TIMEOUT_MS = 10_000;
const MAX_DOCUMENT_BYTES = 256 * 1024;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/;

/** The DID of a verification method (`did:web:host#key-1` → `did:web:host`). */
export function didOfMethod(method: string): string {
  const hash = method.indexOf('#');
  return hash < 0 ? method : method.slice(0, hash);
}

/**
 * Where a did:web's document lives: `did:web:example.com` → https://example.com/.well-known/did.json,
 * `did:web:example.com:users:alice` → https://example.com/users/alice/did.json; a port's colon is
 * written `%3A`. Undefined for anything that is not a did:web.
 */
export function didWebDocumentUrl(did: string): string | undefined {
  const match = /^did:web:([^:#?/]+)((?::[^:#?/]+)*)$/.exec(did);
  if (!match) return undefined;
  const host = decodeURIComponent(match[1]!);
  if (!/^[A-Za-z0-9.\-[\]:]+$/.test(host)) return undefined;
  const path = match[2] ? `${match[2].slice(1).split(':').map(decodeURIComponent).join('/')}/did.json` : '.well-known/did.json';
  return `${LOOPBACK.test(host) ? 'http' : 'https'}://${host}/${path}`;
}

function unresolvable(did: string, why: string): ServiceError {
  return new ServiceError('invalid_value', `This Verifiable Credential's issuer ${did} could not be resolved: ${why}`);
}

/** Fetches the DID document of a did:web and checks that it is that DID's. */
export async function fetchDidWebDocument(did: string): Promise<Record<string, unknown>> {
  const url = didWebDocumentUrl(did);
  if (url === undefined) throw unresolvable(did, 'it is not a did:web this verifier can read');
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/did+json, application/json' }, redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    throw unresolvable(did, `${url} did not answer (${(error as Error).message})`);
  }
  if (!response.ok) throw unresolvable(did, `${url} answered HTTP ${response.status}`);
  const body = await response.arrayBuffer();
  if (body.byteLength > MAX_DOCUMENT_BYTES) throw unresolvable(did, `${url} answered more than ${MAX_DOCUMENT_BYTES} bytes`);
  let document: unknown;
  try {
    document = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    throw unresolvable(did, `${url} did not answer JSON`);
  }
  if (typeof document !== 'object' || document === null || (document as { id?: unknown }).id !== did) throw unresolvable(did, `${url} is not the DID document of ${did}`);
  return document as Record<string, unknown>;
}

/**
 * The documents a credential's signature check needs from the network: with the network on and
 * a did:web verification method, its DID document by DID (fetched once per verifying run);
 * otherwise none, and the check refuses the did:web with its URL named.
 */
export async function networkDocuments(verificationMethod: unknown, options: Pick<VerifyOptions, 'network' | 'share'>): Promise<ReadonlyMap<string, Record<string, unknown>> | undefined> {
  if (options.network !== true || typeof verificationMethod !== 'string' || !verificationMethod.startsWith('did:web:')) return undefined;
  const did = didOfMethod(verificationMethod);
  const document = await (options.share ? options.share(`did-web ${did}`, () => fetchDidWebDocument(did)) : fetchDidWebDocument(did));
  return new Map([[did, document]]);
}
