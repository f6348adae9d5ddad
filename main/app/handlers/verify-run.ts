/**
 * One verification run of the Verify view: the proofs of a drop verified in main the way
 * `verify DIR` does it (one core, main/engine/proofs/verify-many.ts: the chains connected once
 * per run and their shared reads asked once, revocations in JSON-RPC batches, Ed25519 on worker
 * threads in packed batches, many proofs at once), each result appended to the run's rows as it
 * completes; the page reads them a window at a time as (throttled) progress events arrive.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync } from 'node:fs';
import { isServiceError } from '../../../common/errors.js';
import type { StepReasonCode, UnmatchedOriginal, VerifiedCredential, VerifyRow, VerifyRunSummary } from '../../../common/ipc/verify.js';
import type { TaskContext } from '../../../common/tasks.js';
import { VERIFICATION_STATUSES, VERIFICATION_STEP_NAMES, type VerificationResult, type VerificationStatus, type VerificationStepKey } from '../../../common/wire-types.js';
import { VerifyChains } from '../../engine/proofs/verify-chains.js';
import { EngineCatalog } from '../../engine/engine-catalog.js';
import type { ProofFile } from '../../engine/proofs/proof-file.js';
import { OFFLINE_POOL_FROM, openVerifyingRun, type VerifyingRun } from '../../engine/proofs/verify-many.js';
import { warmOfflinePool } from '../../engine/proofs/verify-offline-pool.js';
import { checksOf, type OfflineOutcome } from '../../engine/proofs/verify-offline.js';
import { verifyChecked, type ProofCore, type VerifyOptions } from '../../engine/proofs/verify-proof.js';
import { validateProofFile } from '../../engine/proofs/verify-proof-shape.js';
import { readProofFile } from '../../engine/proofs/verify-read-proof.js';
import { credentialFileHashes, credentialSummary } from '../../engine/vc/credential-kind.js';
import { credentialVerifier } from '../../engine/vc/load-vc.js';
import { notApplicableSummary } from '../../engine/vc/verify-foreign.js';
import { takeReceived } from '../../workspace/verify/received-proofs.js';
import { collectDrop, originalNameOf, type DroppedFile } from './verify-drop.js';
import { hashFile } from '../../files/hash-file.js';

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function emptyCounts(): Record<VerificationStatus, number> {
  return Object.fromEntries(VERIFICATION_STATUSES.map((s) => [s, 0])) as Record<VerificationStatus, number>;
}

/**
 * The first step that did not pass, and its reason in words. When all that apply passed, the
 * steps that do not apply (another issuer's credential: no anchor) say why, with no step named.
 */
function worstStep(result: VerificationResult): { step: string; reason: string; reason_code: StepReasonCode | null } {
  const steps = Object.values(result.verification);
  const worst = steps.find((s) => s.status === 'failed' || s.status === 'error') ?? steps.find((s) => s.status === 'pending');
  if (!worst) return { step: '', reason: notApplicableSummary(result), reason_code: null };
  return { step: worst.name, reason: stepReason(worst.name, worst.status, worst.description), reason_code: stepReasonCode(worst.name, worst.status, worst.description) };
}

/** A step's reason as a code the window words in its language; null for the verifier's own sentence. */
export function stepReasonCode(name: string, status: string, description: Record<string, unknown>): StepReasonCode | null {
  if (typeof description.reason === 'string') return null;
  if (status === 'passed') return { id: 'passed' };
  if (status === 'not_started') return { id: 'notChecked' };
  if (status === 'pending') return name.includes('anchored') ? { id: 'unconfirmed', confirmations: Number(description.confirmations ?? 0) } : { id: 'waiting' };
  const key = (Object.keys(VERIFICATION_STEP_NAMES) as VerificationStepKey[]).find((k) => VERIFICATION_STEP_NAMES[k] === name);
  if (key === 'expiry') return { id: 'expired', date: String(description.expiry_date) };
  if (key === 'revocation') return { id: 'revoked', date: String(description.revocation_date) };
  return key ? { id: key } : { id: 'other', status };
}

