/**
 * Named points in the issuing pipeline where a crash is most dangerous (a transaction signed
 * but not sent, sent but not confirmed). Setting PROOFDESK_FAULT_POINT to a point's name kills
 * the process there with SIGKILL, so the crash-recovery tests can crash it exactly there with
 * a real process. Unset in normal use, it costs one comparison.
 */
export function faultPoint(name: string): void {
  if (process.env.PROOFDESK_FAULT_POINT !== name) return;
  // PROOFDESK_FAULT_KILL=group kills the whole process group (this process leads it when its
  // parent spawned it detached), the local chain with it: a power cut, as far as the chain can tell.
  if (process.env.PROOFDESK_FAULT_KILL === 'group') {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      // not a group leader: kill this process alone
    }
  }
  process.kill(process.pid, 'SIGKILL');
}
