/**
 * The W3C Verifiable Credential 2.0 (Open Badges 3.0 `OpenBadgeCredential`) of a certificate:
 * every field derived from the proof file alone, so the same proof always gives the same
 * credential and a verifier can derive it again from the certificate payload the anchor proof
 * carries. The mapping is documented in docs/verifiable-credentials.md.
 */
import type { CertificatePayload } from '../proofs/certificate-payload.js';
import type { ProofFile } from '../proofs/proof-file.js';
import { didKeyOf, verificationMethodOf } from './did-key.js';
import { OPEN_BADGES_CONTEXT, VC_CONTEXT_V2 } from './document-loader.js';
import type { BitstringStatusListEntry } from './status-entry.js';

/** Proofdesk's own terms, inline in the credential's `@context` (nothing to fetch). */
export const PROOFDESK_CONTEXT = {
  proofdeskMetadata: { '@id': 'urn:proofdesk:vocab#metadata', '@type': '@json' },
  ProofdeskAnchorProof: {
    '@id': 'urn:proofdesk:vocab#AnchorProof',
    '@context': {
      proofPurpose: { '@id': 'https://w3id.org/security#proofPurpose', '@type': '@vocab' },
      verificationMethod: { '@id': 'https://w3id.org/security#verificationMethod', '@type': '@id' },
      certificate: { '@id': 'urn:proofdesk:vocab#certificate', '@type': '@json' },
      hashFunction: 'urn:proofdesk:vocab#hashFunction',
      leaf: 'urn:proofdesk:vocab#leaf',
      merklePath: { '@id': 'urn:proofdesk:vocab#merklePath', '@type': '@json' },
      merkleRoot: 'urn:proofdesk:vocab#merkleRoot',
      chain: 'urn:proofdesk:vocab#chain',
      engine: 'urn:proofdesk:vocab#engine',
      registry: 'urn:proofdesk:vocab#registry',
      transaction: 'urn:proofdesk:vocab#transaction',
      genesisHash: 'urn:proofdesk:vocab#genesisHash',
      installationId: 'urn:proofdesk:vocab#installationId',
      leafSignature: 'urn:proofdesk:vocab#leafSignature',
    },
  },
} as const;

export const ANCHOR_PROOF_TYPE = 'ProofdeskAnchorProof';

/**
 * The anchor proof: the proof file's evidence beside the Data Integrity proof. Standard
 * verifiers skip a proof of a type they do not know; Proofdesk rebuilds the proof file from it.
 * `certificate` is the anchored certificate payload (its SHA-256 is `leaf`).
 */
export interface AnchorProof {
  type: typeof ANCHOR_PROOF_TYPE;
  proofPurpose: 'assertionMethod';
  verificationMethod: string;
  certificate: CertificatePayload;
  hashFunction: 'SHA-256';
  leaf: string;
  merklePath: string[];
  merkleRoot: string;
  /** CAIP-2: `eip155:<chain id>`. */
  chain: string;
  engine: string;
  registry: string;
  transaction: string;
  genesisHash?: string;
  installationId?: string;
  /** The Partner's Ed25519 signature over the leaf's 32 bytes, hex. */
  leafSignature: string;
}

/** A credential as exported, proof set included. */
export type VerifiableCredential = Record<string, unknown> & { proof: [Record<string, unknown>, AnchorProof] };

function base64(hex: string): string {
  return Buffer.from(hex, 'hex').toString('base64');
}

/** A date (`2031-05-01`, 00:00 UTC) or date-time as the full date-time VCs need. */
function dateTime(date: string): string {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T00:00:00.000Z` : date).toISOString();
}

function textOf(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value : fallback;
}

/**
 * The credential (without proofs) of a certificate payload issued at `issuedDate` under the
 * Ed25519 key `publicKeyHex`: what the Data Integrity proof signs. `status` is the certificate's
 * revocation entry in its Partner's status list, when it has one (status-entry.ts).
 */
export function credentialOf(certificate: CertificatePayload, issuedDate: string, publicKeyHex: string, status?: BitstringStatusListEntry): Record<string, unknown> {
  const c = certificate.credential;
  const related = [
    ...c.files.map((f) => ({
      // RFC 6920 names a file by its hash: the credential holds no URL of the file.
      id: `ni:///sha-256;${Buffer.from(f.file_hash, 'hex').toString('base64url')}`,
      digestSRI: `sha256-${base64(f.file_hash)}`,
      ...(f.file_type ? { mediaType: f.file_type } : {}),
    })),
    ...c.credentials.map((uid) => ({ id: `urn:uuid:${uid}` })),
  ];
  return {
    '@context': [VC_CONTEXT_V2, OPEN_BADGES_CONTEXT, PROOFDESK_CONTEXT],
    id: `urn:uuid:${certificate.uid}`,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: c.title,
    issuer: { id: didKeyOf(publicKeyHex), type: ['Profile'], name: certificate.partner.name },
    validFrom: dateTime(issuedDate),
    ...(c.expiry_date === null ? {} : { validUntil: dateTime(c.expiry_date) }),
    credentialSubject: {
      type: ['AchievementSubject'],
      achievement: {
        id: `urn:uuid:${c.uid}`,
        type: ['Achievement'],
        name: c.title,
        description: textOf(c.metadata.description, c.title),
        criteria: { narrative: textOf(c.metadata.criteria, c.title) },
        proofdeskMetadata: c.metadata,
      },
    },
    ...(related.length > 0 ? { relatedResource: related } : {}),
    ...(status ? { credentialStatus: status } : {}),
  };
}

/** The anchor proof of a proof file. */
export function anchorProofOf(proof: ProofFile): AnchorProof {
  return {
    type: ANCHOR_PROOF_TYPE,
    proofPurpose: 'assertionMethod',
    verificationMethod: verificationMethodOf(proof.issuer.public_key),
    certificate: proof.certificate,
    hashFunction: 'SHA-256',
    leaf: proof.leaf,
    merklePath: proof.merkle_path,
    merkleRoot: proof.root,
    chain: `eip155:${proof.chain.chain_id}`,
    engine: proof.chain.engine,
    registry: proof.chain.registry_address,
    transaction: proof.chain.transaction_id,
    ...(proof.chain.genesis_hash !== undefined ? { genesisHash: proof.chain.genesis_hash } : {}),
    ...(proof.chain.installation_id !== undefined ? { installationId: proof.chain.installation_id } : {}),
    leafSignature: proof.issuer.signature,
  };
}
