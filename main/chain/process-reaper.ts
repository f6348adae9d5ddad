/**
 * Makes a child process die with us, however we die. A tiny shell watches a pipe from this
 * process; when the pipe closes (we exited, crashed or were SIGKILLed) it sends the child SIGTERM,
 * then SIGKILL after a grace period. POSIX only; elsewhere startReaper returns undefined and only
 * the exit hook and the next start's lock take-over (anvil-lock.ts) remain.
 */
import { spawn } from 'node:child_process';

export interface Reaper {
  /** Lets the watcher go without touching the child (call once the child has exited). */
  release(): void;
}

const SCRIPT = [
  'pid=$1; ticks=$(($2 * 10))',
  'while read -r _; do :; done',
  'kill -0 "$pid" 2>/dev/null || exit 0',
  'kill -TERM "$pid" 2>/dev/null',
  'i=0',
  'while kill -0 "$pid" 2>/dev/null; do',
  '  i=$((i + 1)); if [ "$i" -gt "$ticks" ]; then kill -KILL "$pid" 2>/dev/null; exit 0; fi',
  '  sleep 0.1',
  'done',
].join('\n');

/** Watches over `pid`; `graceSeconds` between SIGTERM and SIGKILL. */
export function startReaper(pid: number, graceSeconds: number): Reaper | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const watcher = spawn('/bin/sh', ['-c', SCRIPT, 'proofdesk-reaper', String(pid), String(Math.ceil(graceSeconds))], { stdio: ['pipe', 'ignore', 'ignore'] });
    watcher.on('error', () => undefined);
    watcher.stdin?.on('error', () => undefined);
    // Neither the watcher nor its pipe may keep this process alive.
    watcher.unref();
    (watcher.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return { release: () => watcher.stdin?.end() };
  } catch {
    return undefined;
  }
}
