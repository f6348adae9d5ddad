/**
 * Verifiable Credentials of 10,000 certificates of one job: exported (derived from the proof
 * file and signed with eddsa-rdfc-2022) per second, and verified (Proofdesk's steps offline:
 * the Data Integrity proof through Digital Bazaar's verifier, the leaf, path and signature of
 * the anchor proof; the chain steps pending) per second, both on the worker pool (one thread
 * per core, vc-pool.ts). Beside them, what one credential costs on one thread: its RDF
 * canonicalization (JSON-LD expansion, RDF, RDFC-1.0) and a whole export; and the machine's
 * pace: Ed25519 signatures per second on one thread.
 */
import { availableParallelism } from 'node:os';
import { randomUUID } from 'node:crypto';
import { buildPayload, leafOf } from '../main/engine/proofs/certificate-payload.js';
import { generateSigningKey, loadPrivateKey, signMessage } from '../main/engine/proofs/ed25519.js';
import { buildMerkleTree, merklePath, merkleRoot } from '../main/engine/proofs/merkle-tree.js';
import { PROOF_FORMAT, type ProofFile } from '../main/engine/proofs/proof-file.js';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import { credentialOf } from '../main/engine/vc/credential-vc.js';
import { staticDocumentLoader } from '../main/engine/vc/document-loader.js';
import { keySigner, signedCredentialOf } from '../main/engine/vc/sign-credential.js';
import { VcPool } from '../main/engine/vc/vc-pool.js';
import { verifyCredentialFile } from '../main/engine/vc/verify-credential.js';
import { timed, type BenchResult } from './measure.js';

const CERTIFICATES = 10_000;
// Credentials measured one at a time on this thread (per-credential costs).
const SAMPLE = 1_000;

/** The proof files of one job of CERTIFICATES certificates (anchored nowhere: the chain steps stay pending). */
function proofsOfOneJob(signing: { privateKeyPkcs8: string; publicKeyHex: string }): ProofFile[] {
  const key = loadPrivateKey(signing.privateKeyPkcs8);
  const partner = { id: randomUUID(), name: 'Bench University', address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' };
  const payloads = Array.from({ length: CERTIFICATES }, (_, i) =>
    buildPayload(
      randomUUID(),
      partner,
      {
        uid: randomUUID(),
        title: `Bachelor of Science ${i}`,
        metadata: { student: `Student ${i}`, grade: 'A', courses: ['organic', 'physical'], ects: 180 },
        files: [{ file_hash: leafOf({ file: i }).toString('hex'), file_type: 'application/pdf' }],
        credentials: [],
        upload_date: '2026-01-01T00:00:00.000Z',
        tags: [],
        expiry_date: '2031-05-01',
      },
      { id: 'local', chain_id: 31337 },
    ),
  );
  const leaves = payloads.map((p) => leafOf(p));
  const tree = buildMerkleTree(leaves);
  const root = merkleRoot(tree).toString('hex');
  return payloads.map((certificate, i) => ({
    format: PROOF_FORMAT,
    certificate,
    issued_date: '2026-01-02T03:04:05.000Z',
    hash_function: 'SHA-256',
    leaf: leaves[i]!.toString('hex'),
    merkle_path: merklePath(tree, i).map((h) => h.toString('hex')),
    root,
    chain: { engine: 'local', chain_id: 31337, transaction_id: `0x${'ab'.repeat(32)}`, registry_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', explorer_tx_url: null },
    issuer: { public_key: signing.publicKeyHex, signature_scheme: 'Ed25519', signature: signMessage(key, leaves[i]!).toString('hex') },
  }));
}

export async function vcBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const signing = generateSigningKey();
  log(`making the proof files of ${CERTIFICATES} certificates...`);
  const proofs = proofsOfOneJob(signing);
  const key = loadPrivateKey(signing.privateKeyPkcs8);

  const message = Buffer.alloc(32, 7);
  const pace = await timed(() => {
    for (let i = 0; i < 5_000; i++) signMessage(key, message);
  });

  // Warm: the first credential loads the libraries and processes the contexts.
  const sign = keySigner(key);
  await signedCredentialOf(proofs[0]!, sign);
  log(`canonicalizing and exporting ${SAMPLE} credentials on one thread...`);
  const unsigned = proofs.slice(0, SAMPLE).map((p) => credentialOf(p.certificate, p.issued_date, p.issuer.public_key));
  const canonical = await timed(async () => {
    for (const credential of unsigned) await cryptosuite.canonize(credential, { documentLoader: staticDocumentLoader });
  });
  const single = await timed(async () => {
    for (const proof of proofs.slice(0, SAMPLE)) await signedCredentialOf(proof, sign);
  });

  const pool = new VcPool();
  try {
    await pool.credentialTexts(proofs.slice(0, pool.size * 2), key);
    log(`exporting ${CERTIFICATES} Verifiable Credentials on ${pool.size} worker threads...`);
    const exported = await timed(() => pool.credentialTexts(proofs, key));
    const credentials = exported.result.map((text) => JSON.parse(text) as Record<string, unknown>);

    log(`verifying ${CERTIFICATES} Verifiable Credentials offline on ${pool.size} worker threads...`);
    const options = { chainFor: () => ({ reason: 'offline' }), now: () => new Date('2027-01-01T00:00:00Z'), checkDataIntegrity: pool.dataIntegrityHolds };
    const verified = await timed(() =>
      Promise.all(
        credentials.map(async (credential) => {
          const result = await verifyCredentialFile(credential, options);
          if (result.verification.issuer.status !== 'passed') throw new Error(`credential ${String(credential.id)} did not verify: ${JSON.stringify(result.verification)}`);
        }),
      ),
    );

    const exportRate = CERTIFICATES / (exported.ms / 1000);
    const verifyRate = CERTIFICATES / (verified.ms / 1000);
    const signRate = 5_000 / (pace.ms / 1000);
    const threads = `${pool.size} worker threads (${availableParallelism()} cores)`;
    return [
      { name: `VC: export ${CERTIFICATES} credentials (derive + eddsa-rdfc-2022), ${threads}`, value: exportRate, unit: 'VCs/s', target: { value: 500, better: 'higher' }, ratio: { value: exportRate / signRate, against: 'Ed25519 signatures/s' } },
      { name: `VC: verify ${CERTIFICATES} credentials offline (Data Integrity + anchor proof), ${threads}`, value: verifyRate, unit: 'VCs/s', target: { value: 500, better: 'higher' } },
      { name: 'VC: RDF canonicalization of one credential (JSON-LD expansion + RDFC-1.0), one thread', value: canonical.ms / SAMPLE, unit: 'ms' },
      { name: 'VC: export of one credential (derive, canonicalize credential and proof options, sign), one thread', value: single.ms / SAMPLE, unit: 'ms' },
      { name: 'VC: Ed25519 signatures on one thread, for comparison', value: signRate, unit: 'signatures/s' },
    ];
  } finally {
    await pool.close();
  }
}
