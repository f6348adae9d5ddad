/**
 * What verifyProof refuses before any step runs: anything that is not a proof file of format
 * `proofdesk-proof/1` is a ServiceError('invalid_value') naming the first bad field — never a
 * crash, never a chain lookup, never a huge message — and what it accepts without a chain.
 */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../common/errors.js';
import { verifyProof, type VerifyOptions } from '../../main/engine/proofs/verify-proof.js';
import { copyProof, offlineProof, sha256Hex } from './proof-fixture.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const noChain: VerifyOptions = {
  chainFor: () => {
    throw new Error('chainFor must not be called for an invalid proof');
  },
};

async function refusal(proof: unknown, options: VerifyOptions = noChain): Promise<ServiceError> {
  const error = await verifyProof(proof, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  expect((error as ServiceError).id).toBe('invalid_value');
  expect((error as ServiceError).status).toBe(400);
  expect((error as ServiceError).message.length).toBeLessThan(300);
  return error as ServiceError;
}

function tampered(tamper: (p: Loose) => void): unknown {
  const proof = copyProof(offlineProof()) as Loose;
  tamper(proof);
  return proof;
}

describe('verifyProof refuses what is not a proof file', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an array', [offlineProof()]],
    ['a string', JSON.stringify(offlineProof())],
    ['a number', 42],
    ['a boolean', true],
  ])('%s → invalid_value: the proof must be a JSON object', async (_, value) => {
    expect((await refusal(value)).message).toMatch(/the proof must be a JSON object/);
  });

  it.each([
    ['an empty object', {}, /format is missing/],
    ['another format tag', { ...offlineProof(), format: 'proofdesk-proof/2' }, /format must be "proofdesk-proof\/1", got "proofdesk-proof\/2"/],
    ['an OpenAttestation document', { version: 'https://schema.openattestation.com/2.0/schema.json', data: {}, signature: {} }, /format is missing/],
    ['a missing certificate', tampered((p) => delete p.certificate), /certificate is missing/],
    ['a null certificate', tampered((p) => (p.certificate = null)), /certificate must be an object, got null/],
    ['a missing leaf', tampered((p) => delete p.leaf), /: leaf is missing/],
    ['a missing partner address', tampered((p) => delete p.certificate.partner.address), /certificate\.partner\.address is missing/],
    ['a bad second file hash', tampered((p) => (p.certificate.credential.files[1].file_hash = 'xyz')), /certificate\.credential\.files\[1\]\.file_hash must be a SHA-256/],
    ['a non-array merkle path', tampered((p) => (p.merkle_path = 'abc')), /merkle_path must be an array/],
    ['a bad path entry', tampered((p) => (p.merkle_path = [p.leaf, 7])), /merkle_path\[1\] must be a SHA-256/],
    ['an uppercase leaf', tampered((p) => (p.leaf = p.leaf.toUpperCase())), /leaf must be a SHA-256 hash as 64 lowercase hex digits/],
    ['a signature scheme of another kind', tampered((p) => (p.issuer.signature_scheme = 'secp256k1')), /issuer\.signature_scheme must be "Ed25519"/],
    ['a chain id as a string', tampered((p) => (p.chain.chain_id = '31337')), /chain\.chain_id must be a positive integer/],
    ['an impossible date', tampered((p) => (p.issued_date = '2026-02-31T00:00:00Z')), /issued_date must be an ISO 8601 date-time/],
    ['a date-only issued date', tampered((p) => (p.issued_date = '2026-02-03')), /issued_date must be an ISO 8601 date-time/],
    ['an unknown field', tampered((p) => (p.chain.gas_used = 21000)), /chain has an unknown field "gas_used"/],
    ['a non-finite metadata number', tampered((p) => (p.certificate.credential.metadata.score = Number.NaN)), /metadata\.score must be a finite number/],
    ['a Date in metadata', tampered((p) => (p.certificate.credential.metadata.when = new Date())), /metadata\.when must be a JSON value/],
    ['a function in metadata', tampered((p) => (p.certificate.credential.metadata.f = () => 1)), /metadata\.f must be a JSON value/],
    ['a bigint in metadata', tampered((p) => (p.certificate.credential.metadata.n = 1n)), /metadata\.n must be a JSON value/],
  ])('%s → invalid_value naming the field', async (_, value, message) => {
    expect((await refusal(value)).message).toMatch(message);
  });

  it('checks each proof\'s dates as the field needs, whatever dates the proofs before it had valid', async () => {
    const before = offlineProof();
    // Its expiry (a date) and its issued date (a date-time) were found valid just now.
    await verifyProof(before, { chainFor: () => undefined });
    const expiry = before.certificate.credential.expiry_date!;
    expect((await refusal(tampered((p) => (p.issued_date = expiry)))).message).toMatch(/issued_date must be an ISO 8601 date-time/);
    expect((await refusal(tampered((p) => (p.certificate.credential.upload_date = before.certificate.credential.upload_date.replace(/^\d{4}-\d\d-\d\d/, '2025-06-31'))))).message).toMatch(/upload_date must be an ISO 8601 date/);
    expect((await refusal(tampered((p) => (p.issued_date = before.issued_date.replace(/^\d{4}-\d\d-\d\d/, '2026-02-30'))))).message).toMatch(/issued_date must be an ISO 8601 date-time/);
  });

  it('refuses __proto__ keys where the format has none, and pollutes nothing', async () => {
    const text = JSON.stringify(offlineProof());
    const top = JSON.parse(`{"__proto__":{"polluted":true},${text.slice(1)}`);
    expect((await refusal(top)).message).toMatch(/the proof has an unknown field "__proto__"/);
    const nested = JSON.parse(text.replace('"partner":{', '"partner":{"__proto__":{"polluted":true},'));
    expect((await refusal(nested)).message).toMatch(/certificate\.partner has an unknown field "__proto__"/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('takes a __proto__ key inside metadata as data: the certificate step fails, nothing is polluted', async () => {
    const text = JSON.stringify(offlineProof());
    const proof = JSON.parse(text.replace('"metadata":{', '"metadata":{"__proto__":{"polluted":true},'));
    const result = await verifyProof(proof, { chainFor: () => undefined });
    expect(result.verification.certificate.status).toBe('failed');
    expect(result.result.status).toBe('failed');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses huge strings quickly, without repeating them', async () => {
    const huge = 'x'.repeat(20_000_000);
    const started = Date.now();
    expect((await refusal(tampered((p) => (p.certificate.credential.title = huge)))).message).toMatch(/certificate\.credential\.title is longer than 65536 characters/);
    expect((await refusal(tampered((p) => (p.leaf = huge)))).message).toMatch(/leaf must be a SHA-256 hash as 64 lowercase hex digits, got a 20000000-character string/);
    expect((await refusal(tampered((p) => (p.certificate.credential.metadata.note = huge)))).message).toMatch(/metadata\.note is longer than/);
    expect((await refusal(tampered((p) => (p.format = huge)))).message).toMatch(/format must be "proofdesk-proof\/1", got a 20000000-character string/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses metadata nested 100000 levels deep without overflowing the stack', async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect((await refusal(tampered((p) => (p.certificate.credential.metadata = deep)))).message).toMatch(/is nested deeper than 64 levels/);
  });

  it('refuses more than 100000 values in metadata', async () => {
    const wide = Object.fromEntries(Array.from({ length: 100_001 }, (_, i) => [`k${i}`, i]));
    expect((await refusal(tampered((p) => (p.certificate.credential.metadata = wide)))).message).toMatch(/holds more than 100000 values/);
  });

  it('refuses an original file hash that is not SHA-256 hex', async () => {
    expect((await refusal(offlineProof(), { ...noChain, originalFileHash: 'abc' })).message).toMatch(/original file hash/);
  });
});

describe('verifyProof without a chain', () => {
  it('checks certificate, issuer, file and expiry offline; the chain steps are pending with the reason', async () => {
    const proof = offlineProof();
    const result = await verifyProof(proof, { chainFor: () => undefined, originalFileHash: sha256Hex('b'), now: () => new Date('2030-01-01T00:00:00Z') });
    expect(result.result.status).toBe('pending');
    expect(Object.values(result.verification).map((s) => s.status)).toEqual(['passed', 'pending', 'passed', 'passed', 'passed', 'pending']);
    expect(result.verification.blockchain.description).toMatchObject({ actual_root: null, certificate_root: proof.root, confirmations: '0', reason: 'No chain is available for engine "local" (chain id 31337)' });
  });

  it('an expired credential without a chain is expired (a failed step outranks pending ones)', async () => {
    const result = await verifyProof(offlineProof(), { chainFor: () => undefined, now: () => new Date('2031-05-01T00:00:00Z') });
    expect(result.result.status).toBe('expired');
    expect(Object.values(result.verification).map((s) => s.status)).toEqual(['passed', 'pending', 'passed', 'passed', 'failed', 'not_started']);
  });

  it('a bad signature is caught without a chain', async () => {
    const proof = offlineProof();
    proof.issuer.signature = `${proof.issuer.signature.slice(0, -2)}${proof.issuer.signature.endsWith('00') ? '01' : '00'}`;
    const result = await verifyProof(proof, { chainFor: () => undefined });
    expect(result.result.status).toBe('failed');
    expect(Object.values(result.verification).map((s) => s.status)).toEqual(['passed', 'pending', 'failed', 'not_started', 'not_started', 'not_started']);
  });
});
