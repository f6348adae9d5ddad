/**
 * Handlers of the Verify slice (common/ipc/verify.ts): a drop verified as a task (verify-run),
 * its rows a window at a time, one row's steps, the audit report, the user's endpoints per
 * engine (kept in the data directory as verify-endpoints.json), whether credentials' status
 * lists may be fetched (off at each start), and "Which credential is this?"
 * for an original dropped without its proof (the spec's verify by file).
 */
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from '../../../common/errors.js';
import type { OriginalMatch, VerifyEndpoint, VERIFY_IPC } from '../../../common/ipc/verify.js';
import { VERIFICATION_STEP_KEYS } from '../../../common/wire-types.js';
import type { AppContext } from '../app-context.js';
import { warmOfflinePool } from '../../engine/proofs/verify-offline-pool.js';
import { certificatesOfFile } from '../../engine/index.js';
import type { HandlersOf } from './handlers-of.js';
import { verifyReport } from './verify-report.js';
import { credentialOf, stepReason, stepReasonCode, VerifyRun } from './verify-run.js';

/** Runs kept for their rows and reports (a run of 10,000 proofs is a few tens of MB). */
const KEEP_RUNS = 5;
export const ENDPOINTS_FILE = 'verify-endpoints.json';

/** `Verifying 1,000 proof files`: also the progressbar's accessible name. */
export function verifyingLabel(count: number | null): string {
  return count === null ? 'Verifying proof files' : `Verifying ${count.toLocaleString('en-US')} proof file${count === 1 ? '' : 's'}`;
}

function readEndpoints(dataDir: string | null): Record<string, string> {
  if (dataDir === null) return {};
  try {
    const raw = JSON.parse(readFileSync(join(dataDir, ENDPOINTS_FILE), 'utf8')) as unknown;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
    return Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

function listOf(endpoints: Record<string, string>): VerifyEndpoint[] {
  return Object.entries(endpoints)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([engine, rpc_url]) => ({ engine, rpc_url }));
}

export function createVerifyHandlers(ctx: AppContext): HandlersOf<typeof VERIFY_IPC> {
  const runs = new Map<string, VerifyRun>();
  // Nothing is fetched until the user says so, each time the app starts.
  let network = false;
  // Without an embedded engine (remote mode) there is no data directory: an empty private one.
  let scratch: string | null = null;
  const dataDir = () => ctx.engine?.dataDir ?? (scratch ??= mkdtempSync(join(tmpdir(), 'proofdesk-verify-')));
  const runOf = (runId: string) => {
    const run = runs.get(runId);
    if (!run) throw new ServiceError('not_found', 'That verification run is no longer kept: drop the proof files again.');
    return run;
  };

  return {
    'verify:start': async (paths) => {
      const run = new VerifyRun('', { dataDir: dataDir(), endpoints: readEndpoints(ctx.engine?.dataDir ?? null), engineOptions: ctx.engine?.issuing.verifyOptions(), network });
      runs.set(run.id, run);
      for (const old of [...runs.keys()].slice(0, Math.max(0, runs.size - KEEP_RUNS))) runs.delete(old);
      const task = ctx.tasks.start('verify', { text: verifyingLabel(null), code: { id: 'verify' } }, (context) => run.run(paths, context), null);
      run.setTask(task.id);
      return { summary: { ...run.summary }, task };
    },
    'verify:summary': async (runId) => ({ ...runOf(runId).summary, counts: { ...runOf(runId).counts } }),
    'verify:rows': async (runId, query) => {
      const run = runOf(runId);
      if (!query.failures_only) return { total: run.rows.length, rows: run.rows.slice(query.offset, query.offset + query.limit) };
      const picked = run.failures.slice(query.offset, query.offset + query.limit).map((i) => run.rows[i]!);
      return { total: run.failures.length, rows: picked };
    },
    'verify:detail': async (runId, index) => {
      const run = runOf(runId);
      const row = run.rows[index];
      if (!row) throw new ServiceError('not_found', `Row ${index + 1} is not in this run.`);
      const proof = run.proofOf(index);
      const result = run.results[index] ?? null;
      const steps = result
        ? VERIFICATION_STEP_KEYS.map((key) => {
            const s = result.verification[key];
            return { key, name: s.name, status: s.status, reason: stepReason(s.name, s.status, s.description), reason_code: stepReasonCode(s.name, s.status, s.description) };
          })
        : [];
      return { row, result, steps, credential: proof ? credentialOf(proof, result) : null };
    },
    'verify:report': async (runId, format) => verifyReport(runOf(runId), format),
    'verify:endpoints': async () => listOf(readEndpoints(ctx.engine?.dataDir ?? null)),
    // Started on the drag, not the drop: a folder's first proofs then find the workers running.
    'verify:warm': async () => {
      warmOfflinePool();
      return null;
    },
    'verify:setEndpoint': async (engine, rpcUrl) => {
      const dir = ctx.engine?.dataDir;
      if (!dir) throw new ServiceError('invalid_value', 'Endpoints are kept in the data directory, and a remote connection has none here.');
      const endpoints = readEndpoints(dir);
      if (rpcUrl === null) delete endpoints[engine];
      else endpoints[engine] = rpcUrl;
      // Whole or not at all: a crash mid-write must not leave a half file.
      const temp = join(dir, `${ENDPOINTS_FILE}.tmp`);
      writeFileSync(temp, `${JSON.stringify(endpoints, null, 2)}\n`, { mode: 0o600 });
      renameSync(temp, join(dir, ENDPOINTS_FILE));
      return listOf(endpoints);
    },
    'verify:network': async () => network,
    'verify:setNetwork': async (on) => (network = on),
    'verify:whichCredential': async (runId, name) => {
      const run = runOf(runId);
      const original = run.summary.unmatched_originals.find((o) => o.name === name);
      if (!original) throw new ServiceError('not_found', `${name} is not an original dropped without its proof in this run.`);
      const { service } = ctx.require();
      const path = run.originalPaths.get(name)!;
      const page = await service.verifyOriginalFile({ path, name: name.split('/').pop() }, { per_page: 0 });
      // The spec's results say how each certificate verifies, not which it is: the embedded
      // engine names them (same certificates, same order); a remote service cannot.
      const named = ctx.engine ? certificatesOfFile(ctx.scope(), original.file_hash) : [];
      return page.items.map(
        (result, i): OriginalMatch => ({
          certificate_uid: named[i]?.certificate_uid ?? '',
          title: named[i]?.title ?? `Certificate ${i + 1} (issued ${String(result.verification.expiry.description.issued_date ?? '')})`,
          result: result.result.status,
        }),
      );
    },
  };
}
