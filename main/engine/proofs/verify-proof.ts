/**
 * Verification of a proof file (DESIGN.md "Verification", the spec's "Verification result" and
 * "Verification statuses"): six steps in the spec's order, the first failure stopping the run.
 * Certificate integrity, issuer authenticity, file integrity and expiry never touch the network;
 * anchoring and revocation ask the proof's chain through a ChainReader, and are `pending` — never
 * passed by assumption — when that chain cannot be asked. The format and every check are
 * documented in docs/proof-file.md.
 *
 * @example
 * const client = await ChainClient.connect({ rpcUrl, chainId: 31337 });
 * const result = await verifyProof(JSON.parse(text), {
 *   chainFor: (engine, chainId) => (engine === 'local' && chainId === client.chainId ? chainReaderFor(client) : undefined),
 * });
 */
import { ServiceError } from '../../../common/errors.js';
import { parseIsoDate } from '../../../common/validate.js';
// The error classes straight from errors.ts, and the calldata encoder on first use: checking a
// proof offline must not load the chain client (viem), which costs more than the checks.
import type { Address, Hex, RegistryInfo, TransactionReceiptSummary } from '../../chain/index.js';
import { ChainUnreachableError, RegistryNotFoundError } from '../../chain/errors.js';
import {
  VERIFICATION_STEP_KEYS,
  VERIFICATION_STEP_NAMES,
  type StepStatus,
  type VerificationResult,
  type VerificationStatus,
  type VerificationStep,
  type VerificationStepKey,
} from '../../../common/wire-types.js';
import type { FinalityRule } from '../finality.js';
import { leafOf } from './certificate-payload.js';
import { LOCAL_CHAIN_ELSEWHERE } from './chain-identity.js';
import { verifySignature } from './ed25519.js';
import { rootFromHexPath } from './merkle-tree.js';
import type { ProofFile } from './proof-file.js';
import { keptUnlessThrown, readAnchoring, thrownOf } from './verify-anchoring.js';
import { validateProofFile } from './verify-proof-shape.js';

/** The recipient and calldata of a transaction. */
export interface ChainTransaction {
  /** null for a contract creation. */
  to: Address | null;
  input: Hex;
}

/**
 * What verification reads on a chain: the subset of ChainClient it needs (the transaction's
 * recipient and calldata included). `chainReaderFor(client)` (verify-chain-reader.ts) makes one
 * from a ChainClient; tests substitute methods to provoke errors. Methods throw
 * ChainUnreachableError when the chain does not answer, RegistryNotFoundError from readRegistry
 * when no registry is at the address.
 */
export interface ChainReader {
  /** The chain id the reader's endpoint serves. */
  readonly chainId: number;
  readRegistry(address: Address): Promise<RegistryInfo>;
  /** Unix seconds at which `root` was issued on the registry; 0n when never. */
  issuedAt(address: Address, root: Hex): Promise<bigint>;
  /** Unix seconds at which `hash` (a leaf or a root) was revoked on the registry; 0n when never. */
  revokedAt(address: Address, hash: Hex): Promise<bigint>;
  /** The receipt of a mined transaction; null when it is not mined or unknown. */
  getReceipt(hash: Hex): Promise<TransactionReceiptSummary | null>;
  /** Blocks including the transaction (1 = just mined); 0 when not mined. */
  confirmations(hash: Hex): Promise<number>;
  blockTimestamp(blockNumber: bigint): Promise<Date>;
  /** The transaction's recipient and calldata; null when the node does not know it. */
  getTransaction(hash: Hex): Promise<ChainTransaction | null>;
  /** Transactions the account has had mined (its next nonce on chain). Absent: a missing registry is never taken for a reorganised one. */
  transactionCount?(address: Address): Promise<number>;
  /** The chain's latest final block (`finalized` tag); null when the node does not serve the tag. Absent: the depth decides. */
  finalizedBlockNumber?(): Promise<bigint | null>;
  /** The hash of block 0 (0x hex); without it a proof's `chain.genesis_hash` is not compared. */
  genesisHash?(): Promise<string>;
}

/** Why the proof's chain cannot be asked: the chain steps are `pending` with this reason. */
export interface ChainUnavailable {
  reason: string;
}

