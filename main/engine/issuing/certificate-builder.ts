import { uuidV7 } from '../uuid-v7.js';
import { readCredentials } from '../credential-reader.js';
import { inTransaction } from '../database.js';
import { cached } from '../list-query.js';
import { buildPayload, canonicalJson } from '../proofs/certificate-payload.js';
import { buildMerkleTree, merkleRoot, serializeMerkleTree } from '../proofs/merkle-tree.js';
import type { IssuingContext } from './issuing-context.js';
import { loadSigningKey, type PartnerIdentity } from './partner-keys.js';

/** Credentials read, canonicalised and signed per batch: bounds memory, keeps both cores busy. */
const BATCH = 2_000;

/**
 * Makes the certificates of a started job: for each credential its payload (RFC 8785
 * canonical JSON), leaf (SHA-256) and Ed25519 signature, then the Merkle tree over the leaves.
 * Certificates, root and tree are written in one transaction, so a crash leaves either all of
 * them or none (and the job is simply built again).
 */
export async function buildJobCertificates(ctx: IssuingContext, job: { id: number; engine: string; partnerId: string; partnerName: string }, identity: PartnerIdentity): Promise<string> {
  const { db } = ctx;
  const engine = ctx.chains.config(job.engine);
  const ids = cached(db, 'SELECT credential_id FROM job_credentials WHERE job_id = ? AND active = 1 ORDER BY credential_id').pluck().all(job.id) as number[];
  const { pkcs8 } = await loadSigningKey(ctx.secrets, job.partnerId);
  const partner = { id: job.partnerId, name: job.partnerName, address: identity.address };
  const rows: { uid: string; credentialId: number; payload: string; leaf: Buffer<ArrayBufferLike>; signature: Buffer<ArrayBufferLike> }[] = [];
  const inFlight: Promise<void>[] = [];
  for (let start = 0; start < ids.length; start += BATCH) {
    const batchIds = ids.slice(start, start + BATCH);
    const batch = readCredentials(db, batchIds).map((credential, i) => {
      const uid = uuidV7(ctx.clock.now());
      const payload = canonicalJson(buildPayload(uid, partner, credential, { id: engine.id, chain_id: engine.chain_id ?? 0 }));
      return { uid, credentialId: batchIds[i]!, payload, leaf: Buffer.alloc(0) as Buffer<ArrayBufferLike>, signature: Buffer.alloc(0) as Buffer<ArrayBufferLike> };
    });
    rows.push(...batch);
    inFlight.push(
      ctx.signer.sign(pkcs8, batch.map((r) => r.payload)).then(({ leaves, signatures }) => {
        batch.forEach((r, i) => {
          r.leaf = leaves.subarray(32 * i, 32 * (i + 1));
          r.signature = signatures.subarray(64 * i, 64 * (i + 1));
        });
      }),
    );
  }
  await Promise.all(inFlight);
  const tree = buildMerkleTree(rows.map((r) => r.leaf));
  const root = `0x${merkleRoot(tree).toString('hex')}`;
  inTransaction(db, () => {
    const insert = cached(
      db,
      'INSERT INTO certificates (uid, partner_id, credential_id, job_id, engine, leaf_index, leaf, payload, signature) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    rows.forEach((r, i) => insert.run(r.uid, job.partnerId, r.credentialId, job.id, job.engine, i, r.leaf.toString('hex'), r.payload, r.signature.toString('hex')));
    cached(db, 'UPDATE jobs SET root = ?, merkle_tree = ? WHERE id = ?').run(root, serializeMerkleTree(tree), job.id);
  });
  return root;
}
