import { uuidV7 } from '../uuid-v7.js';
import { readCredentials } from '../credential-reader.js';
import { inTransaction, type Db } from '../database.js';
import { cached } from '../list-query.js';
import { arrayParameter, sqliteOf } from '../store/dialect.js';
import { buildPayload, canonicalJson } from '../proofs/certificate-payload.js';
import { buildPackedMerkleTree } from '../proofs/merkle-tree.js';
import { faultPoint } from './fault-points.js';
import type { IssuingContext } from './issuing-context.js';
import { loadSigningKey, type PartnerIdentity } from './partner-keys.js';
import type { Signed } from './signer-pool.js';
import { stage } from '../stage-timing.js';

/**
 * Credentials read, canonicalised, signed and stored per chunk at most: bounds memory, and how
 * long the signer threads wait for the first chunk and the last chunk's thread runs alone.
 */
const CHUNK = 1_000;
/**
 * The smallest chunk a job is split into so that every signer thread gets work: below it a
 * chunk's fixed costs (a message each way, a committed transaction) outweigh a thread's help.
 */
const MIN_CHUNK = 100;
/** Chunks being signed at once: one per signer thread and one more queued keeps them all busy. */
const IN_FLIGHT = 3;

interface Chunk {
  uids: string[];
  credentialIds: number[];
  signed: Promise<Signed>;
}

/**
 * Makes the certificates of a started job: for each credential its payload (RFC 8785
 * canonical JSON), leaf (SHA-256) and Ed25519 signature, then the Merkle tree over the leaves.
 *
 * Memory stays flat whatever the job's size: credentials are read a chunk at a time (in
 * credential id order, which is leaf order), signed on the worker threads and written a
 * chunk per transaction, and the tree is built from the stored leaves as 32-byte hashes in
 * one buffer. A job smaller than a chunk per signer thread is cut into a chunk per thread
 * (`chunkSize`), so even a small job is signed and compressed on every core. A crash between
 * chunks leaves the chunks written; the next run resumes after the last one. The root and tree
 * are written last, in one transaction: a job has a root only once all of its certificates are
 * stored.
 */