export interface VerifyOptions {
  /**
   * The chain to ask for the proof's engine and chain id; undefined when it cannot be reached or
   * is unknown → the chain steps are `pending` with the reason. May return a promise (to connect
   * lazily); a ChainUnreachableError it throws also makes the chain steps `pending`.
   */
  chainFor(engine: string, chainId: number): ChainReader | ChainUnavailable | undefined | Promise<ChainReader | ChainUnavailable | undefined>;
  /**
   * The installation whose local chain `chainFor` gives for the `local` engine; null when this
   * machine has none. A local-chain proof naming another installation is then `pending` (that
   * chain exists only on the issuer's machine) without asking any chain. Undefined: no such check
   * (the chain was given explicitly, e.g. `verify --rpc URL`; the genesis hash decides).
   */
  localInstallationId?: string | null;
  /** When the engine's blocks are final (default: 1 confirmation). */
  finality?(engine: string, chainId: number): FinalityRule;
  /** The original file's bytes' SHA-256 (hex), when the verifier has the file. */
  originalFileHash?: string | undefined;
  /**
   * Checks an Ed25519 signature (default: verifySignature on this thread). `verify DIR` passes a
   * pool of worker threads: the signature is the costliest offline check.
   */
  checkSignature?(publicKeyHex: string, message: Buffer, signature: Buffer): boolean | Promise<boolean>;
  /**
   * Checks a Verifiable Credential's Data Integrity proof (default: on this thread). Verifying
   * many passes worker threads (vc-pool.ts): it is a credential's costliest check by far.
   */
  checkDataIntegrity?(credential: Record<string, unknown>): Promise<boolean>;
  /**
   * Whether a Verifiable Credential's verification may fetch what it names on the network (its
   * credentialStatus's status list); default false: nothing is fetched.
   */
  network?: boolean;
  /** Explorer URL templates: tx `{tx}`, address `{address}`; null when none. */
  explorer?(engine: string): { tx: string | null; address: string | null };
  now?: () => Date;
  /**
   * Shares a chain computation between the proofs of one run (verify-many.ts): `compute` once
   * per `key`, a rejection not kept. The key names every input the computation reads, so each
   * proof gets what it would have computed alone. Absent: each proof computes its own.
   */
  share?<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

export { VERIFICATION_STEP_NAMES };

/** The spec's description fields, per step. `reason` only on a chain step pending for lack of a chain. */
export interface CertificateStepDescription {
  hash_function: 'SHA-256';
  actual_hash: string | null;
  expected_hash: string;
}
export interface BlockchainStepDescription {
  actual_root: string | null;
  certificate_root: string | null;
  tx_id: string;
  tx_url: string | null;
  /** Confirmations of the transaction as a decimal string; "0" until they were read. */
  confirmations: string;
  reason?: string;
  /** Where the chain holds the transaction now, when that is not the proof's date (a reorganisation moved it). */
  block_number?: string;
  block_date?: string;
}
export interface IssuerStepDescription {
  issuer_name: string;
  signature_scheme: 'Ed25519';
  partner_public_key: string;
  message: string;
  signature: string;
}
export interface FileStepDescription {
  hash_function: 'SHA-256';
  /** The credential's file hashes joined by "," in the credential's order; null when it has none. */
  expected_file_hash: string | null;
  /** The original file's hash as given; null when no file was given. */
  actual_file_hash: string | null;
}
export interface ExpiryStepDescription {
  issued_date: string;
  expiry_date: string | null;
}
export interface RevocationStepDescription {
  /** true only when the step found a revocation (false also when it did not run or was pending). */
  is_revoked: boolean;
  revocation_address: string;
  revocation_address_url: string | null;
  revocation_date: string | null;
  reason?: string;
}

type Outcome = 'passed' | 'failed' | 'pending';

interface StepDefinition<D> {
  describe(): D;
  /** The offline steps answer at once; only the chain steps wait (a run of 10,000 proofs makes 40,000 promises less). */
  run(description: D): Outcome | Promise<Outcome>;
}

type ChainAccess = { reader: ChainReader } | { reason: string };

const OFFLINE_STEPS: readonly VerificationStepKey[] = ['certificate', 'blockchain', 'issuer', 'file'];
const SHA256_ANY_CASE = /^[0-9a-fA-F]{64}$/;

function fill(template: string | null | undefined, placeholder: string, value: string): string | null {
  return typeof template === 'string' ? template.split(placeholder).join(value) : null;
}

/** The final status from the step statuses (the spec's "derived from the step statuses"). */
export function resultStatus(verification: Record<VerificationStepKey, VerificationStep>): VerificationStatus {
  const statuses = VERIFICATION_STEP_KEYS.map((k) => verification[k].status);
  if (statuses.includes('error')) return 'error';
  if (OFFLINE_STEPS.some((k) => verification[k].status === 'failed')) return 'failed';
  if (verification.expiry.status === 'failed') return 'expired';
  if (verification.revocation.status === 'failed') return 'revoked';
  if (statuses.includes('pending')) return 'pending';
  return 'ok';
}

/**
 * Verifies a proof file. Throws ServiceError('invalid_value') when `proof` is not a proof file of
 * format `proofdesk-proof/1` (naming the first bad field) or `originalFileHash` is not a SHA-256
 * hex; every other outcome, including chain failures, is in the result.
 */
export async function verifyProof(proof: unknown, options: VerifyOptions): Promise<VerificationResult> {
  const p = validateProofFile(proof);
  return verifyChecked(p, offlineChecksOf(p, options.checkSignature), options);
}

/**
 * The parts of a proof file the six steps read once its offline computations are done: what
 * verifying many proofs hands back from a worker thread (verify-offline-worker.ts), far smaller
 * than the proof (no metadata, no Merkle path). A ProofFile is one.
 */
export interface ProofCore {
  certificate: {
    uid: string;
    partner: { name: string; address: string };
    engine: { id: string; chain_id: number };
    credential: { title: string; expiry_date: string | null; files: { file_hash: string }[] };
  };
  issued_date: string;
  leaf: string;
  root: string;
  chain: ProofFile['chain'];
  issuer: ProofFile['issuer'];
}

/**
 * The offline computations of the steps: the certificate's leaf (hex), the root its Merkle path
 * leads to (hex), and whether the issuer's signature holds. Each may throw (the step is then
 * `error` with the message). Computed here on first use, or handed in already done.
 */
export interface OfflineChecks {
  leaf(): string;
  certificateRoot(): string;
  signature(): boolean | Promise<boolean>;
}

/** The offline computations of `p`, each done on first use (on this thread; the signature by `check`). */
export function offlineChecksOf(p: ProofFile, check: VerifyOptions['checkSignature'] = verifySignature): OfflineChecks {
  return {
    leaf: () => leafOf(p.certificate).toString('hex'),
    certificateRoot: () => rootFromHexPath(p.leaf, p.merkle_path),
    signature: () => check(p.issuer.public_key, Buffer.from(p.leaf, 'hex'), Buffer.from(p.issuer.signature, 'hex')),
  };
}

/**
 * The six steps of a proof already checked for shape (validateProofFile), with its offline
 * computations `checks`. verifyProof is this with the checks done on this thread.
 */
export async function verifyChecked(p: ProofCore, checks: OfflineChecks, options: VerifyOptions): Promise<VerificationResult> {
  const original = options.originalFileHash;
  if (original !== undefined && (typeof original !== 'string' || !SHA256_ANY_CASE.test(original))) {
    throw new ServiceError('invalid_value', 'The original file hash must be a SHA-256 hash as 64 hex digits');
  }
  const originalHash = original?.toLowerCase();
  const now = (options.now ?? (() => new Date()))();
  const steps = defineSteps(p, checks, options, originalHash, now);

  const verification = {} as Record<VerificationStepKey, VerificationStep>;
  let stopped = false;
  for (const key of VERIFICATION_STEP_KEYS) {
    const step = steps[key] as StepDefinition<Record<string, unknown>>;
    const description = step.describe();
    let status: StepStatus = 'not_started';
    if (!stopped) {
      try {
        const ran = step.run(description);
        status = typeof ran === 'string' ? ran : await ran;
      } catch (error) {
        if (error instanceof ChainUnreachableError) {
          status = 'pending';
          if (key === 'blockchain') description.actual_root = null;
          description.reason = error.shortMessage;
        } else {
          status = 'error';
          // Say why: an error without a reason leaves the reader nothing to act on.
          description.reason = `this step could not be completed: ${error instanceof Error ? error.message : String(error)}`;
        }
      }
      if (status === 'failed' || status === 'error') stopped = true;
    }
    verification[key] = { name: VERIFICATION_STEP_NAMES[key], description, status };
  }
  return { verification, result: { status: resultStatus(verification), timestamp: now.toISOString() } };
}

function defineSteps(p: ProofCore, checks: OfflineChecks, options: VerifyOptions, originalHash: string | undefined, now: Date): { [K in VerificationStepKey]: StepDefinition<unknown> } {
  const engine = p.chain.engine;
  const chainId = p.chain.chain_id;
  const registry = p.chain.registry_address as Address;
  const txId = p.chain.transaction_id as Hex;
  const root = `0x${p.root}` as Hex;
  const leaf = `0x${p.leaf}` as Hex;
  const explorer = options.explorer?.(engine);
  const fileHashes = p.certificate.credential.files.map((f) => f.file_hash);

  const share = options.share ?? (<T>(_key: string, compute: () => Promise<T>) => compute());
  // The date the chain says the root was issued, once the blockchain step read it (expiry reports it).
  let chainDate: string | undefined;
  // The chain is looked up once, for both chain steps (once per run for the proofs naming the
  // same chain: what it reads is all in the key).
  let access: Promise<ChainAccess> | undefined;
  const chain = (): Promise<ChainAccess> =>
    (access ??= share(JSON.stringify(['chain', engine, chainId, p.chain.installation_id ?? null, p.chain.genesis_hash ?? null]), async (): Promise<ChainAccess> => {
      const installation = p.chain.installation_id;
      const local = engine === 'local' && installation !== undefined;
      if (local && options.localInstallationId !== undefined && options.localInstallationId !== installation) return { reason: LOCAL_CHAIN_ELSEWHERE };
      const found = await options.chainFor(engine, chainId);
      if (!found) return { reason: `No chain is available for engine "${engine}" (chain id ${chainId})` };
      if ('reason' in found) return found;
      const reader = found;
      if (reader.chainId !== chainId) return { reason: `The chain available for engine "${engine}" has chain id ${reader.chainId}, not the proof's ${chainId}` };
      // The issuer's own local chain is the proof's whatever happened to it since; any other
      // chain must be the one the proof names (same chain id is not enough: every dev chain is 31337).
      const sameInstallation = local && options.localInstallationId === installation;
      const expected = p.chain.genesis_hash?.toLowerCase();
      if (!sameInstallation && expected !== undefined && reader.genesisHash) {
        const actual = (await reader.genesisHash()).toLowerCase();
        if (actual !== expected) {
          return {
            reason: local
              ? LOCAL_CHAIN_ELSEWHERE
              : `the chain reached for engine "${engine}" (chain id ${chainId}) is not the one this proof was anchored on: its genesis block is ${actual}, the proof's ${expected}`,
          };
        }
      }
      return { reader };
    }));

  const certificate: StepDefinition<CertificateStepDescription> = {
    describe: () => ({ hash_function: 'SHA-256', actual_hash: null, expected_hash: p.leaf }),
    run(d) {
      d.actual_hash = checks.leaf();
      return d.actual_hash === p.leaf ? 'passed' : 'failed';
    },
  };

  const blockchain: StepDefinition<BlockchainStepDescription> = {
    describe: () => ({ actual_root: null, certificate_root: null, tx_id: p.chain.transaction_id, tx_url: fill(explorer?.tx, '{tx}', p.chain.transaction_id), confirmations: '0' }),
    async run(d) {
      // Offline: the path must lead from the leaf to the root, on the chain the certificate names.
      d.certificate_root = checks.certificateRoot();
      if (d.certificate_root !== p.root) return 'failed';
      if (engine !== p.certificate.engine.id || chainId !== p.certificate.engine.chain_id) return 'failed';

      const found = await chain();
      if ('reason' in found) {
        d.reason = found.reason;
        return 'pending';
      }
      const finality = options.finality?.(engine, chainId) ?? { finalizedTag: false, confirmations: 1 };
      if (!Number.isSafeInteger(finality.confirmations) || finality.confirmations < 1) throw new TypeError(`finality.confirmations must be a positive integer, got ${finality.confirmations}`);
      // The proofs of one batch share all of it: asked once per run for them (verify-anchoring.ts).
      const key = JSON.stringify(['anchoring', engine, chainId, p.chain.installation_id ?? null, p.chain.genesis_hash ?? null, registry, txId, p.root, p.certificate.partner.address, p.issuer.public_key, finality]);
      const anchored = await share(key, () => readAnchoring({ reader: found.reader, registry, root, txId, partnerAddress: p.certificate.partner.address, publicKey: p.issuer.public_key, finality }).then(keptUnlessThrown)).catch(thrownOf);
      d.actual_root = anchored.actualRoot;
      d.confirmations = anchored.confirmations;
      if ('error' in anchored) throw anchored.error;
      if (anchored.reason !== undefined) d.reason = anchored.reason;
      chainDate = anchored.block?.date;
      if (anchored.block && Date.parse(anchored.block.date) !== Date.parse(p.issued_date)) {
        d.block_number = String(anchored.block.number);
        d.block_date = anchored.block.date;
      }
      return anchored.status;
    },
  };

  const issuer: StepDefinition<IssuerStepDescription> = {
    describe: () => ({
      issuer_name: p.certificate.partner.name,
      signature_scheme: p.issuer.signature_scheme,
      partner_public_key: p.issuer.public_key,
      message: p.leaf,
      signature: p.issuer.signature,
    }),
    run() {
      const valid = checks.signature();
      return typeof valid === 'boolean' ? (valid ? 'passed' : 'failed') : valid.then((v) => (v ? 'passed' : 'failed'));
    },
  };

  const file: StepDefinition<FileStepDescription> = {
    describe: () => ({ hash_function: 'SHA-256', expected_file_hash: fileHashes.length > 0 ? fileHashes.join(',') : null, actual_file_hash: originalHash ?? null }),
    run() {
      // Without the original file its bytes cannot be checked; the hashes themselves are covered
      // by the certificate step (they are part of the signed, anchored payload).
      if (originalHash === undefined) return 'passed';
      return fileHashes.includes(originalHash) ? 'passed' : 'failed';
    },
  };

  const expiry: StepDefinition<ExpiryStepDescription> = {
    describe: () => ({ issued_date: p.issued_date, expiry_date: p.certificate.credential.expiry_date }),
    run(d) {
      if (chainDate !== undefined) d.issued_date = chainDate;
      if (d.expiry_date === null) return 'passed';
      return parseIsoDate(d.expiry_date, 'certificate.credential.expiry_date') <= now.getTime() ? 'failed' : 'passed';
    },
  };

  const revocation: StepDefinition<RevocationStepDescription> = {
    describe: () => ({
      is_revoked: false,
      revocation_address: p.chain.registry_address,
      revocation_address_url: fill(explorer?.address, '{address}', p.chain.registry_address),
      revocation_date: null,
    }),
    async run(d) {
      const found = await chain();
      if ('reason' in found) {
        d.reason = found.reason;
        return 'pending';
      }
      // The leaf revokes this certificate, the root its whole batch.
      let read: bigint[];
      try {
        read = await Promise.all([found.reader.revokedAt(registry, leaf), found.reader.revokedAt(registry, root)]);
      } catch (error) {
        // Reached only when the blockchain step found the registry's deployment taken out by a
        // reorganisation (else that step failed first): nothing can be read from it until it is back.
        if (!(error instanceof RegistryNotFoundError)) throw error;
        d.reason = `the registry ${registry} is not on the chain now (a reorganisation)`;
        return 'pending';
      }
      const times = read.filter((t) => t > 0n);
      if (times.length === 0) return 'passed';
      const first = times.reduce((a, b) => (a < b ? a : b));
      d.is_revoked = true;
      d.revocation_date = new Date(Number(first) * 1000).toISOString();
      return 'failed';
    },
  };

  return { certificate, blockchain, issuer, file, expiry, revocation } as { [K in VerificationStepKey]: StepDefinition<unknown> };
}
