/**
 * Proof files the browser bridge received, checked offline while the rest of the drop is still
 * uploading. In the browser a dropped folder is uploaded (main/app/bridge-uploads.ts writes each file to a
 * private folder, as staging needs) and only then does the page ask main to verify it; reading
 * every file back then would be a second pass over the drop. The bridge hands the bytes of each `*.json`
 * file it receives here, and they go at once to worker threads (verify-offline-pool.ts) for the
 * offline checks; the run takes each outcome by path (takeReceived) and only asks the chain.
 * The outcome is what checking the file would give (the same bytes, the same code).
 *
 * Bounded: at most MAX_RECEIVED outcomes are kept, the oldest going first (a drop for staging
 * holds JSON too, and nothing takes it); a proof not here is read from its file.
 * The shared pool is borrowed with the first proof and given back after IDLE_MS without one.
 */
import { sep } from 'node:path';
import { checkOffline, type OfflineInput, type OfflineOutcome } from '../../engine/proofs/verify-offline.js';
import { borrowOfflinePool } from '../../engine/proofs/verify-offline-pool.js';
import { MAX_PROOF_FILE_BYTES } from '../../engine/proofs/verify-read-proof.js';

/** Outcomes kept: a drop of 10,000 proofs, twice. */
export const MAX_RECEIVED = 20_000;
/** Proofs per message to a worker. */
const BATCH = 100;
const IDLE_MS = 10_000;

const received = new Map<string, Promise<OfflineOutcome>>();
/** The verification runs' shared pool (verify-offline-pool.ts), borrowed while proofs arrive. */
let borrowed: ReturnType<typeof borrowOfflinePool> | undefined;
let idle: NodeJS.Timeout | undefined;
let pending: { input: OfflineInput; settle: (outcome: Promise<OfflineOutcome>) => void }[] = [];

function send(): void {
  const batch = pending;
  pending = [];
  if (batch.length === 0) return;
  // The runs' shared pool (a worker per core), not one of its own: what is not checked by the
  // end of the upload is left to check after it, when the browser has stopped reading files
  // and every core could have been checking; and the run that takes these outcomes finds the
  // same workers already started.
  const used = (borrowed ??= borrowOfflinePool());
  const outcomes = used.pool.check(batch.map((b) => b.input));
  // A worker that died: its pool is given back (the next borrow starts its workers again), and
  // these proofs are checked here instead (the same outcome).
  outcomes.catch(() => {
    if (borrowed === used) borrowed = undefined;
    used.release();
  });
  batch.forEach((b, i) => b.settle(outcomes.then((all) => all[i]!, () => checkOffline(b.input))));
  clearTimeout(idle);
  idle = setTimeout(() => {
    borrowed?.release();
    borrowed = undefined;
  }, IDLE_MS);
  idle.unref();
}

/** Starts checking a received file offline when it may be a proof (`*.json`, at most a proof's size). */
export function rememberReceived(path: string, bytes: Uint8Array): void {
  if (!path.toLowerCase().endsWith('.json') || bytes.length > MAX_PROOF_FILE_BYTES) return;
  // A copy of exactly these bytes: a view would send the worker the whole request body.
  const input = { path, bytes: new Uint8Array(bytes) };
  const outcome = new Promise<OfflineOutcome>((resolve, reject) => pending.push({ input, settle: (p) => p.then(resolve, reject) }));
  // Not asked for (a staging drop, a cancelled one): not an unhandled rejection.
  outcome.catch(() => undefined);
  received.delete(path);
  received.set(path, outcome);
  if (pending.length >= BATCH) send();
  else if (pending.length === 1) setImmediate(send);
  for (const [oldest] of received) {
    if (received.size <= MAX_RECEIVED) break;
    received.delete(oldest);
  }
}

/** The offline outcome of the file received for `path`, once (it is forgotten here). */
export function takeReceived(path: string): Promise<OfflineOutcome> | undefined {
  const outcome = received.get(path);
  received.delete(path);
  return outcome;
}

/** Forgets what was received under `folder` (the upload was cancelled or removed). */
export function forgetReceived(folder: string): void {
  const prefix = folder.endsWith(sep) ? folder : folder + sep;
  for (const path of [...received.keys()]) if (path.startsWith(prefix)) received.delete(path);
}
