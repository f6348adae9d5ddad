/**
 * docs/proof-file.schema.json against the TypeScript ProofFile and the hand-written shape check:
 * the same keys at every level (the key lists below do not compile unless they are exactly the
 * interfaces' keys), the same required fields, and a real proof valid under the schema. There is
 * no JSON Schema library in the project, so a small validator for exactly the keywords the schema
 * uses is below; it refuses any other keyword, so the schema cannot silently outgrow it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CertificatePayload } from '../../main/engine/proofs/certificate-payload.js';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { PROOF_KEYS, validateProofFile } from '../../main/engine/proofs/verify-proof-shape.js';
import type { FileRecord } from '../../common/wire-types.js';
import { copyProof, offlineProof } from './proof-fixture.js';

type Schema = Record<string, unknown>;
// A proof as loose JSON, to break in every way.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
const schema = JSON.parse(readFileSync(new URL('../../docs/proof-file.schema.json', import.meta.url), 'utf8')) as Schema;

// Exhaustive at compile time: a missing or extra key is a type error.
const KEYS = {
  proof: { format: 1, certificate: 1, issued_date: 1, hash_function: 1, leaf: 1, merkle_path: 1, root: 1, chain: 1, issuer: 1 } satisfies Record<keyof ProofFile, 1>,
  certificate: { uid: 1, partner: 1, credential: 1, engine: 1 } satisfies Record<keyof CertificatePayload, 1>,
  partner: { id: 1, name: 1, address: 1 } satisfies Record<keyof CertificatePayload['partner'], 1>,
  credential: { uid: 1, title: 1, metadata: 1, files: 1, credentials: 1, upload_date: 1, expiry_date: 1 } satisfies Record<keyof CertificatePayload['credential'], 1>,
  file: { file_hash: 1, file_type: 1 } satisfies Record<keyof FileRecord, 1>,
  engine: { id: 1, chain_id: 1 } satisfies Record<keyof CertificatePayload['engine'], 1>,
  chain: { engine: 1, chain_id: 1, transaction_id: 1, registry_address: 1, explorer_tx_url: 1, genesis_hash: 1, installation_id: 1 } satisfies Record<keyof ProofFile['chain'], 1>,
  issuer: { public_key: 1, signature_scheme: 1, signature: 1 } satisfies Record<keyof ProofFile['issuer'], 1>,
};
/** Optional keys of the interfaces (everything else is required). */
const OPTIONAL: Partial<Record<keyof typeof KEYS, string[]>> = { file: ['file_type'], chain: ['genesis_hash', 'installation_id'] };

function resolve(s: Schema): Schema {
  const ref = s.$ref;
  if (typeof ref !== 'string') return s;
  const name = /^#\/\$defs\/(\w+)$/.exec(ref)?.[1];
  const target = name ? (schema.$defs as Record<string, Schema>)[name] : undefined;
  if (!target) throw new Error(`unresolvable $ref ${ref}`);
  return target;
}

/** The schema node at a path of property names ('items' steps into an array's items). */
function at(...path: string[]): Schema {
  let s = schema;
  for (const step of path) s = resolve(step === 'items' ? (s.items as Schema) : (s.properties as Record<string, Schema>)[step]!);
  return s;
}

const SCHEMA_PATHS: Record<keyof typeof KEYS, string[]> = {
  proof: [],
  certificate: ['certificate'],
  partner: ['certificate', 'partner'],
  credential: ['certificate', 'credential'],
  file: ['certificate', 'credential', 'files', 'items'],
  engine: ['certificate', 'engine'],
  chain: ['chain'],
  issuer: ['issuer'],
};

const ANNOTATIONS = new Set(['$schema', '$id', '$defs', 'title', 'description']);
const JSON_TYPES: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: Array.isArray,
  null: (v) => v === null,
};

/** Errors of `value` under schema node `s` (a subset of draft 2020-12: what the schema uses). */
function validate(value: unknown, s: Schema, path = '$'): string[] {
  const node = resolve(s);
  const errors: string[] = [];
  for (const [keyword, arg] of Object.entries(node)) {
    if (ANNOTATIONS.has(keyword) || keyword === '$ref') continue;
    switch (keyword) {
      case 'type': {
        const types = Array.isArray(arg) ? (arg as string[]) : [arg as string];
        if (!types.some((t) => JSON_TYPES[t]!(value))) errors.push(`${path}: not ${types.join('|')}`);
        break;
      }
      case 'const':
        if (value !== arg) errors.push(`${path}: not ${JSON.stringify(arg)}`);
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(arg as string, 'u').test(value)) errors.push(`${path}: does not match ${arg as string}`);
        break;
      case 'minLength':
        if (typeof value === 'string' && value.length < (arg as number)) errors.push(`${path}: too short`);
        break;
      case 'maxLength':
        if (typeof value === 'string' && value.length > (arg as number)) errors.push(`${path}: too long`);
        break;
      case 'minimum':
        if (typeof value === 'number' && value < (arg as number)) errors.push(`${path}: below ${arg as number}`);
        break;
      case 'maximum':
        if (typeof value === 'number' && value > (arg as number)) errors.push(`${path}: above ${arg as number}`);
        break;
      case 'maxItems':
        if (Array.isArray(value) && value.length > (arg as number)) errors.push(`${path}: too many items`);
        break;
      case 'items':
        if (Array.isArray(value)) value.forEach((v, i) => errors.push(...validate(v, arg as Schema, `${path}[${i}]`)));
        break;
      case 'required':
        if (JSON_TYPES.object!(value)) for (const k of arg as string[]) if (!Object.hasOwn(value as object, k)) errors.push(`${path}: missing ${k}`);
        break;
      case 'properties':
        if (JSON_TYPES.object!(value)) {
          for (const [k, sub] of Object.entries(arg as Record<string, Schema>)) {
            if (Object.hasOwn(value as object, k)) errors.push(...validate((value as Record<string, unknown>)[k], sub, `${path}.${k}`));
          }
        }
        break;
      case 'additionalProperties':
        if (arg !== false) throw new Error(`${path}: only additionalProperties: false is supported`);
        if (JSON_TYPES.object!(value)) {
          const allowed = Object.keys((node.properties as object | undefined) ?? {});
          for (const k of Object.keys(value as object)) if (!allowed.includes(k)) errors.push(`${path}: unknown ${k}`);
        }
        break;
      case 'anyOf':
        if (!(arg as Schema[]).some((sub) => validate(value, sub, path).length === 0)) errors.push(`${path}: matches none of anyOf`);
        break;
      default:
        throw new Error(`the test's validator does not know the keyword ${keyword} (at ${path})`);
    }
  }
  return errors;
}

