/**
 * Named points in the intake where a crash is most telling, for the crash tests (the
 * pattern of main/engine/issuing/fault-points.ts). PROOFDESK_INGEST_FAULT=NAME kills the
 * process with SIGKILL the first time NAME is reached; NAME:N the N-th time. Unset in normal
 * use, each point costs one comparison.
 *
 * - `after-uploading`: a file is journaled as uploading; its request is not sent yet.
 * - `after-create`: its credential was created and scheduled; the journal does not know yet.
 * - `proofs-unrenamed`: a round of proof files is written and synced under temporary names, none renamed yet.
 * - `after-issued`: its proof file is written and journaled; the original is not moved yet.
 */
export const FOLDER_FAULT_ENV = 'PROOFDESK_INGEST_FAULT';

export type FolderFaultPoint = 'after-uploading' | 'after-create' | 'proofs-unrenamed' | 'after-issued';

const spec = process.env[FOLDER_FAULT_ENV];
const [faultName, faultCount] = spec ? [spec.split(':')[0], Number(spec.split(':')[1] ?? 1)] : [undefined, 0];
let hits = 0;

export function folderFaultPoint(name: FolderFaultPoint): void {
  if (faultName !== name) return;
  hits++;
  if (hits >= faultCount) process.kill(process.pid, 'SIGKILL');
}
