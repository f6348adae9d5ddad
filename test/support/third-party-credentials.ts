/**
 * Credentials of other issuers, signed here with Digital Bazaar's libraries by a fresh Ed25519
 * did:key: a VC 2.0 Open Badge with eddsa-rdfc-2022 or eddsa-jcs-2022 (a Multikey) and a VC 1.1
 * credential with Ed25519Signature2020 (an Ed25519VerificationKey2020). And the tampering of a
 * signed credential: every leaf field outside its proof, changed.
 */
import { DataIntegrityProof, type Signer } from '@digitalbazaar/data-integrity';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { Ed25519Signature2020 } from '@digitalbazaar/ed25519-signature-2020';
import { Ed25519VerificationKey2020 } from '@digitalbazaar/ed25519-verification-key-2020';
import { createSignCryptosuite } from '@digitalbazaar/eddsa-jcs-2022-cryptosuite';
import { cryptosuite as rdfcCryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { OPEN_BADGES_CONTEXT, staticDocumentLoader, VC_CONTEXT_V1, VC_CONTEXT_V2 } from '../../main/engine/vc/document-loader.js';

export type Json = Record<string, unknown>;

/** A fresh Ed25519 Multikey whose controller is its own did:key. */
async function didKeyMultikey(): Promise<{ did: string; signer: Signer }> {
  const generated = await Ed25519Multikey.generate();
  const { publicKeyMultibase, secretKeyMultibase } = (await generated.export({ publicKey: true, secretKey: true })) as { publicKeyMultibase: string; secretKeyMultibase: string };
  const did = `did:key:${publicKeyMultibase}`;
  const key = await Ed25519Multikey.from({ '@context': 'https://w3id.org/security/multikey/v1', type: 'Multikey', id: `${did}#${publicKeyMultibase}`, controller: did, publicKeyMultibase, secretKeyMultibase });
  return { did, signer: key.signer() };
}

/** A VC 2.0 Open Badge of another academy, valid `validFrom`..`validUntil` (absent: no end). */
export function openBadge(issuerDid: string, dates: { validFrom: string; validUntil?: string }, extra: Json = {}): Json {
  return {
    '@context': [VC_CONTEXT_V2, OPEN_BADGES_CONTEXT],
    id: 'urn:uuid:5a7e4c1b-3f2d-4e8a-9b6c-1d0e2f3a4b5c',
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: 'Open Badge of another academy',
    issuer: { id: issuerDid, type: ['Profile'], name: 'Another Academy' },
    ...dates,
    credentialSubject: {
      type: ['AchievementSubject'],
      achievement: { id: 'urn:uuid:7d2c9e0f-6a1b-4c3d-8e5f-2a3b4c5d6e7f', type: ['Achievement'], name: 'Data Literacy', description: 'Reads a chart', criteria: { narrative: 'Passed the test' } },
    },
    ...extra,
  };
}

/** A VC 2.0 Open Badge signed with a DataIntegrityProof of `cryptosuite` by a fresh did:key. */
export async function signedOpenBadge(cryptosuite: 'eddsa-rdfc-2022' | 'eddsa-jcs-2022', dates: { validFrom: string; validUntil?: string }, extra: Json = {}): Promise<Json> {
  const { did, signer } = await didKeyMultikey();
  const suite = new DataIntegrityProof({ signer: signer as Signer, cryptosuite: cryptosuite === 'eddsa-rdfc-2022' ? rdfcCryptosuite : createSignCryptosuite() });
  return vc.issue({ credential: openBadge(did, dates, extra), suite, documentLoader: staticDocumentLoader });
}

/**
 * A VC 2.0 Open Badge signed with eddsa-rdfc-2022 by a fresh key of the issuer `did` (a did:web),
 * and the DID document that issuer's web server publishes for it.
 */
export async function signedByDidWeb(did: string, dates: { validFrom: string; validUntil?: string }): Promise<{ credential: Json; document: Json }> {
  const generated = await Ed25519Multikey.generate();
  const { publicKeyMultibase, secretKeyMultibase } = (await generated.export({ publicKey: true, secretKey: true })) as { publicKeyMultibase: string; secretKeyMultibase: string };
  const id = `${did}#key-1`;
  const key = await Ed25519Multikey.from({ '@context': 'https://w3id.org/security/multikey/v1', type: 'Multikey', id, controller: did, publicKeyMultibase, secretKeyMultibase });
  const suite = new DataIntegrityProof({ signer: key.signer() as Signer, cryptosuite: rdfcCryptosuite });
  const credential = await vc.issue({ credential: openBadge(did, dates), suite, documentLoader: staticDocumentLoader });
  const document = {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: [{ id, type: 'Multikey', controller: did, publicKeyMultibase }],
    assertionMethod: [id],
  };
  return { credential, document };
}

/** A VC 1.1 credential signed with Ed25519Signature2020 by a fresh Ed25519VerificationKey2020 did:key. */
export async function signedVc11(dates: { issuanceDate: string; expirationDate?: string }): Promise<Json> {
  const generated = await Ed25519VerificationKey2020.generate();
  const did = `did:key:${generated.fingerprint()}`;
  const key = await Ed25519VerificationKey2020.from({
    type: 'Ed25519VerificationKey2020',
    controller: did,
    id: `${did}#${generated.fingerprint()}`,
    publicKeyMultibase: generated.publicKeyMultibase,
    privateKeyMultibase: generated.privateKeyMultibase,
  });
  const credential: Json = {
    '@context': [VC_CONTEXT_V1, { AlumniCredential: 'https://schema.org#AlumniCredential', alumniOf: 'https://schema.org#alumniOf' }],
    id: 'http://academy.example/credentials/1872',
    type: ['VerifiableCredential', 'AlumniCredential'],
    issuer: did,
    ...dates,
    credentialSubject: { id: 'did:example:ebfeb1f712ebc6f1c276e12ec21', alumniOf: 'Example University' },
  };
  return vc.issue({ credential, suite: new Ed25519Signature2020({ key }), documentLoader: staticDocumentLoader });
}

/** Every path to a leaf value of the credential outside its proof set and contexts, with a changed value for it. */
export function tamperings(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; changed: unknown }[] {
  if (path[0] === 'proof' || path[0] === '@context') return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => tamperings(v, [...path, i]));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => tamperings(v, [...path, k]));
  const changed =
    typeof value === 'number' ? value + 1 : typeof value === 'boolean' ? !value : typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? value.replace(/^\d{4}/, (y) => String(Number(y) - 1)) : `${String(value)}x`;
  return [{ path, changed }];
}

/** A copy of `root` with the value at `path` replaced. */
export function setAt(root: Json, path: (string | number)[], value: unknown): Json {
  const copy = structuredClone(root);
  let at = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return copy;
}
