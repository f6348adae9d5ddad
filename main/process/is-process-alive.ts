/**
 * Whether a process with this pid exists on this host: what every lock and claim that names its
 * holder's pid asks before it takes over from a holder that died.
 *
 * @example
 * if (!isProcessAlive(lock.pid)) takeOver(lock);
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