export async function buildJobCertificates(ctx: IssuingContext, job: { id: number; engine: string; partnerId: string; partnerName: string }, identity: PartnerIdentity): Promise<string> {
  const { db } = ctx;
  const engine = ctx.chains.config(job.engine);
  const { pkcs8 } = await loadSigningKey(ctx.secrets, job.partnerId);
  const partner = { id: job.partnerId, name: job.partnerName, address: identity.address };
  const written = cached(db, 'SELECT count(*) AS n, max(credential_id) AS last FROM certificates WHERE job_id = ?').get(job.id) as { n: number; last: number | null };
  let stored = written.n;
  let after = written.last ?? 0;
  let dictionary = cached(db, 'SELECT payload_dictionary FROM job_proof_parts WHERE job_id = ?').pluck().get(job.id) as Buffer | null;
  const remaining = cached(db, 'SELECT count(*) FROM job_credentials WHERE job_id = ? AND active = 1 AND credential_id > ?').pluck().get(job.id, after) as number;
  const size = chunkSize(remaining, ctx.signer.threads);
  const nextIds = cached(db, 'SELECT credential_id FROM job_credentials WHERE job_id = ? AND active = 1 AND credential_id > ? ORDER BY credential_id LIMIT ?').pluck();
  const insert = sqliteOf(db)
    ? cached(db, 'INSERT INTO certificates (uid, partner_id, credential_id, job_id, engine, leaf_index, leaf, payload, signature) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    : undefined;

  const write = async (chunk: Chunk): Promise<void> => {
    const { leaves, signatures, compressed } = await stage('signers wait', () => chunk.signed);
    stage('store', () =>
      inTransaction(db, () => {
        if (stored === 0) {
          cached(db, 'INSERT INTO job_proof_parts (job_id, payload_dictionary) VALUES (?, ?) ON CONFLICT (job_id) DO UPDATE SET payload_dictionary = excluded.payload_dictionary').run(job.id, dictionary);
        }
        const leaf = (i: number) => leaves.subarray(32 * i, 32 * (i + 1));
        const signature = (i: number) => signatures.subarray(64 * i, 64 * (i + 1));
        if (insert) {
          chunk.uids.forEach((uid, i) => insert.run(uid, job.partnerId, chunk.credentialIds[i], job.id, job.engine, stored + i, leaf(i), compressed![i], signature(i)));
        } else {
          insertChunkAtOnce(db, job, stored, chunk, (i) => [leaf(i), compressed![i]!, signature(i)]);
        }
      }),
    );
    stored += chunk.uids.length;
    faultPoint('after-certificate-chunk');
  };

  const queue: Chunk[] = [];
  for (;;) {
    const credentialIds = nextIds.all(job.id, after, size) as number[];
    if (credentialIds.length === 0) break;
    after = credentialIds[credentialIds.length - 1]!;
    const uids: string[] = [];
    const credentials = stage('read back', () => readCredentials(db, credentialIds));
    const payloads = stage('payload', () =>
      credentials.map((credential) => {
        const uid = uuidV7(ctx.clock.now());
        uids.push(uid);
        return canonicalJson(buildPayload(uid, partner, credential, { id: engine.id, chain_id: engine.chain_id ?? 0 }));
      }),
    );
    // The job's first payload is the dictionary its payloads are compressed with (payload-codec.ts).
    dictionary ??= Buffer.from(payloads[0]!, 'utf8');
    const signed = ctx.signer.sign(pkcs8, payloads, dictionary);
    signed.catch(() => undefined); // a failure is thrown where the chunk is written, not left unhandled
    queue.push({ uids, credentialIds, signed });
    if (queue.length >= IN_FLIGHT) await write(queue.shift()!);
  }
  while (queue.length > 0) await write(queue.shift()!);

  return stage('merkle', () => {
    const leaves = Buffer.alloc(32 * stored);
    let index = 0;
    for (const leaf of cached(db, 'SELECT leaf FROM certificates WHERE job_id = ? ORDER BY leaf_index').pluck().iterate(job.id) as IterableIterator<Buffer>) {
      leaf.copy(leaves, 32 * index++);
    }
    const { root, packed } = buildPackedMerkleTree(leaves);
    const rootHex = `0x${root.toString('hex')}`;
    inTransaction(db, () => {
      cached(db, 'INSERT INTO job_proof_parts (job_id, merkle_tree) VALUES (?, ?) ON CONFLICT (job_id) DO UPDATE SET merkle_tree = excluded.merkle_tree').run(job.id, packed);
      cached(db, 'UPDATE jobs SET root = ? WHERE id = ?').run(rootHex, job.id);
    });
    return rootHex;
  });
}

/**
 * A chunk's certificates in one statement, on PostgreSQL: a statement per row would cost a round
 * trip to the server each (SQLite's per-row insert is a function call, and stays the fastest there).
 */
function insertChunkAtOnce(db: Db, job: { id: number; engine: string; partnerId: string }, first: number, chunk: Chunk, bytes: (i: number) => [Buffer, Buffer, Buffer]): void {
  const columns: [string[], string[], string[]] = [[], [], []];
  chunk.uids.forEach((_, i) => bytes(i).forEach((b, k) => columns[k]!.push(b.toString('hex'))));
  cached(
    db,
    `INSERT INTO certificates (uid, partner_id, credential_id, job_id, engine, leaf_index, leaf, payload, signature)
     SELECT t.uid, ?, t.credential_id, ?, ?, ? + t.n - 1, decode(t.leaf, 'hex'), decode(t.payload, 'hex'), decode(t.signature, 'hex')
     FROM unnest(CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[])) WITH ORDINALITY AS t(uid, credential_id, leaf, payload, signature, n)`,
  ).run(job.partnerId, job.id, job.engine, first, arrayParameter(chunk.uids), arrayParameter(chunk.credentialIds), ...columns.map((column) => arrayParameter(column)));
}

/**
 * Credentials per chunk for `count` credentials and `threads` signer threads: a share per
 * thread, at most CHUNK and at least MIN_CHUNK.
 */
export function chunkSize(count: number, threads: number): number {
  return Math.min(CHUNK, Math.max(MIN_CHUNK, Math.ceil(count / threads)));
}