/** A plain-language reason for a step's status (the verifier's own, or one written for the step). */
export function stepReason(name: string, status: string, description: Record<string, unknown>): string {
  if (typeof description.reason === 'string') return description.reason;
  if (status === 'passed') return 'Passed.';
  if (status === 'not_started') return 'Not checked: an earlier step failed.';
  if (status === 'pending') return name.includes('anchored') ? `Not confirmed yet: ${String(description.confirmations ?? 0)} confirmation(s) so far.` : 'Waiting for the chain.';
  switch (name) {
    case 'Checking certificate integrity':
      return 'The certificate was changed after it was signed: its content does not hash to the proof’s leaf.';
    case 'Checking certificate is anchored to the blockchain':
      return 'The proof’s root is not anchored on its chain by its transaction, or the registry is not the issuer’s.';
    case 'Checking issuer authenticity':
      return 'The issuer’s signature does not match the certificate.';
    case 'Checking file integrity':
      return 'The original file given is not the file this credential was issued for (its hash differs).';
    case 'Checking expiry date':
      return `The credential expired on ${String(description.expiry_date)}.`;
    case 'Checking revocation date':
      return `The credential was revoked on ${String(description.revocation_date)}.`;
    default:
      return `This step ${status}.`;
  }
}

/** What a proof says about its credential (all from the proof; nothing of the Partner's data). */
export function credentialOf(proof: ProofFile, result: VerificationResult | null): VerifiedCredential {
  const c = proof.certificate;
  const txUrl = result?.verification.blockchain.description.tx_url;
  return {
    certificate_uid: c.uid,
    credential_uid: c.credential.uid,
    title: c.credential.title,
    metadata: c.credential.metadata as Record<string, unknown>,
    issuer_name: c.partner.name,
    issuer_address: c.partner.address,
    issuer_public_key: proof.issuer.public_key,
    upload_date: c.credential.upload_date,
    issued_date: proof.issued_date,
    expiry_date: c.credential.expiry_date,
    files: c.credential.files.map((f) => ({ file_hash: f.file_hash, file_type: f.file_type ?? '' })),
    engine: proof.chain.engine,
    chain_id: proof.chain.chain_id,
    transaction_id: proof.chain.transaction_id,
    transaction_url: typeof txUrl === 'string' ? txUrl : proof.chain.explorer_tx_url,
  };
}

export interface VerifyRunOptions {
  /** The data directory whose chains and engines are read (never created, never owned). */
  dataDir: string;
  /** The user's own endpoint per engine (the view's setting). */
  endpoints: Record<string, string>;
  /** The embedded engine's verify options (its own chains), when the app has an engine. */
  engineOptions?: VerifyOptions;
  /** Fetch the status lists credentials name (the view's switch; default off). */
  network?: boolean;
}

/** A run: its rows in completion order, each row's result and proof for the detail. */
export class VerifyRun {
  readonly id = randomUUID();
  readonly rows: VerifyRow[] = [];
  readonly results: (VerificationResult | null)[] = [];
  /** Each verified row's file (its proof is read again for the detail), null for the others. */
  private readonly files: (DroppedFile | null)[] = [];
  /** Indices of the rows that are not ok, for the failures filter. */
  readonly failures: number[] = [];
  readonly counts = emptyCounts();
  readonly summary: VerifyRunSummary;
  /** Hashes of the originals dropped, by name. */
  readonly originalHashes = new Map<string, string>();
  /** Where each dropped original is, by name (for "Which credential is this?"). */
  readonly originalPaths = new Map<string, string>();
  private readonly asked = new Map<string, string>();

  constructor(
    taskId: string,
    private readonly options: VerifyRunOptions,
  ) {
    this.summary = { run_id: this.id, task_id: taskId, total: 0, done: 0, counts: this.counts, unmatched_originals: [], skipped: [], endpoints: [], started_at: new Date().toISOString(), finished_at: null, state: 'running' };
  }

  setTask(taskId: string): void {
    this.summary.task_id = taskId;
  }

