/**
 * Proof files the browser bridge received, kept in memory for the Verify run that follows: in
 * the browser a dropped folder is uploaded (staging-upload.ts writes each file to a private
 * folder, as staging needs), and verifying it then read all 10,000 files back. The bridge
 * hands the bytes of each `*.json` file it receives here; the run takes them by path, and the
 * worker threads check them from memory. Bounded: the oldest go when MAX_RECEIVED_BYTES is
 * reached (a drop for staging holds JSON too, and nothing takes it): a proof not here is read
 * from its file, as before.
 */
import { sep } from 'node:path';
import { MAX_PROOF_FILE_BYTES } from '../../engine/proofs/verify-read-proof.js';

/** Memory kept for received proofs: 10,000 proofs are 20-40 MB. */
export const MAX_RECEIVED_BYTES = 96 * 1024 * 1024;

const received = new Map<string, Uint8Array>();
let total = 0;

/** Keeps a copy of a received file's bytes when it may be a proof (`*.json`, at most a proof's size). */
export function rememberReceived(path: string, bytes: Uint8Array): void {
  if (!path.toLowerCase().endsWith('.json') || bytes.length > MAX_PROOF_FILE_BYTES) return;
  forget(path);
  // A copy of exactly these bytes: a view would keep (and send to a worker) the whole request body.
  received.set(path, new Uint8Array(bytes));
  total += bytes.length;
  for (const [oldest] of received) {
    if (total <= MAX_RECEIVED_BYTES) break;
    forget(oldest);
  }
}

/** The bytes received for `path`, once (they are forgotten here). */
export function takeReceived(path: string): Uint8Array | undefined {
  const bytes = received.get(path);
  forget(path);
  return bytes;
}

/** Forgets what was received under `folder` (the upload was cancelled or removed). */
export function forgetReceived(folder: string): void {
  const prefix = folder.endsWith(sep) ? folder : folder + sep;
  for (const path of [...received.keys()]) if (path.startsWith(prefix)) forget(path);
}

function forget(path: string): void {
  const bytes = received.get(path);
  if (!bytes) return;
  received.delete(path);
  total -= bytes.length;
}
