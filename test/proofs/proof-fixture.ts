/**
 * Real proof files for the verification tests, built the way issuing builds them: payloads,
 * leaves, a Merkle tree, Ed25519 signatures over the leaves, and (on anvil) a registry bound to
 * the Partner's signing key with the root issued in one transaction.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Address, Hex } from 'viem';
import { encodeIssue, type ChainClient } from '../../main/chain/index.js';
import { buildPayload, leafOf, type CertificatePayload } from '../../main/engine/proofs/certificate-payload.js';
import { generateSigningKey, loadPrivateKey, signMessage } from '../../main/engine/proofs/ed25519.js';
import { buildMerkleTree, merklePath, merkleRoot } from '../../main/engine/proofs/merkle-tree.js';
import { PROOF_FORMAT, type ProofFile } from '../../main/engine/proofs/proof-file.js';
import { chainReaderFor } from '../../main/engine/proofs/verify-chain-reader.js';
import type { ChainReader, VerifyOptions } from '../../main/engine/proofs/verify-proof.js';
import type { Credential } from '../../common/wire-types.js';
import { deployRegistry, fundedKey, send, type FundedKey } from '../chain/chain-fixture.js';

export const ENGINE_ID = 'local';

/** SHA-256 (hex) of some bytes: a made-up original file's hash. */
export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A made-up credential; `files` are the original files' contents. */
export function makeCredential(overrides: Partial<Omit<Credential, 'files'>> & { files?: string[] } = {}): Credential {
  const { files = [`diploma of ${randomUUID()}`], ...rest } = overrides;
  return {
    uid: randomUUID(),
    title: 'Bachelor of Science in Chemistry',
    metadata: { student: 'Ada Lovelace', grade: 'A', courses: ['organic', 'physical'], ects: 180 },
    files: files.map((content) => ({ file_hash: sha256Hex(content), file_type: 'application/pdf' })),
    credentials: [],
    upload_date: '2025-06-01T10:00:00.000Z',
    tags: ['chemistry'],
    expiry_date: null,
    ...rest,
  };
}

export interface Partner {
  id: string;
  name: string;
  /** The chain account: funded, owner of `registry`. */
  account: FundedKey;
  /** Ed25519 certificate-signing key, bound to the account by the registry. */
  signing: { privateKeyPkcs8: string; publicKeyHex: string };
  registry: Address;
}

/** A Partner with a funded account, a signing key and a registry binding the two. */
export async function makePartner(chain: ChainClient, name = 'University of Testing'): Promise<Partner> {
  const account = await fundedKey(chain);
  const signing = generateSigningKey();
  const registry = await deployRegistry(chain, account.key, `0x${signing.publicKeyHex}`);
  return { id: randomUUID(), name, account, signing, registry };
}

export interface UnanchoredBatch {
  payloads: CertificatePayload[];
  leaves: Buffer[];
  root: Buffer;
  /** The proof of payload `i`, once the root's transaction and its block time are known. */
  proof(i: number, anchor: { transactionId: Hex; issuedDate: string }): ProofFile;
}

/** Payloads, leaves, tree and signatures for `credentials`; pure, no chain. */
export function buildBatch(
  partner: Pick<Partner, 'id' | 'name' | 'signing' | 'registry'> & { address: Address },
  credentials: Credential[],
  chainId: number,
): UnanchoredBatch {
  const payloads = credentials.map((c) => buildPayload(randomUUID(), { id: partner.id, name: partner.name, address: partner.address }, c, { id: ENGINE_ID, chain_id: chainId }));
  const leaves = payloads.map((p) => leafOf(p));
  const tree = buildMerkleTree(leaves);
  const root = merkleRoot(tree);
  const key = loadPrivateKey(partner.signing.privateKeyPkcs8);
  return {
    payloads,
    leaves,
    root,
    proof: (i, anchor) => ({
      format: PROOF_FORMAT,
      certificate: payloads[i]!,
      issued_date: anchor.issuedDate,
      hash_function: 'SHA-256',
      leaf: leaves[i]!.toString('hex'),
      merkle_path: merklePath(tree, i).map((h) => h.toString('hex')),
      root: root.toString('hex'),
      chain: { engine: ENGINE_ID, chain_id: chainId, transaction_id: anchor.transactionId, registry_address: partner.registry, explorer_tx_url: null },
      issuer: { public_key: partner.signing.publicKeyHex, signature_scheme: 'Ed25519', signature: signMessage(key, leaves[i]!).toString('hex') },
    }),
  };
}

export interface IssuedBatch extends UnanchoredBatch {
  transactionId: Hex;
  issuedDate: string;
  proofs: ProofFile[];
}

/** Builds a batch for `credentials` and issues its root on the Partner's registry. */
export async function issueBatch(chain: ChainClient, partner: Partner, credentials: Credential[]): Promise<IssuedBatch> {
  const batch = buildBatch({ ...partner, address: partner.account.address }, credentials, chain.chainId);
  const { tx, receipt } = await send(chain, partner.account.key, { to: partner.registry, data: encodeIssue(`0x${batch.root.toString('hex')}`) });
  if (receipt.status !== 'success') throw new Error('issuing the root reverted');
  const issuedDate = (await chain.blockTimestamp(receipt.blockNumber)).toISOString();
  const anchor = { transactionId: tx.hash, issuedDate };
  return { ...batch, transactionId: tx.hash, issuedDate, proofs: credentials.map((_, i) => batch.proof(i, anchor)) };
}

/** Verify options that reach `chain` for the local engine (and no other), with explorer templates. */
export function optionsFor(chain: ChainClient | ChainReader | undefined, extra: Partial<VerifyOptions> = {}): VerifyOptions {
  const reader = chain === undefined ? undefined : 'rpcUrl' in chain ? chainReaderFor(chain) : chain;
  return {
    chainFor: (engine, chainId) => (engine === ENGINE_ID && reader !== undefined && chainId === reader.chainId ? reader : undefined),
    explorer: () => ({ tx: 'https://explorer.test/tx/{tx}', address: 'https://explorer.test/address/{address}' }),
    ...extra,
  };
}

/**
 * A well-formed proof built without a chain (its transaction is made up, nothing is anchored):
 * for the shape and schema tests. Credential [0] with two files and an expiry date.
 */
export function offlineProof(): ProofFile {
  const partner = {
    id: randomUUID(),
    name: 'University of Testing',
    signing: generateSigningKey(),
    registry: '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address,
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as Address,
  };
  const credentials = [makeCredential({ files: ['a', 'b'], expiry_date: '2031-05-01' }), makeCredential({ files: [] }), makeCredential()];
  const proof = buildBatch(partner, credentials, 31337).proof(0, { transactionId: `0x${'ab'.repeat(32)}`, issuedDate: '2026-01-02T03:04:05.000Z' });
  // The optional chain identity fields too, so that the schema tests see every field.
  proof.chain.genesis_hash = `0x${'cd'.repeat(32)}`;
  proof.chain.installation_id = randomUUID();
  return proof;
}

/** A deep copy of a proof, to tamper with. */
export function copyProof(proof: ProofFile): ProofFile {
  return structuredClone(proof);
}