  /** Collects, matches and verifies; `task` reports progress and carries the cancel. */
  async run(paths: string[], task: TaskContext): Promise<VerifyRunSummary> {
    try {
      await this.work(paths, task);
      this.summary.state = task.signal.aborted ? 'cancelled' : 'done';
    } catch (error) {
      this.summary.state = 'failed';
      throw error;
    } finally {
      this.summary.finished_at = new Date().toISOString();
      this.summary.endpoints = [...this.asked.entries()].map(([engine, endpoint]) => ({ engine, endpoint }));
    }
    return this.summary;
  }

  private async work(paths: string[], task: TaskContext): Promise<void> {
    // A folder or many files: the proof-checking workers boot while the drop is listed.
    if (paths.length >= OFFLINE_POOL_FROM || paths.some(isFolder)) warmOfflinePool();
    const drop = collectDrop(paths);
    this.summary.total = drop.proofs.length;
    this.summary.skipped = drop.skipped;
    task.progress(0, drop.proofs.length);

    const byName = new Map(drop.originals.map((o) => [o.name, o]));
    const byBase = new Map<string, DroppedFile | null>();
    for (const o of drop.originals) {
      const base = o.name.split('/').pop()!;
      byBase.set(base, byBase.has(base) ? null : o);
    }
    const byHash = new Map<string, DroppedFile>();
    for (const o of drop.originals) {
      const hash = (await hashFile(o.path)).sha256;
      this.originalHashes.set(o.name, hash);
      this.originalPaths.set(o.name, o.path);
      if (!byHash.has(hash)) byHash.set(hash, o);
    }
    const used = new Set<string>();

    // In the browser the bridge received these files and has been checking them since: taken
    // from there, not read back. The others are checked now (on the run's workers when many).
    const early = drop.proofs.map((file) => takeReceived(file.path));
    const rest = drop.proofs.flatMap((file, i) => (early[i] ? [] : [i]));
    const { run, close } = this.chains(rest.length);
    try {
      const later = run.checkAll(rest.map((i) => ({ path: drop.proofs[i]!.path })));
      const position = new Map(rest.map((i, k) => [i, k]));
      const outcome = (i: number) => early[i] ?? later(position.get(i)!);
      await run.each(
        drop.proofs.length,
        async (i) => {
          const file = drop.proofs[i]!;
          await this.verifyOne(file, await outcome(i), run.options, (fileHashes) => {
            const wanted = originalNameOf(file.name);
            const named = wanted === null ? undefined : (byName.get(wanted) ?? byBase.get(wanted.split('/').pop()!) ?? undefined);
            if (named) return { original: named, by: 'name' as const };
            const hashed = fileHashes?.map((h) => byHash.get(h)).find((o) => o !== undefined);
            return hashed ? { original: hashed, by: 'hash' as const } : null;
          }, used);
          task.progress(this.rows.length);
        },
        task.signal,
      );
    } finally {
      await close();
    }
    this.summary.unmatched_originals = drop.originals.filter((o) => !used.has(o.name)).map((o): UnmatchedOriginal => ({ name: o.name, file_hash: this.originalHashes.get(o.name)! }));
  }

