import canonicalize from 'canonicalize';
import { createHash } from 'node:crypto';
import type { Credential, FileRecord } from '../../../common/wire-types.js';

/**
 * What is hashed, signed and anchored for one credential on one engine. Tags are left out:
 * they can change after issuing, and a certificate must not. Linked credentials are named by
 * uid (each has its own certificate).
 */
export interface CertificatePayload {
  uid: string;
  partner: { id: string; name: string; address: string };
  credential: {
    uid: string;
    title: string;
    metadata: Record<string, unknown>;
    files: FileRecord[];
    credentials: string[];
    upload_date: string;
    expiry_date: string | null;
  };
  engine: { id: string; chain_id: number };
}

export function buildPayload(
  certificateUid: string,
  partner: CertificatePayload['partner'],
  credential: Credential,
  engine: CertificatePayload['engine'],
): CertificatePayload {
  return {
    uid: certificateUid,
    partner,
    credential: {
      uid: credential.uid,
      title: credential.title,
      metadata: credential.metadata,
      files: credential.files,
      credentials: credential.credentials.map((c) => c.uid),
      upload_date: credential.upload_date,
      expiry_date: credential.expiry_date,
    },
    engine,
  };
}

/** RFC 8785 (JSON Canonicalization Scheme) text of a value: one byte sequence per meaning. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('Cannot canonicalise this value');
  return text;
}

/** The leaf of a certificate: SHA-256 of its payload's canonical JSON. */
export function leafOf(payload: unknown): Buffer {
  return createHash('sha256').update(canonicalJson(payload)).digest();
}
