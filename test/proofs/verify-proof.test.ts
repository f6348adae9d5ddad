/**
 * verifyProof against a real anvil: real registries, real roots issued in real transactions,
 * real Ed25519 signatures. A valid proof passes every step; each field of a proof tampered with
 * in turn fails at the step that notices it, and the later steps do not run.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import { ChainClient, encodeIssue, encodeRevoke, type AnvilNode } from '../../main/chain/index.js';
import { leafOf } from '../../main/engine/proofs/certificate-payload.js';
import { generateSigningKey, loadPrivateKey, signMessage } from '../../main/engine/proofs/ed25519.js';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { chainReaderFor } from '../../main/engine/proofs/verify-chain-reader.js';
import { VERIFICATION_STEP_NAMES, verifyProof, type ChainReader } from '../../main/engine/proofs/verify-proof.js';
import { VERIFICATION_STEP_KEYS, type StepStatus, type VerificationResult, type VerificationStepKey } from '../../common/wire-types.js';
import { fundedKey, randomBytes32, send, startNode, stopAllNodes } from '../chain/chain-fixture.js';
import { buildBatch, copyProof, issueBatch, makeCredential, makePartner, optionsFor, sha256Hex, type IssuedBatch, type Partner } from './proof-fixture.js';

/** The spec's description fields per step, in the spec's order. */
const SPEC_FIELDS: Record<VerificationStepKey, string[]> = {
  certificate: ['hash_function', 'actual_hash', 'expected_hash'],
  blockchain: ['actual_root', 'certificate_root', 'tx_id', 'tx_url', 'confirmations'],
  issuer: ['issuer_name', 'signature_scheme', 'partner_public_key', 'message', 'signature'],
  file: ['hash_function', 'expected_file_hash', 'actual_file_hash'],
  expiry: ['issued_date', 'expiry_date'],
  revocation: ['is_revoked', 'revocation_address', 'revocation_address_url', 'revocation_date'],
};

let node: AnvilNode;
let chain: ChainClient;
let partner: Partner;
/** Five credentials: [0] one file, [1] two files, [2] no file, [3] expires 2030, [4] one file. */
let batch: IssuedBatch;
/** A second batch of the same Partner (another root, another transaction). */
let other: IssuedBatch;
const FILES = ['transcript one', 'diploma two', 'supplement two'];

beforeAll(async () => {
  node = await startNode();
  chain = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: node.chainId, timeoutMs: 5000 });
  partner = await makePartner(chain);
  batch = await issueBatch(chain, partner, [
    makeCredential({ files: [FILES[0]!] }),
    makeCredential({ files: [FILES[1]!, FILES[2]!] }),
    makeCredential({ files: [] }),
    makeCredential({ expiry_date: '2030-01-01T00:00:00.000Z' }),
    makeCredential(),
  ]);
  other = await issueBatch(chain, partner, [makeCredential(), makeCredential()]);
});

afterAll(stopAllNodes);

