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

/** An unpaired UTF-16 surrogate, which RFC 8785 refuses (the library says so). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** What JSON.stringify would escape in a string, or a surrogate: most strings have none and are quoted as they are. */
const SPECIAL = /["\\\u0000-\u001F\uD800-\uDFFF]/;

/** A string's RFC 8785 text, or undefined for one with a lone surrogate. */
function quoted(text: string): string | undefined {
  if (!SPECIAL.test(text)) return `"${text}"`;
  return LONE_SURROGATE.test(text) ? undefined : JSON.stringify(text);
}

/** Deeper than this, a value is handed to the library, which tells a cycle from depth. */
const MAX_DEPTH = 500;

/**
 * RFC 8785 text of plain JSON data (what JSON.parse gives), or undefined for anything else
 * (NaN, a lone surrogate, toJSON, undefined in an array, a symbol, great depth). For strings and
 * finite numbers RFC 8785's serialisation is ECMAScript's, which JSON.stringify is; keys sort by
 * UTF-16 code units, as Array.prototype.sort does.
 */
function plainCanonical(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth > MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
      let out: string;
      if (Array.isArray(value)) {
        out = '[';
        for (let i = 0; i < value.length; i++) {
          const item = plainCanonical(value[i], depth + 1);
          if (item === undefined) return undefined;
          out += i === 0 ? item : `,${item}`;
        }
        return `${out}]`;
      }
      out = '{';
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record).sort()) {
        if (record[key] === undefined) continue;
        const item = plainCanonical(record[key], depth + 1);
        const name = quoted(key);
        if (item === undefined || name === undefined) return undefined;
        out += `${out.length === 1 ? '' : ','}${name}:${item}`;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}

/** Returned by sortedCopy for a value JSON.stringify would not write as RFC 8785 does. */
const NOT_PLAIN = Symbol('not plain');
/** A key JSON.stringify would write before the others whatever its place (an array index), or that sets a prototype. */
const OUT_OF_ORDER_KEY = /^(?:0|[1-9]\d*|__proto__)$/;

/**
 * A copy of plain JSON data with every object's keys inserted in RFC 8785 order (UTF-16 code
 * units, as Array.prototype.sort compares), so that JSON.stringify writes its canonical text in
 * one native pass; or NOT_PLAIN for anything plainCanonical would refuse and for keys whose
 * order an object does not keep (array indices come first whatever their insertion order).
 */
function sortedCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : NOT_PLAIN;
    case 'object': {
      if (value === null) return null;
      if (depth > MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
      // Strings, most of the values, are taken as they are without a call.
      if (Array.isArray(value)) {
        const items = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) {
          const element: unknown = value[i];
          const item = typeof element === 'string' ? element : sortedCopy(element, depth + 1);
          if (item === NOT_PLAIN) return NOT_PLAIN;
          items[i] = item;
        }
        return items;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let i = 1; i < keys.length; i++) {
        if (keys[i - 1]! > keys[i]!) {
          keys.sort();
          break;
        }
      }
      const copy: Record<string, unknown> = {};
      for (const key of keys) {
        const first = key.charCodeAt(0);
        // Only a key starting with a digit or "_" can be one: most skip the pattern.
        if ((first <= 0x39 || first === 0x5f) && OUT_OF_ORDER_KEY.test(key)) return NOT_PLAIN;
        const field = record[key];
        if (field === undefined) continue;
        const item = typeof field === 'string' ? field : sortedCopy(field, depth + 1);
        if (item === NOT_PLAIN) return NOT_PLAIN;
        copy[key] = item;
      }
      return copy;
    }
    default:
      return NOT_PLAIN;
  }
}

/**
 * RFC 8785 (JSON Canonicalization Scheme) text of a value: one byte sequence per meaning.
 * Plain JSON data, every certificate payload, is copied with its keys in order and written by
 * JSON.stringify, whose strings and numbers are RFC 8785's: its text comes out flat (a string
 * built by concatenation is flattened again where it is hashed or posted to a signer thread).
 * A lone surrogate, which JSON.stringify escapes as \udXXX and RFC 8785 refuses, and keys an
 * object cannot keep in order take plainCanonical's path; anything else goes to the
 * `canonicalize` library, so its answers and its errors are the library's.
 */
export function canonicalJson(value: unknown): string {
  const copy = sortedCopy(value, 0);
  if (copy !== NOT_PLAIN) {
    const text = JSON.stringify(copy);
    // Conservative: a literal backslash before "ud" in a string also takes the slower path.
    if (!text.includes('\\ud')) return text;
  }
  const text = plainCanonical(value, 0) ?? canonicalize(value);
  if (text === undefined) throw new Error('Cannot canonicalise this value');
  return text;
}

/** The leaf of a certificate: SHA-256 of its payload's canonical JSON. */
export function leafOf(payload: unknown): Buffer {
  return createHash('sha256').update(canonicalJson(payload)).digest();
}