describe('docs/proof-file.schema.json', () => {
  it('has, at every level, exactly the TypeScript interfaces’ keys as properties and their non-optional keys as required', () => {
    for (const [name, keys] of Object.entries(KEYS) as [keyof typeof KEYS, Record<string, 1>][]) {
      const node = at(...SCHEMA_PATHS[name]);
      expect(Object.keys(node.properties as object).sort(), name).toEqual(Object.keys(keys).sort());
      const optional = OPTIONAL[name] ?? [];
      expect([...(node.required as string[])].sort(), name).toEqual(Object.keys(keys).filter((k) => !optional.includes(k)).sort());
      expect(node.additionalProperties, name).toBe(false);
    }
    expect(at('certificate', 'credential', 'metadata')).not.toHaveProperty('additionalProperties');
  });

  it('has the same keys as the shape check (verify-proof-shape.ts)', () => {
    for (const [name, keys] of Object.entries(KEYS)) expect([...PROOF_KEYS[name as keyof typeof PROOF_KEYS]].sort(), name).toEqual(Object.keys(keys).sort());
  });

  it('accepts a real proof (and its JSON round trip), whose keys are exactly the schema’s at every level', () => {
    const proof = offlineProof();
    expect(validate(proof, schema)).toEqual([]);
    expect(validate(JSON.parse(JSON.stringify(proof)), schema)).toEqual([]);
    const c = proof.certificate;
    const objects: [keyof typeof KEYS, object][] = [
      ['proof', proof],
      ['certificate', c],
      ['partner', c.partner],
      ['credential', c.credential],
      ['file', c.credential.files[0]!],
      ['engine', c.engine],
      ['chain', proof.chain],
      ['issuer', proof.issuer],
    ];
    for (const [name, object] of objects) expect(Object.keys(object).sort(), name).toEqual(Object.keys(at(...SCHEMA_PATHS[name]).properties as object).sort());
  });

  // Each of these is refused by both the schema and the shape check.
  const invalid: [string, (p: Loose) => void][] = [
    ['another format tag', (p) => void (p.format = 'proofdesk-proof/2')],
    ['a missing root', (p) => void delete p.root],
    ['an unknown top-level field', (p) => void (p.note = 'hi')],
    ['an unknown field in chain', (p) => void (p.chain.gas = 1)],
    ['an unknown field in a file', (p) => void (p.certificate.credential.files[0].size = 1)],
    ['an uppercase leaf', (p) => void (p.leaf = p.leaf.toUpperCase())],
    ['a 0x-prefixed root', (p) => void (p.root = `0x${p.root.slice(2)}`)],
    ['a short signature', (p) => void (p.issuer.signature = p.issuer.signature.slice(2))],
    ['another signature scheme', (p) => void (p.issuer.signature_scheme = 'secp256k1')],
    ['chain id 0', (p) => void (p.chain.chain_id = 0)],
    ['a fractional chain id', (p) => void (p.certificate.engine.chain_id = 1.5)],
    ['a chain id as a string', (p) => void (p.chain.chain_id = '31337')],
    ['a date-only issued_date', (p) => void (p.issued_date = '2026-01-02')],
    ['a worded expiry date', (p) => void (p.certificate.credential.expiry_date = 'next year')],
    ['a short registry address', (p) => void (p.chain.registry_address = '0x1234')],
    ['an engine id with capitals', (p) => void (p.chain.engine = 'Local')],
    ['a merkle path of 65 hashes', (p) => void (p.merkle_path = Array(65).fill(p.leaf))],
    ['metadata as an array', (p) => void (p.certificate.credential.metadata = [])],
    ['a missing file hash', (p) => void delete p.certificate.credential.files[0].file_hash],
    ['a numeric linked credential', (p) => void (p.certificate.credential.credentials = [1])],
    ['a short genesis hash', (p) => void (p.chain.genesis_hash = '0x1234')],
    ['an installation id with spaces', (p) => void (p.chain.installation_id = 'my laptop')],
  ];

  it.each(invalid)('refuses %s, as the shape check does', (_, tamper) => {
    const proof = copyProof(offlineProof()) as Loose;
    tamper(proof);
    expect(validate(proof, schema)).not.toEqual([]);
    expect(() => validateProofFile(proof)).toThrow(/Not a valid proof file/);
  });

  it('the shape check accepts the sample proof', () => {
    const proof = offlineProof();
    expect(validateProofFile(proof)).toBe(proof);
  });
});
