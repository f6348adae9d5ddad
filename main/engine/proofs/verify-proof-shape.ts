/**
 * The shape check of a proof file, before anything is hashed or asked on chain: hand-written, so
 * that it names the first bad field (`certificate.credential.files[2].file_hash`) and never
 * crashes on what a JSON upload can hold — null, arrays, `__proto__` keys, huge strings, deep
 * nesting. Mirrors docs/proof-file.schema.json (a test keeps the two in step).
 */
import { ServiceError } from '../../../common/errors.js';
import { isPlainObject, parseIsoDate } from '../../../common/validate.js';
import { PROOF_FORMAT, type ProofFile } from './proof-file.js';

/** Longest text field (titles, names, uids) accepted in a proof. */
export const PROOF_MAX_TEXT = 65_536;
/** Most siblings in a Merkle path: 2^64 leaves is far beyond any batch. */
export const PROOF_MAX_PATH = 64;
/** Most files or linked credentials on one credential. */
export const PROOF_MAX_LIST = 100_000;
/** Deepest nesting inside `certificate.credential.metadata`. */
export const PROOF_MAX_METADATA_DEPTH = 64;
/** Most values (objects, arrays, scalars) inside `certificate.credential.metadata`. */
export const PROOF_MAX_METADATA_NODES = 100_000;

const HASH_HEX = /^[0-9a-f]{64}$/;
const SIGNATURE_HEX = /^[0-9a-f]{128}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ENGINE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const INSTALLATION_ID = /^[0-9A-Za-z][0-9A-Za-z-]{0,63}$/;
const MAX_DATE_TEXT = 64;

/** Whether a string holds no lone UTF-16 surrogate (ES2024's String.prototype.isWellFormed, in Node 20 and Electron). */
function isText(value: string): boolean {
  return (value as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Refuses a string that is not text: a lone surrogate cannot be encoded as UTF-8, so no one could have signed it. */
function wellFormed(value: string, path: string): void {
  if (!isText(value)) bad(path, 'holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape), which is not text: the proof was damaged or altered');
}

/** The keys of each object of a proof file, in the order they are checked. */
export const PROOF_KEYS = {
  proof: ['format', 'certificate', 'issued_date', 'hash_function', 'leaf', 'merkle_path', 'root', 'chain', 'issuer'],
  certificate: ['uid', 'partner', 'credential', 'engine'],
  partner: ['id', 'name', 'address'],
  credential: ['uid', 'title', 'metadata', 'files', 'credentials', 'upload_date', 'expiry_date'],
  file: ['file_hash', 'file_type'],
  engine: ['id', 'chain_id'],
  chain: ['engine', 'chain_id', 'transaction_id', 'registry_address', 'explorer_tx_url', 'genesis_hash', 'installation_id'],
  issuer: ['public_key', 'signature_scheme', 'signature'],
} as const;

function bad(path: string, why: string): never {
  throw new ServiceError('invalid_value', `Not a valid proof file: ${path} ${why}`);
}

/** A short, safe picture of a value for an error message (never a whole huge string). */
function preview(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value.length > 40 ? `a ${value.length}-character string` : JSON.stringify(value);
  return `${typeof value} ${String(value)}`;
}

function object(value: unknown, path: string, keys: readonly string[], optional: readonly string[] = []): Record<string, unknown> {
  const where = path || 'the proof';
  if (!isPlainObject(value)) bad(where, `must be an object, got ${preview(value)}`);
  for (const key of keys) {
    if (!Object.hasOwn(value, key) && !optional.includes(key)) bad(path ? `${path}.${key}` : key, 'is missing');
  }
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) bad(where, `has an unknown field ${JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)}`);
  }
  return value;
}

function text(value: unknown, path: string, { min = 1, max = PROOF_MAX_TEXT } = {}): string {
  if (typeof value !== 'string') bad(path, `must be a string, got ${preview(value)}`);
  if (value.length < min) bad(path, 'must not be empty');
  if (value.length > max) bad(path, `is longer than ${max} characters`);
  wellFormed(value, path);
  return value;
}

