import type { CertificatePayload } from './certificate-payload.js';

/** The format tag every Proofdesk proof file starts with. */
export const PROOF_FORMAT = 'proofdesk-proof/1';

/**
 * A proof file: self-contained evidence that one credential was issued by one Partner on one
 * chain. Verifying it needs nothing from Proofdesk's database: the payload and its hash,
 * the Merkle path to the anchored root, the transaction and registry to look up on chain, and
 * the Partner's signing key and signature. Documented in docs/proof-file.md; JSON Schema in
 * docs/proof-file.schema.json.
 *
 * Hex: hashes, keys and signatures (`leaf`, `merkle_path`, `root`, `public_key`, `signature`)
 * are lowercase hex WITHOUT a 0x prefix; chain values (`transaction_id`, `registry_address`,
 * `certificate.partner.address`) are 0x-prefixed as Ethereum writes them (addresses
 * checksummed). `issue(bytes32 root)` on chain takes `0x` + `root`.
 */
export interface ProofFile {
  format: typeof PROOF_FORMAT;
  /** The signed content. Any change to it changes `leaf`. */
  certificate: CertificatePayload;
  /** The date the anchoring transaction was mined (block time). */
  issued_date: string;
  hash_function: 'SHA-256';
  /** SHA-256 of the RFC 8785 canonical JSON of `certificate`, hex. */
  leaf: string;
  /** Sibling hashes from the leaf to the root (sorted-pair SHA-256), hex. */
  merkle_path: string[];
  /** The job's Merkle root, anchored on chain by `chain.transaction_id`. */
  root: string;
  chain: {
    engine: string;
    chain_id: number;
    transaction_id: string;
    /** The Partner's registry contract: issuing and revocation are checked there. */
    registry_address: string;
    explorer_tx_url: string | null;
    /**
     * Hash of block 0 of the chain the proof was anchored on (0x hex): tells two chains with the
     * same chain id apart. Optional: proofs written before it existed have none.
     */
    genesis_hash?: string;
    /**
     * The `local` engine only: the issuing installation's id. A local development chain exists
     * only in the issuer's data directory; a verifier of another installation answers `pending`.
     */
    installation_id?: string;
  };
  /** The Partner's chain account (the registry's owner) is `certificate.partner.address`, signed. */
  issuer: {
    /** Ed25519 public key (32 bytes hex), bound to the account in the registry. */
    public_key: string;
    signature_scheme: 'Ed25519';
    /** Ed25519 signature over the leaf's 32 bytes, hex. */
    signature: string;
  };
}
