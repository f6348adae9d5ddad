/**
 * Named points in `issue` where a crash is most telling, for the crash tests (the pattern of
 * main/engine/issuing/fault-points.ts). PROOFDESK_ISSUE_FAULT=NAME kills the process with
 * SIGKILL the first time NAME is reached; NAME:N the N-th time. Unset, each costs one comparison.
 *
 * - `after-uploading`: an item is journaled as uploading; its request is not sent yet.
 * - `after-create`: its credential was created and scheduled; the journal does not know yet.
 * - `proofs-unrenamed`: a round of proofs is written and synced under temporary names, none renamed yet.
 * - `after-proof`: a proof file is written; the journal does not know yet.
 */
export const ISSUE_FAULT_ENV = 'PROOFDESK_ISSUE_FAULT';

export type IssueFaultPoint = 'after-uploading' | 'after-create' | 'proofs-unrenamed' | 'after-proof';

let hits = 0;

export function issueFaultPoint(name: IssueFaultPoint): void {
  const spec = process.env[ISSUE_FAULT_ENV];
  if (!spec || spec.split(':')[0] !== name) return;
  hits++;
  if (hits >= Number(spec.split(':')[1] ?? 1)) process.kill(process.pid, 'SIGKILL');
}
