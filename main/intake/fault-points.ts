/**
 * Named points in the intake where a crash is most telling, for the crash tests (the pattern of
 * main/engine/issuing/fault-points.ts). A point set's variable set to NAME kills the process
 * with SIGKILL the first time NAME is reached; NAME:N the N-th time. Unset in normal use, each
 * point costs one comparison.
 *
 * The watched folder's points (PROOFDESK_INGEST_FAULT) and `issue`'s (PROOFDESK_ISSUE_FAULT):
 * - `after-uploading`: a file is journaled as uploading; its request is not sent yet.
 * - `after-create`: its credential was created and scheduled; the journal does not know yet.
 * - `proofs-unrenamed`: a round of proof files is written and synced under temporary names, none renamed yet.
 * - `after-issued` (folder): its proof file is written and journaled; the original is not moved yet.
 * - `after-proof` (`issue`): a proof file is written; the journal does not know yet.
 */
export const FOLDER_FAULT_ENV = 'PROOFDESK_INGEST_FAULT';
export const ISSUE_FAULT_ENV = 'PROOFDESK_ISSUE_FAULT';

type SharedPoint = 'after-uploading' | 'after-create' | 'proofs-unrenamed';

/** The fault points read from `env` (once, at start). */
function faultPoints<Name extends string>(env: string): (name: Name) => void {
  const [faultName, faultCount] = (process.env[env] ?? '').split(':');
  let hits = 0;
  return (name) => {
    if (faultName !== name) return;
    hits++;
    if (hits >= Number(faultCount ?? 1)) process.kill(process.pid, 'SIGKILL');
  };
}

export const folderFaultPoint = faultPoints<SharedPoint | 'after-issued'>(FOLDER_FAULT_ENV);
export const issueFaultPoint = faultPoints<SharedPoint | 'after-proof'>(ISSUE_FAULT_ENV);