/** A raw JSON-RPC call to the test's anvil (for anvil-only methods ChainClient does not offer). */
async function rpc(method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** The step statuses in the spec's order. */
function statuses(result: VerificationResult): StepStatus[] {
  return VERIFICATION_STEP_KEYS.map((k) => result.verification[k].status);
}

/** Passed before `step`, failed at it, not started after. */
function failedAt(step: VerificationStepKey): StepStatus[] {
  const at = VERIFICATION_STEP_KEYS.indexOf(step);
  return VERIFICATION_STEP_KEYS.map((_, i) => (i < at ? 'passed' : i === at ? 'failed' : 'not_started'));
}

describe('a valid proof', () => {
  it('is ok, every step passed, each step with the spec name and exactly the spec fields', async () => {
    const now = new Date('2026-03-01T12:00:00.000Z');
    const proof = batch.proofs[0]!;
    const result = await verifyProof(JSON.parse(JSON.stringify(proof)), optionsFor(chain, { now: () => now }));

    expect(result.result).toEqual({ status: 'ok', timestamp: '2026-03-01T12:00:00.000Z' });
    expect(Object.keys(result.verification)).toEqual([...VERIFICATION_STEP_KEYS]);
    for (const key of VERIFICATION_STEP_KEYS) {
      expect(result.verification[key].name).toBe(VERIFICATION_STEP_NAMES[key]);
      expect(Object.keys(result.verification[key].description)).toEqual(SPEC_FIELDS[key]);
      expect(result.verification[key].status).toBe('passed');
    }
    const v = result.verification;
    expect(v.certificate.name).toBe('Checking certificate integrity');
    expect(v.certificate.description).toEqual({ hash_function: 'SHA-256', actual_hash: proof.leaf, expected_hash: proof.leaf });
    expect(v.blockchain.description).toEqual({
      actual_root: proof.root,
      certificate_root: proof.root,
      tx_id: batch.transactionId,
      tx_url: `https://explorer.test/tx/${batch.transactionId}`,
      confirmations: expect.stringMatching(/^[1-9]\d*$/),
    });
    expect(v.issuer.description).toEqual({
      issuer_name: partner.name,
      signature_scheme: 'Ed25519',
      partner_public_key: partner.signing.publicKeyHex,
      message: proof.leaf,
      signature: proof.issuer.signature,
    });
    expect(v.file.description).toEqual({ hash_function: 'SHA-256', expected_file_hash: sha256Hex(FILES[0]!), actual_file_hash: null });
    expect(v.expiry.description).toEqual({ issued_date: batch.issuedDate, expiry_date: null });
    expect(v.revocation.description).toEqual({
      is_revoked: false,
      revocation_address: partner.registry,
      revocation_address_url: `https://explorer.test/address/${partner.registry}`,
      revocation_date: null,
    });
  });

  it('verifies every proof of an odd-sized batch, and of a second batch', async () => {
    for (const proof of [...batch.proofs, ...other.proofs]) {
      expect(statuses(await verifyProof(proof, optionsFor(chain)))).toEqual(Array(6).fill('passed'));
    }
  });

  it('gives null explorer URLs without explorer templates, and takes none from the proof', async () => {
    const proof = copyProof(batch.proofs[0]!);
    proof.chain.explorer_tx_url = 'https://phishing.test/tx/x'; // not signed: informational only
    const result = await verifyProof(proof, { chainFor: optionsFor(chain).chainFor });
    expect(result.result.status).toBe('ok');
    expect(result.verification.blockchain.description.tx_url).toBeNull();
    expect(result.verification.revocation.description.revocation_address_url).toBeNull();
  });
});

describe('a tampered proof fails at the step that notices, later steps not started', () => {
  // field → how it is tampered → the step that fails, and why there.
  const table: { field: string; step: VerificationStepKey; why: string; tamper: (p: ProofFile) => void }[] = [
    { field: 'certificate.credential.title', step: 'certificate', why: 'the leaf is the hash of the certificate', tamper: (p) => void (p.certificate.credential.title += ' (with honours)') },
    { field: 'certificate.credential.metadata', step: 'certificate', why: 'the leaf is the hash of the certificate', tamper: (p) => void (p.certificate.credential.metadata.grade = 'A+') },
    { field: 'certificate.partner.name', step: 'certificate', why: 'the leaf is the hash of the certificate', tamper: (p) => void (p.certificate.partner.name = 'University of Forgery') },
    { field: 'certificate.partner.address', step: 'certificate', why: 'the leaf is the hash of the certificate', tamper: (p) => void (p.certificate.partner.address = '0x000000000000000000000000000000000000dEaD') },
    { field: 'certificate.uid', step: 'certificate', why: 'the leaf is the hash of the certificate', tamper: (p) => void (p.certificate.uid = randomUUID()) },
    { field: 'certificate.engine.chain_id', step: 'certificate', why: 'the leaf is the hash of the certificate', tamper: (p) => void (p.certificate.engine.chain_id = 1) },
    { field: 'leaf', step: 'certificate', why: 'it is no longer the hash of the certificate', tamper: (p) => void (p.leaf = batch.proofs[1]!.leaf) },
    { field: 'merkle_path[0]', step: 'blockchain', why: 'the path no longer leads to the root', tamper: (p) => void (p.merkle_path[0] = randomBytes32().slice(2)) },
    { field: 'root', step: 'blockchain', why: 'the path does not lead to it', tamper: (p) => void (p.root = other.root.toString('hex')) },
    { field: 'chain.transaction_id', step: 'blockchain', why: "another issue() of the same registry is not this root's transaction", tamper: (p) => void (p.chain.transaction_id = other.transactionId) },
    { field: 'chain.registry_address', step: 'blockchain', why: 'no registry is there', tamper: (p) => void (p.chain.registry_address = '0x1111111111111111111111111111111111111111') },
    { field: 'chain.chain_id', step: 'blockchain', why: "it is not the certificate's chain (certificate.engine.chain_id)", tamper: (p) => void (p.chain.chain_id = 1) },
    { field: 'issuer.public_key', step: 'blockchain', why: 'the registry binds another key (caught before the issuer step checks the signature)', tamper: (p) => void (p.issuer.public_key = generateSigningKey().publicKeyHex) },
    { field: 'issuer.signature', step: 'issuer', why: 'it signs another leaf', tamper: (p) => void (p.issuer.signature = batch.proofs[1]!.issuer.signature) },
  ];

  it.each(table)('$field → fails at $step: $why', async ({ step, tamper }) => {
    const proof = copyProof(batch.proofs[0]!);
    tamper(proof);
    const result = await verifyProof(proof, optionsFor(chain));
    expect(statuses(result)).toEqual(failedAt(step));
    expect(result.result.status).toBe('failed');
    for (const key of VERIFICATION_STEP_KEYS) expect(Object.keys(result.verification[key].description)).toEqual(SPEC_FIELDS[key]);
  });

  it('covers every field the brief lists', () => {
    expect(table.map((t) => t.field)).toHaveLength(14);
  });

  it("an issued_date that is not the block's time (as after a reorganisation) → ok, with the chain's block and date reported", async () => {
    const proof = copyProof(batch.proofs[0]!);
    proof.issued_date = new Date(Date.parse(proof.issued_date) - 7000).toISOString();
    const result = await verifyProof(proof, optionsFor(chain));
    expect(result.result.status).toBe('ok');
    expect(result.verification.blockchain.description).toMatchObject({ block_number: expect.stringMatching(/^\d+$/), block_date: batch.issuedDate });
    expect(result.verification.expiry.description.issued_date).toBe(batch.issuedDate);
  });

  it('a changed title with the leaf recomputed → fails at blockchain: the path no longer leads to the anchored root', async () => {
    const proof = copyProof(batch.proofs[0]!);
    proof.certificate.credential.title = 'Doctor of Medicine';
    proof.leaf = leafOf(proof.certificate).toString('hex');
    proof.issuer.signature = signMessage(loadPrivateKey(partner.signing.privateKeyPkcs8), Buffer.from(proof.leaf, 'hex')).toString('hex');
    const result = await verifyProof(proof, optionsFor(chain));
    expect(statuses(result)).toEqual(failedAt('blockchain'));
    expect(result.verification.blockchain.description.certificate_root).not.toBe(proof.root);
  });

  it("a forger's own registry and key, naming the Partner's address → fails at blockchain: the registry is not the Partner's", async () => {
    const forger = await makePartner(chain, 'Forger');
    const forged = buildBatch({ ...forger, name: partner.name, id: partner.id, address: partner.account.address }, [makeCredential()], chain.chainId);
    const { tx, receipt } = await send(chain, forger.account.key, { to: forger.registry, data: encodeIssue(`0x${forged.root.toString('hex')}`) });
    const proof = forged.proof(0, { transactionId: tx.hash, issuedDate: (await chain.blockTimestamp(receipt.blockNumber)).toISOString() });
    const result = await verifyProof(proof, optionsFor(chain));
    expect(statuses(result)).toEqual(failedAt('blockchain'));
    expect(result.verification.blockchain.description.actual_root).toBeNull();
  });

  it('a reverted repeat of the same issue() call as transaction_id → fails at blockchain: its receipt says reverted', async () => {
    const root = `0x${batch.root.toString('hex')}` as Hex;
    const { tx, receipt } = await send(chain, partner.account.key, { to: partner.registry, data: encodeIssue(root), gas: 100_000n });
    expect(receipt.status).toBe('reverted');
    const proof = copyProof(batch.proofs[0]!);
    proof.chain.transaction_id = tx.hash;
    const result = await verifyProof(proof, optionsFor(chain));
    expect(statuses(result)).toEqual(failedAt('blockchain'));
  });

  it("the same issue(root) call sent to a forger's registry in the same second as transaction_id → fails at blockchain: it is not the registry's transaction", async () => {
    const forger = await makePartner(chain, 'Forger');
    const fresh = await issueBatch(chain, partner, [makeCredential()]);
    // Mine the forger's copy in a block with the very same timestamp, so only the recipient differs.
    await rpc('evm_setNextBlockTimestamp', [Date.parse(fresh.issuedDate) / 1000]);
    const { tx, receipt } = await send(chain, forger.account.key, { to: forger.registry, data: encodeIssue(`0x${fresh.root.toString('hex')}`) });
    expect(receipt.status).toBe('success');
    expect((await chain.blockTimestamp(receipt.blockNumber)).toISOString()).toBe(fresh.issuedDate);
    const proof = copyProof(fresh.proofs[0]!);
    proof.chain.transaction_id = tx.hash;
    expect(statuses(await verifyProof(proof, optionsFor(chain)))).toEqual(failedAt('blockchain'));
  });

  it('an unknown transaction_id for a root the registry holds → pending with the reason, never ok (a replaced transaction looks the same)', async () => {
    const proof = copyProof(batch.proofs[0]!);
    proof.chain.transaction_id = randomBytes32();
    const result = await verifyProof(proof, optionsFor(chain));
    expect(result.result.status).toBe('pending');
    expect(result.verification.blockchain.status).toBe('pending');
    expect(result.verification.blockchain.description.reason).toMatch(/registry holds the root, but transaction 0x[0-9a-f]{64} is not on the chain now/);
  });

  it('a forged certificate naming a transaction the chain does not know → the anchoring is only pending, and the signature check fails it', async () => {
    const forger = generateSigningKey();
    const proof = copyProof(batch.proofs[0]!);
    proof.certificate.credential.title = 'Doctor of Forgery';
    proof.leaf = leafOf(proof.certificate).toString('hex');
    proof.merkle_path = [];
    proof.root = proof.leaf;
    proof.chain.transaction_id = randomBytes32();
    proof.issuer.signature = signMessage(loadPrivateKey(forger.privateKeyPkcs8), Buffer.from(proof.leaf, 'hex')).toString('hex');
    const result = await verifyProof(proof, optionsFor(chain));
    expect(statuses(result)).toEqual(['passed', 'pending', 'failed', 'not_started', 'not_started', 'not_started']);
    expect(result.result.status).toBe('failed');
  });

  it("another Partner's registry as registry_address → fails at blockchain: its owner is not the certificate's partner", async () => {
    const stranger = await makePartner(chain, 'Another University');
    const proof = copyProof(batch.proofs[0]!);
    proof.chain.registry_address = stranger.registry;
    expect(statuses(await verifyProof(proof, optionsFor(chain)))).toEqual(failedAt('blockchain'));
  });
});

describe('file integrity', () => {
  it('a wrong original file → failed at file', async () => {
    const result = await verifyProof(batch.proofs[0]!, optionsFor(chain, { originalFileHash: sha256Hex('some other file') }));
    expect(statuses(result)).toEqual(failedAt('file'));
    expect(result.result.status).toBe('failed');
    expect(result.verification.file.description).toEqual({ hash_function: 'SHA-256', expected_file_hash: sha256Hex(FILES[0]!), actual_file_hash: sha256Hex('some other file') });
  });

  it('the right original file → ok', async () => {
    const hash = sha256Hex(FILES[0]!);
    const result = await verifyProof(batch.proofs[0]!, optionsFor(chain, { originalFileHash: hash.toUpperCase() }));
    expect(result.result.status).toBe('ok');
    expect(result.verification.file.description).toEqual({ hash_function: 'SHA-256', expected_file_hash: hash, actual_file_hash: hash });
  });

  it('with two files: either one passes; expected_file_hash lists both, joined by ","', async () => {
    for (const content of [FILES[1]!, FILES[2]!]) {
      const result = await verifyProof(batch.proofs[1]!, optionsFor(chain, { originalFileHash: sha256Hex(content) }));
      expect(result.result.status).toBe('ok');
      expect(result.verification.file.description.expected_file_hash).toBe(`${sha256Hex(FILES[1]!)},${sha256Hex(FILES[2]!)}`);
      expect(result.verification.file.description.actual_file_hash).toBe(sha256Hex(content));
    }
    const wrong = await verifyProof(batch.proofs[1]!, optionsFor(chain, { originalFileHash: sha256Hex(FILES[0]!) }));
    expect(statuses(wrong)).toEqual(failedAt('file'));
  });

  it('a credential without files: passed with no original, failed with one', async () => {
    const none = await verifyProof(batch.proofs[2]!, optionsFor(chain));
    expect(none.result.status).toBe('ok');
    expect(none.verification.file.description).toEqual({ hash_function: 'SHA-256', expected_file_hash: null, actual_file_hash: null });
    const given = await verifyProof(batch.proofs[2]!, optionsFor(chain, { originalFileHash: sha256Hex('anything') }));
    expect(statuses(given)).toEqual(failedAt('file'));
  });
});

describe('expiry', () => {
  it('before the expiry date → ok; after it → expired, revocation not started', async () => {
    const proof = batch.proofs[3]!;
    expect((await verifyProof(proof, optionsFor(chain, { now: () => new Date('2029-12-31T23:59:59.000Z') }))).result.status).toBe('ok');
    const result = await verifyProof(proof, optionsFor(chain, { now: () => new Date('2030-01-01T00:00:01.000Z') }));
    expect(result.result.status).toBe('expired');
    expect(statuses(result)).toEqual(failedAt('expiry'));
    expect(result.verification.expiry.description).toEqual({ issued_date: batch.issuedDate, expiry_date: '2030-01-01T00:00:00.000Z' });
  });
});

describe('revocation', () => {
  it("a revoked certificate's leaf → revoked, with the revocation date; the rest of its batch stays ok", async () => {
    const revokedBatch = await issueBatch(chain, partner, [makeCredential(), makeCredential(), makeCredential()]);
    const leaf = `0x${revokedBatch.proofs[1]!.leaf}` as Hex;
    const { receipt } = await send(chain, partner.account.key, { to: partner.registry, data: encodeRevoke(leaf) });
    const revokedAt = (await chain.blockTimestamp(receipt.blockNumber)).toISOString();

    const result = await verifyProof(revokedBatch.proofs[1]!, optionsFor(chain));
    expect(result.result.status).toBe('revoked');
    expect(statuses(result)).toEqual(failedAt('revocation'));
    expect(result.verification.revocation.description).toEqual({
      is_revoked: true,
      revocation_address: partner.registry,
      revocation_address_url: `https://explorer.test/address/${partner.registry}`,
      revocation_date: revokedAt,
    });
    expect((await verifyProof(revokedBatch.proofs[0]!, optionsFor(chain))).result.status).toBe('ok');
  });

  it('a revoked root revokes every certificate of its batch', async () => {
    const revokedBatch = await issueBatch(chain, partner, [makeCredential(), makeCredential()]);
    await send(chain, partner.account.key, { to: partner.registry, data: encodeRevoke(`0x${revokedBatch.root.toString('hex')}`) });
    for (const proof of revokedBatch.proofs) expect((await verifyProof(proof, optionsFor(chain))).result.status).toBe('revoked');
  });
});

describe('pending', () => {
  it('too few confirmations (3 required, 1 there) → pending; ok once blocks are mined', async () => {
    const fresh = await issueBatch(chain, partner, [makeCredential()]);
    const options = optionsFor(chain, { finality: (engine) => ({ finalizedTag: false, confirmations: engine === 'local' ? 3 : 1 }) });
    const result = await verifyProof(fresh.proofs[0]!, options);
    expect(result.result.status).toBe('pending');
    expect(statuses(result)).toEqual(['passed', 'pending', 'passed', 'passed', 'passed', 'passed']);
    expect(result.verification.blockchain.description).toMatchObject({ actual_root: fresh.root.toString('hex'), confirmations: '1' });
    expect(result.verification.blockchain.description).not.toHaveProperty('reason');

    await chain.mine(2);
    const later = await verifyProof(fresh.proofs[0]!, options);
    expect(later.result.status).toBe('ok');
    expect(later.verification.blockchain.description.confirmations).toBe('3');
  });

  it('no chain for the engine → chain steps pending with the reason, offline steps passed', async () => {
    const result = await verifyProof(batch.proofs[0]!, optionsFor(undefined));
    expect(result.result.status).toBe('pending');
    expect(statuses(result)).toEqual(['passed', 'pending', 'passed', 'passed', 'passed', 'pending']);
    expect(result.verification.blockchain.description).toMatchObject({ actual_root: null, certificate_root: batch.root.toString('hex'), reason: expect.stringContaining('No chain is available for engine "local"') });
    expect(result.verification.revocation.description).toMatchObject({ is_revoked: false, reason: expect.stringContaining('No chain') });
  });

  it("offline, a forged certificate 'signed' for the identity key (a signature every message passes under OpenSSL) → failed at issuer", async () => {
    // A small-order key with R = identity and S = 0: Node's OpenSSL check accepts it for any
    // message, so a proof of any content could show its issuer's signature as passed wherever
    // no chain is asked. libsodium refuses small-order keys.
    const forged = copyProof(batch.proofs[0]!);
    forged.certificate.credential.title = 'Doctor of Medicine';
    forged.leaf = leafOf(forged.certificate).toString('hex');
    forged.root = forged.leaf;
    forged.merkle_path = [];
    forged.issuer.public_key = `01${'00'.repeat(31)}`;
    forged.issuer.signature = `01${'00'.repeat(63)}`;
    const result = await verifyProof(forged, optionsFor(undefined));
    expect(result.verification.certificate.status).toBe('passed');
    expect(result.verification.issuer.status).toBe('failed');
    expect(result.result.status).toBe('failed');
  });

  it('a chain that serves another chain id than the proof names → pending, never checked against it', async () => {
    const reader = chainReaderFor(chain);
    const result = await verifyProof(batch.proofs[0]!, { chainFor: () => ({ ...reader, chainId: 1 }) });
    expect(statuses(result)).toEqual(['passed', 'pending', 'passed', 'passed', 'passed', 'pending']);
    expect(result.verification.blockchain.description.reason).toMatch(/chain id 1, not the proof's 31337/);
  });

  it('a stopped anvil → pending, chain steps pending with the reason, offline steps passed', async () => {
    const second = await startNode();
    const secondChain = await ChainClient.connect({ rpcUrl: second.rpcUrl, chainId: second.chainId, timeoutMs: 3000 });
    const secondPartner = await makePartner(secondChain);
    const issued = await issueBatch(secondChain, secondPartner, [makeCredential({ files: ['offline file'] })]);
    const options = optionsFor(secondChain, { originalFileHash: sha256Hex('offline file') });
    expect((await verifyProof(issued.proofs[0]!, options)).result.status).toBe('ok');

    await second.stop();
    const started = Date.now();
    const result = await verifyProof(issued.proofs[0]!, options);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.result.status).toBe('pending');
    expect(statuses(result)).toEqual(['passed', 'pending', 'passed', 'passed', 'passed', 'pending']);
    expect(result.verification.blockchain.description).toMatchObject({ actual_root: null, confirmations: '0', reason: expect.stringMatching(/unreachable/) });
    expect(result.verification.revocation.description).toMatchObject({ is_revoked: false, revocation_date: null, reason: expect.stringMatching(/unreachable/) });
    expect(result.verification.blockchain.description.reason).not.toMatch(/Details/);
  });
});

describe('errors', () => {
  it('an unexpected exception in a step → that step error, later steps not started, result error', async () => {
    const reader: ChainReader = { ...chainReaderFor(chain), readRegistry: () => Promise.reject(new Error('boom')) };
    const result = await verifyProof(batch.proofs[0]!, optionsFor(reader));
    expect(statuses(result)).toEqual(['passed', 'error', 'not_started', 'not_started', 'not_started', 'not_started']);
    expect(result.result.status).toBe('error');
  });

  it('an invalid confirmations requirement is an error of the blockchain step', async () => {
    const result = await verifyProof(batch.proofs[0]!, optionsFor(chain, { finality: () => ({ finalizedTag: false, confirmations: Number.NaN }) }));
    expect(statuses(result)).toEqual(['passed', 'error', 'not_started', 'not_started', 'not_started', 'not_started']);
  });

  it('a chainFor that throws unexpectedly → error at blockchain', async () => {
    const result = await verifyProof(batch.proofs[0]!, { chainFor: () => Promise.reject(new Error('config broken')) });
    expect(result.result.status).toBe('error');
    expect(statuses(result)).toEqual(['passed', 'error', 'not_started', 'not_started', 'not_started', 'not_started']);
  });

  it('an account without code as registry_address → fails at blockchain: no registry answers there', async () => {
    const stranger = await fundedKey(chain);
    const proof = copyProof(batch.proofs[0]!);
    proof.chain.registry_address = stranger.address as Address;
    expect(statuses(await verifyProof(proof, optionsFor(chain)))).toEqual(failedAt('blockchain'));
  });
});