function matching(value: unknown, path: string, pattern: RegExp, what: string): string {
  if (typeof value !== 'string' || value.length > 200 || !pattern.test(value)) bad(path, `must be ${what}, got ${preview(value)}`);
  return value;
}

function constant(value: unknown, path: string, expected: string): void {
  if (value !== expected) bad(path, `must be ${JSON.stringify(expected)}, got ${preview(value)}`);
}

function chainId(value: unknown, path: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) bad(path, `must be a positive integer, got ${preview(value)}`);
}

/**
 * The last date and date-time found valid: the proofs of one job, checked one after another,
 * mostly carry the same issued and upload dates, which are then not parsed again.
 */
const lastValid = { date: '', dateTime: '' };

function date(value: unknown, path: string, withTime: boolean): void {
  if (value === (withTime ? lastValid.dateTime : lastValid.date) && value !== '') return;
  if (typeof value !== 'string' || value.length > MAX_DATE_TEXT) bad(path, `must be an ISO 8601 date${withTime ? '-time' : ''}, got ${preview(value)}`);
  if (withTime && !/T/i.test(value)) bad(path, `must be an ISO 8601 date-time, got ${preview(value)}`);
  try {
    parseIsoDate(value, path);
  } catch {
    bad(path, `must be an ISO 8601 date${withTime ? '-time' : ''}, got ${preview(value)}`);
  }
  if (withTime) lastValid.dateTime = value;
  else lastValid.date = value;
}

function list(value: unknown, path: string, max: number): unknown[] {
  if (!Array.isArray(value)) bad(path, `must be an array, got ${preview(value)}`);
  if (value.length > max) bad(path, `has more than ${max} entries`);
  return value;
}