  private async verifyOne(
    file: DroppedFile,
    outcome: OfflineOutcome,
    options: VerifyOptions,
    match: (fileHashes: string[] | null) => { original: DroppedFile; by: 'name' | 'hash' } | null,
    used: Set<string>,
  ): Promise<void> {
    let proof: ProofCore | null = null;
    let result: VerificationResult | null = null;
    let reason = '';
    let found: { original: DroppedFile; by: 'name' | 'hash' } | null = null;
    // A Verifiable Credential's row: what the credential says of itself.
    let summary: { uid: string; title: string; issuer: string; engine: string } | null = null;
    if (outcome.kind === 'unreadable') {
      // The reader names the file by its path; the row already names it (and a temp path means nothing).
      const text = outcome.reason.split(file.path).join('this file');
      reason = text.startsWith('this file is not a proof file: ') ? `Not a proof file: ${text.slice('this file is not a proof file: '.length)}` : `Not a proof file: ${text}`;
    } else if (outcome.kind === 'credential') {
      summary = credentialSummary(outcome.value);
      found = match(credentialFileHashes(outcome.value));
      if (found) used.add(found.original.name);
      try {
        result = await (await credentialVerifier())(outcome.value, { ...options, originalFileHash: found ? this.originalHashes.get(found.original.name) : undefined });
      } catch (error) {
        if (!isServiceError(error)) throw error;
        reason = error.message;
      }
    } else {
      found = match(outcome.kind === 'checked' ? outcome.core.certificate.credential.files.map((f) => f.file_hash) : outcome.fileHashes);
      if (found) used.add(found.original.name);
      if (outcome.kind === 'invalid') reason = outcome.reason;
      else {
        try {
          result = await verifyChecked(outcome.core, checksOf(outcome), { ...options, originalFileHash: found ? this.originalHashes.get(found.original.name) : undefined });
          proof = outcome.core;
        } catch (error) {
          if (!isServiceError(error)) throw error;
          reason = error.message;
        }
      }
    }
    const certificate = proof?.certificate;
    const worst = result ? worstStep(result) : { step: '', reason, reason_code: null };
    const row: VerifyRow = {
      index: this.rows.length,
      name: file.name,
      original: found?.original.name ?? null,
      matched_by: found?.by ?? null,
      certificate_uid: certificate?.uid ?? summary?.uid ?? '',
      title: certificate?.credential.title ?? summary?.title ?? '',
      issuer: certificate?.partner.name ?? summary?.issuer ?? '',
      engine: proof?.chain.engine ?? summary?.engine ?? '',
      result: result?.result.status ?? 'error',
      step: worst.step,
      reason: worst.reason,
      reason_code: worst.reason_code,
    };
    this.rows.push(row);
    this.results.push(result);
    this.files.push(result ? file : null);
    this.counts[row.result]++;
    this.summary.done = this.rows.length;
    if (row.result !== 'ok') this.failures.push(row.index);
  }

  /**
   * The proof of a verified row, read again for its detail (the run keeps only what its rows
   * need); null when the row is not a verified proof or its file is gone or changed since.
   */
  proofOf(index: number): ProofFile | null {
    const file = this.files[index];
    if (!file) return null;
    try {
      const proof = validateProofFile(readProofFile(file.path));
      return proof.leaf === this.results[index]?.verification.certificate.description.expected_hash ? proof : null;
    } catch {
      return null;
    }
  }

  /**
   * The run's chains: the user's endpoint per engine; else, in the app, the embedded engine's
   * own chains (it owns the local chain in this very process, which `verify` would not use);
   * else (remote mode) what `verify` would ask.
   */
  private chains(count: number): { run: VerifyingRun; close: () => Promise<void> } {
    const { dataDir, endpoints, engineOptions } = this.options;
    const fallback = engineOptions ? null : new VerifyChains({ dataDir });
    const base = engineOptions ?? fallback!.verifyOptions();
    const own = new Map(Object.entries(endpoints).map(([engine, rpcUrl]) => [engine, new VerifyChains({ dataDir, rpcUrl })]));
    const catalog = existsSync(dataDir) ? EngineCatalog.load(dataDir) : new EngineCatalog();
    const run = openVerifyingRun(
      {
        ...base,
        // The user's endpoint for `local` is their choice: the genesis hash decides, not the installation.
        localInstallationId: own.has('local') ? undefined : base.localInstallationId,
        originalFileHash: undefined,
        network: this.options.network === true,
        // Asked once per engine and chain id (the run keeps what it answers).
        chainFor: (engine, chainId) => {
          const chosen = own.get(engine);
          const configured = catalog.find(engine)?.rpc_url;
          this.asked.set(engine, chosen ? endpoints[engine]! : engine === 'local' ? `the local chain of ${dataDir}` : (configured ?? 'none configured'));
          return (chosen ? chosen.verifyOptions() : base).chainFor(engine, chainId);
        },
      },
      count,
    );
    return { run, close: async () => void (await Promise.all([run.close(), fallback?.close(), ...[...own.values()].map((c) => c.close())])) };
  }
}

