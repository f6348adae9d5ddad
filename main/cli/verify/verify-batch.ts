/**
 * `verify` of one proof, and of many in one process (`verify PROOF... | DIR`): the chains are
 * connected once for the whole run, the proofs are checked a few at a time, and the outcome is a
 * summary table (and with --report, one CSV row per proof).
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isServiceError } from '../../../common/errors.js';
import type { VerificationResult } from '../../../common/wire-types.js';
import { OFFLINE_POOL_FROM, openVerifyingRun } from '../../engine/proofs/verify-many.js';
import { warmOfflinePool } from '../../engine/proofs/verify-offline-pool.js';
import { checksOf, type OfflineOutcome } from '../../engine/proofs/verify-offline.js';
import { verifyChecked, verifyProof, type VerifyOptions } from '../../engine/proofs/verify-proof.js';
import { credentialSummary, looksLikeCredential } from '../../engine/vc/credential-kind.js';
import { credentialVerifier } from '../../engine/vc/load-vc.js';
import { notApplicableSummary } from '../../engine/vc/verify-foreign.js';
import type { CliContext } from '../context.js';
import { json, table } from '../output.js';
import { renderResult } from './render.js';
import { VerifyChains, type VerifyChainsOptions } from '../../engine/proofs/verify-chains.js';
import { csvField } from '../../../common/csv-field.js';

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Verifies one parsed proof file or Verifiable Credential and prints the result; exit 0 only when it is ok. */
export async function verifyOne(proof: unknown, originalFileHash: string | undefined, options: VerifyChainsOptions, asJson: boolean, ctx: CliContext): Promise<number> {
  const chains = new VerifyChains(options);
  try {
    const verifyOptions = chains.verifyOptions(originalFileHash);
    const result = looksLikeCredential(proof) ? await (await credentialVerifier())(proof, verifyOptions) : await verifyProof(proof, verifyOptions);
    ctx.stdout(asJson ? json(result) : renderResult(result));
    return result.result.status === 'ok' ? 0 : 1;
  } finally {
    await chains.close();
  }
}

/** The proof files of the arguments: files as given, directories' *.json files (sorted). */
export function proofPaths(args: string[]): string[] {
  const paths: string[] = [];
  for (const arg of args) {
    if (!isDirectory(arg)) {
      paths.push(arg);
      continue;
    }
    const names = readdirSync(arg, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
    paths.push(...names.map((name) => join(arg, name)));
  }
  return paths;
}

/** One proof's outcome in a batch. */
export interface BatchRow {
  path: string;
  certificate_uid: string;
  /** The result status, or `unreadable` for a file that is not a proof. */
  result: string;
  /** The first step that did not pass (failed, error, or pending). */
  step: string;
  reason: string;
}

function rowOf(path: string, proof: unknown, result: VerificationResult): BatchRow {
  const uid = (proof as { certificate?: { uid?: unknown } }).certificate?.uid;
  const steps = Object.values(result.verification);
  const worst = steps.find((s) => s.status === 'failed' || s.status === 'error') ?? steps.find((s) => s.status === 'pending');
  // All that applies passed: another issuer's credential says why the rest does not apply.
  const reason = worst ? (worst.description as { reason?: unknown }).reason : notApplicableSummary(result);
  return { path, certificate_uid: typeof uid === 'string' ? uid : '', result: result.result.status, step: worst?.name ?? '', reason: typeof reason === 'string' ? reason : '' };
}

/** A Verifiable Credential's row: its result, or `error` with the sentence saying why it cannot be verified. */
async function credentialRow(path: string, value: unknown, options: VerifyOptions): Promise<BatchRow> {
  const { uid } = credentialSummary(value);
  try {
    const result = await (await credentialVerifier())(value, options);
    return { ...rowOf(path, {}, result), certificate_uid: uid };
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return { path, certificate_uid: uid, result: 'error', step: '', reason: error.message };
  }
}

async function verifyOutcome(path: string, outcome: OfflineOutcome, options: VerifyOptions): Promise<BatchRow> {
  if (outcome.kind === 'credential') return credentialRow(path, outcome.value, options);
  // As readProofFile and verifyProof would have thrown: the file is not a proof.
  if (outcome.kind !== 'checked') return { path, certificate_uid: '', result: 'unreadable', step: '', reason: outcome.reason };
  return rowOf(path, outcome.core, await verifyChecked(outcome.core, checksOf(outcome), options));
}


/** Verifies many proofs in this one process; exit 0 only when every one is ok. */
export async function verifyBatch(args: string[], options: VerifyChainsOptions & { report?: string; json?: boolean }, ctx: CliContext): Promise<number> {
  // A folder or many files: the proof-checking workers boot while the folder is listed (as the app's drop does).
  if (args.length >= OFFLINE_POOL_FROM || args.some(isDirectory)) warmOfflinePool();
  const paths = proofPaths(args);
  if (paths.length === 0) {
    ctx.stderr(`No proof files (*.json) in ${args.join(', ')}`);
    return 1;
  }
  const chains = new VerifyChains(options);
  // The app's Verify view verifies the same way (main/engine/proofs/verify-many.ts).
  const run = openVerifyingRun(chains.verifyOptions(), paths.length);
  const rows: BatchRow[] = new Array(paths.length);
  const started = process.hrtime.bigint();
  try {
    const outcome = run.checkAll(paths.map((path) => ({ path })));
    await run.each(paths.length, async (i) => {
      rows[i] = await verifyOutcome(paths[i]!, await outcome(i), run.options);
    });
  } finally {
    await Promise.all([chains.close(), run.close()]);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.result, (counts.get(row.result) ?? 0) + 1);
  if (options.report !== undefined) {
    const lines = ['path,certificate_uid,result,step,reason', ...rows.map((r) => [r.path, r.certificate_uid, r.result, r.step, r.reason].map(csvField).join(','))];
    try {
      writeFileSync(options.report, `${lines.join('\r\n')}\r\n`);
    } catch (error) {
      // Name the file in the message: a full disk is about where the report was going.
      throw Object.assign(error as Error, { path: (error as { path?: string }).path ?? options.report });
    }
  }
  const ok = counts.get('ok') ?? 0;
  if (options.json) {
    ctx.stdout(json({ total: rows.length, seconds, counts: Object.fromEntries(counts), proofs: rows }));
  } else {
    const order = ['ok', 'pending', 'failed', 'expired', 'revoked', 'error', 'unreadable'];
    const summary = [...counts.entries()].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0])).map(([status, n]) => [status, String(n)]);
    ctx.stdout(table(['result', 'proofs'], [...summary, ['total', String(rows.length)]]));
    const notOk = rows.filter((r) => r.result !== 'ok');
    for (const r of notOk.slice(0, 20)) ctx.stdout(`${r.result}: ${r.path}${r.step ? ` at "${r.step}"` : ''}${r.reason ? ` (${r.reason})` : ''}`);
    if (notOk.length > 20) ctx.stdout(`… and ${notOk.length - 20} more${options.report === undefined ? ' (every one with --report FILE.csv)' : ` (every one in ${options.report})`}`);
    ctx.stdout(`${rows.length} proofs in ${seconds.toFixed(2)} s (${Math.round(rows.length / Math.max(seconds, 1e-9))}/s)${options.report !== undefined ? `; report: ${options.report}` : ''}`);
  }
  return ok === rows.length ? 0 : 1;
}