/** Checks that metadata is plain JSON (what canonical JSON can hash), bounded in depth and size. */
function metadata(value: unknown, path: string): void {
  if (!isPlainObject(value)) bad(path, `must be an object, got ${preview(value)}`);
  let nodes = 0;
  // Iterative, so deep nesting is refused with a message instead of overflowing the stack.
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path, depth: 0 }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (++nodes > PROOF_MAX_METADATA_NODES) bad(path, `holds more than ${PROOF_MAX_METADATA_NODES} values`);
    const v = at.value;
    if (v === null || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) bad(at.path, 'must be a finite number');
      continue;
    }
    if (typeof v === 'string') {
      if (v.length > PROOF_MAX_TEXT) bad(at.path, `is longer than ${PROOF_MAX_TEXT} characters`);
      wellFormed(v, at.path);
      continue;
    }
    if (at.depth >= PROOF_MAX_METADATA_DEPTH) bad(at.path, `is nested deeper than ${PROOF_MAX_METADATA_DEPTH} levels`);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${at.path}[${i}]`, depth: at.depth + 1 });
      continue;
    }
    if (isPlainObject(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        if (key.length > PROOF_MAX_TEXT) bad(at.path, `has a key longer than ${PROOF_MAX_TEXT} characters`);
        if (!isText(key)) bad(at.path, 'has a key holding a lone UTF-16 surrogate, which is not text: the proof was damaged or altered');
        stack.push({ value: v[key], path: `${at.path}.${key.length > 40 ? `${key.slice(0, 40)}…` : key}`, depth: at.depth + 1 });
      }
      continue;
    }
    bad(at.path, `must be a JSON value, got ${typeof v === 'object' ? 'a non-JSON object' : typeof v}`);
  }
}

/**
 * Checks that `value` is a proof file of format `proofdesk-proof/1` and returns it typed. Throws
 * ServiceError('invalid_value') naming the first bad field. Checks shape and formats only: whether
 * the hashes, signature and chain agree is verification's business (verify-proof.ts).
 */
export function validateProofFile(value: unknown): ProofFile {
  if (!isPlainObject(value)) bad('the proof', `must be a JSON object, got ${preview(value)}`);
  if (Object.hasOwn(value, 'format')) constant(value.format, 'format', PROOF_FORMAT);
  const proof = object(value, '', PROOF_KEYS.proof);

  const certificate = object(proof.certificate, 'certificate', PROOF_KEYS.certificate);
  text(certificate.uid, 'certificate.uid', { max: 200 });
  const partner = object(certificate.partner, 'certificate.partner', PROOF_KEYS.partner);
  text(partner.id, 'certificate.partner.id', { max: 200 });
  text(partner.name, 'certificate.partner.name', { min: 0 });
  matching(partner.address, 'certificate.partner.address', ADDRESS, 'a 0x-prefixed 20-byte hex address');
  const credential = object(certificate.credential, 'certificate.credential', PROOF_KEYS.credential);
  text(credential.uid, 'certificate.credential.uid', { max: 200 });
  text(credential.title, 'certificate.credential.title', { min: 0 });
  metadata(credential.metadata, 'certificate.credential.metadata');
  list(credential.files, 'certificate.credential.files', PROOF_MAX_LIST).forEach((f, i) => {
    const file = object(f, `certificate.credential.files[${i}]`, PROOF_KEYS.file, ['file_type']);
    matching(file.file_hash, `certificate.credential.files[${i}].file_hash`, HASH_HEX, 'a SHA-256 hash as 64 lowercase hex digits');
    if (Object.hasOwn(file, 'file_type')) text(file.file_type, `certificate.credential.files[${i}].file_type`, { min: 0, max: 255 });
  });
  list(credential.credentials, 'certificate.credential.credentials', PROOF_MAX_LIST).forEach((uid, i) => text(uid, `certificate.credential.credentials[${i}]`, { max: 200 }));
  date(credential.upload_date, 'certificate.credential.upload_date', false);
  if (credential.expiry_date !== null) date(credential.expiry_date, 'certificate.credential.expiry_date', false);
  const engine = object(certificate.engine, 'certificate.engine', PROOF_KEYS.engine);
  matching(engine.id, 'certificate.engine.id', ENGINE_ID, 'an engine id (lowercase letters, digits, "_", "-")');
  chainId(engine.chain_id, 'certificate.engine.chain_id');

  date(proof.issued_date, 'issued_date', true);
  constant(proof.hash_function, 'hash_function', 'SHA-256');
  matching(proof.leaf, 'leaf', HASH_HEX, 'a SHA-256 hash as 64 lowercase hex digits');
  list(proof.merkle_path, 'merkle_path', PROOF_MAX_PATH).forEach((h, i) => matching(h, `merkle_path[${i}]`, HASH_HEX, 'a SHA-256 hash as 64 lowercase hex digits'));
  matching(proof.root, 'root', HASH_HEX, 'a SHA-256 hash as 64 lowercase hex digits');

  const chain = object(proof.chain, 'chain', PROOF_KEYS.chain, ['genesis_hash', 'installation_id']);
  matching(chain.engine, 'chain.engine', ENGINE_ID, 'an engine id (lowercase letters, digits, "_", "-")');
  chainId(chain.chain_id, 'chain.chain_id');
  matching(chain.transaction_id, 'chain.transaction_id', TX_HASH, 'a 0x-prefixed 32-byte hex transaction hash');
  matching(chain.registry_address, 'chain.registry_address', ADDRESS, 'a 0x-prefixed 20-byte hex address');
  if (chain.explorer_tx_url !== null) text(chain.explorer_tx_url, 'chain.explorer_tx_url', { max: 2048 });
  if (Object.hasOwn(chain, 'genesis_hash')) matching(chain.genesis_hash, 'chain.genesis_hash', TX_HASH, 'a 0x-prefixed 32-byte hex block hash');
  if (Object.hasOwn(chain, 'installation_id')) matching(chain.installation_id, 'chain.installation_id', INSTALLATION_ID, 'an installation id (letters, digits and "-", at most 64)');

  const issuer = object(proof.issuer, 'issuer', PROOF_KEYS.issuer);
  matching(issuer.public_key, 'issuer.public_key', HASH_HEX, 'an Ed25519 public key as 64 lowercase hex digits');
  constant(issuer.signature_scheme, 'issuer.signature_scheme', 'Ed25519');
  matching(issuer.signature, 'issuer.signature', SIGNATURE_HEX, 'an Ed25519 signature as 128 lowercase hex digits');

  return value as unknown as ProofFile;
}
