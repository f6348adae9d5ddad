/**
 * The offline part of verifying one proof file, as a plain value: read and parse it, check its
 * shape, hash its certificate (the leaf), follow its Merkle path to a root and check the
 * issuer's signature. Verifying many proofs does this on worker threads
 * (verify-offline-worker.ts) and keeps only the chain reads on the main thread; a few proofs do
 * it on the calling thread. Either way the steps then run through verifyChecked with these
 * values, so the results are those of verifyProof.
 */
import { isServiceError, ServiceError } from '../../../common/errors.js';
import { looksLikeCredential } from '../vc/credential-kind.js';
import type { MerklePairMemo } from './merkle-tree.js';
import type { ProofFile } from './proof-file.js';
import { offlineChecksOf, type OfflineChecks, type ProofCore } from './verify-proof.js';
import { validateProofFile } from './verify-proof-shape.js';
import { MAX_PROOF_FILE_BYTES, parseProofText, readProofFile } from './verify-read-proof.js';

/** A proof to check: a file by its path, or bytes already in memory (named by `path` in messages). */
export type OfflineInput = { path: string; bytes?: Uint8Array };

/** A computation's value, or the message of what it threw. */
export type Fact<T> = { value: T } | { error: string };

export type OfflineOutcome =
  /** Not read or not JSON: the reader's message (it names the file by `path`). */
  | { kind: 'unreadable'; reason: string }
  /** JSON but not a valid proof: the shape check's message, and its files' hashes when it lists them. */
  | { kind: 'invalid'; reason: string; fileHashes: string[] | null }
  | { kind: 'checked'; core: ProofCore; leaf: Fact<string>; root: Fact<string>; signature: Fact<boolean> }
  /** A Verifiable Credential (main/engine/vc/verify-credential.ts verifies it), parsed. */
  | { kind: 'credential'; value: unknown };

function fact<T>(compute: () => T): Fact<T> {
  try {
    return { value: compute() };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The hashes a parsed file lists as its credential's files, when it has that shape (to match originals). */
function fileHashesOf(value: unknown): string[] | null {
  const files = (value as { certificate?: { credential?: { files?: unknown } } } | null)?.certificate?.credential?.files;
  if (!Array.isArray(files) || !files.every((f) => typeof f === 'object' && f !== null)) return null;
  return files.map((f: { file_hash?: unknown }) => f.file_hash as string);
}

/** Only what the steps and a result row read (verify-proof.ts ProofCore). */
function coreOf(p: ProofFile): ProofCore {
  const c = p.certificate;
  return {
    certificate: {
      uid: c.uid,
      partner: { name: c.partner.name, address: c.partner.address },
      engine: { id: c.engine.id, chain_id: c.engine.chain_id },
      credential: { title: c.credential.title, expiry_date: c.credential.expiry_date, files: c.credential.files.map((f) => ({ file_hash: f.file_hash })) },
    },
    issued_date: p.issued_date,
    leaf: p.leaf,
    root: p.root,
    chain: p.chain,
    issuer: p.issuer,
  };
}

/** Bytes received for a file, parsed as readProofFile parses the file (its size limit too). */
function parseBytes(bytes: Uint8Array, path: string): unknown {
  if (bytes.length > MAX_PROOF_FILE_BYTES) throw new ServiceError('invalid_value', `${path} is ${bytes.length} bytes; a proof file is at most ${MAX_PROOF_FILE_BYTES} bytes, so this is not one`);
  return parseProofText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), path);
}

/**
 * Reads and checks one proof offline (synchronously: a worker does many in a row). `memo` (one
 * per batch) hashes each pair of a job's tree once for the batch's proofs: the same roots.
 */
export function checkOffline(input: OfflineInput, memo?: MerklePairMemo): OfflineOutcome {
  let parsed: unknown;
  try {
    parsed = input.bytes ? parseBytes(input.bytes, input.path) : readProofFile(input.path);
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return { kind: 'unreadable', reason: error.message };
  }
  if (looksLikeCredential(parsed)) return { kind: 'credential', value: parsed };
  let p: ProofFile;
  try {
    p = validateProofFile(parsed);
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return { kind: 'invalid', reason: error.message, fileHashes: fileHashesOf(parsed) };
  }
  const checks = offlineChecksOf(p);
  return {
    kind: 'checked',
    core: coreOf(p),
    leaf: fact(() => checks.leaf()),
    root: fact(() => (memo ? memo.rootFromHexPath(p.leaf, p.merkle_path, true) : checks.certificateRoot())),
    signature: fact(() => checks.signature() as boolean),
  };
}

/** The checks of a `checked` outcome, for verifyChecked: each gives its value or throws its error. */
export function checksOf(outcome: Extract<OfflineOutcome, { kind: 'checked' }>): OfflineChecks {
  const take = <T>(f: Fact<T>) => () => {
    if ('error' in f) throw new Error(f.error);
    return f.value;
  };
  return { leaf: take(outcome.leaf), certificateRoot: take(outcome.root), signature: take(outcome.signature) };
}
