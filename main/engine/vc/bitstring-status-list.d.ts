/**
 * Type declarations for the parts of Digital Bazaar's Bitstring Status List library that
 * Proofdesk calls (the package ships plain JavaScript without types).
 */
declare module '@digitalbazaar/vc-bitstring-status-list' {
  import type { DocumentLoader } from '@digitalbazaar/vc';

  export class BitstringStatusList {
    readonly length: number;
    setStatus(index: number, status: boolean): void;
    getStatus(index: number): boolean;
    /** `u` + base64url (no padding) of the GZIP of the bits: a multibase string. */
    encode(): Promise<string>;
  }
  export function createList(options: { length: number }): Promise<BitstringStatusList>;
  export function decodeList(options: { encodedList: string }): Promise<BitstringStatusList>;
  /** The unsigned BitstringStatusListCredential (VC 2.0 context by default) of a list. */
  export function createCredential(options: { id: string; list: BitstringStatusList; statusPurpose: string; context?: string[] }): Promise<Record<string, unknown>>;
  export interface StatusResult {
    verified: boolean;
    error?: Error;
    results?: { verified: boolean; status: boolean; credentialStatus: Record<string, unknown> }[];
  }
  /** Loads the credential's status list with `documentLoader`, verifies it with `suite`, and reads the bit. */
  export function checkStatus(options: {
    credential: Record<string, unknown>;
    documentLoader: DocumentLoader;
    suite: unknown;
    verifyBitstringStatusListCredential?: boolean;
    verifyMatchingIssuers?: boolean;
  }): Promise<StatusResult>;
}
