/**
 * Named points in the issuing pipeline where a crash is most dangerous (a transaction signed
 * but not sent, sent but not confirmed). Setting PROOFDESK_FAULT_POINT to a point's name kills
 * the process there with SIGKILL, so the crash-recovery tests can crash it exactly there with
 * a real process. Unset in normal use, it costs one comparison.
 */
export function faultPoint(name: string): void {
  if (process.env.PROOFDESK_FAULT_POINT === name) process.kill(process.pid, 'SIGKILL');
}
