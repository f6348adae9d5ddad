/**
 * syncfs(2) without a native binding: coreutils' `sync -f`, run by one long-lived `sh` child.
 * Forking `sync` from this process per round would hold its main thread each time (a fork of a
 * large process, and the watched folder syncs once per batch of staged files and once per proof
 * round); the shell, a small process, forks it instead, and asking it costs a line written and
 * a line read.
 */
import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';

/** How long one syncfs may take before it is given up (the caller then syncs each file). */
const SYNC_TIMEOUT_MS = 120_000;

/**
 * Reads folders, one a line, until an empty line; runs `sync -f` on them and answers 0 (synced)
 * or 1 (not) on a line of its own. `IFS= read -r` keeps each name as it is (spaces, backslashes);
 * a name with a line break is never sent (see syncFileSystems).
 */
const SCRIPT = 'set --; while IFS= read -r d; do if [ -z "$d" ]; then if sync -f -- "$@" >/dev/null 2>&1; then echo 0; else echo 1; fi; set --; else set -- "$@" "$d"; fi; done';

type Helper = ChildProcessByStdio<Writable, Readable, null>;

let helper: Helper | undefined;
/** Answers awaited from the helper, in the order the requests were written. */
let waiting: { resolve: (ok: boolean) => void; timer: NodeJS.Timeout }[] = [];
let started = 0;
let requested = 0;

/** How many processes this module has forked so far (the helper and any one-off `sync`): for tests. */
export function syncProcessesStarted(): number {
  return started;
}

/** How many syncfs passes this process has asked for so far (each covers the folders given at once): for tests. */
export function syncFileSystemsRequested(): number {
  return requested;
}

/** The helper is gone or stuck: every request waiting is answered "not synced", and the next one starts a new helper. */
function dropHelper(child: Helper): void {
  if (helper !== child) return;
  helper = undefined;
  child.kill('SIGKILL');
  const pending = waiting;
  waiting = [];
  for (const w of pending) {
    clearTimeout(w.timer);
    w.resolve(false);
  }
}

/** While requests wait, the helper keeps the process alive (their caller awaits them); idle, it does not. */
function holdProcess(child: Helper, hold: boolean): void {
  if (hold) {
    child.ref();
    // A child's pipes are sockets (typed as plain streams).
    (child.stdout as unknown as Socket).ref();
  } else {
    child.unref();
    (child.stdout as unknown as Socket).unref();
  }
}

function startHelper(): Helper | undefined {
  let child: Helper;
  try {
    started++;
    child = spawn('sh', ['-c', SCRIPT], { stdio: ['pipe', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (data: string) => {
    buffered += data;
    let end: number;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const answer = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const w = waiting.shift();
      if (!w) continue;
      clearTimeout(w.timer);
      w.resolve(answer === '0');
    }
    if (waiting.length === 0 && helper === child) holdProcess(child, false);
  });
  child.on('error', () => dropHelper(child));
  child.on('exit', () => dropHelper(child));
  child.stdin.on('error', () => dropHelper(child));
  holdProcess(child, false);
  return child;
}

/** One `sync -f` forked from this process (names the helper cannot be given). */
function syncOnce(folders: string[]): Promise<boolean> {
  started++;
  return new Promise((resolve) => {
    execFile('sync', ['-f', '--', ...folders], { timeout: SYNC_TIMEOUT_MS }, (error) => resolve(error === null));
  });
}

/** syncfs(2) of the file systems holding `folders`: resolves true when they were synced. */
export function syncFileSystems(folders: string[]): Promise<boolean> {
  if (folders.length === 0) return Promise.resolve(true);
  requested++;
  if (folders.some((f) => f === '' || f.includes('\n'))) return syncOnce(folders);
  const child = helper ?? (helper = startHelper());
  if (!child) return syncOnce(folders);
  return new Promise((resolve) => {
    const timer = setTimeout(() => dropHelper(child), SYNC_TIMEOUT_MS);
    timer.unref();
    waiting.push({ resolve, timer });
    holdProcess(child, true);
    child.stdin.write(`${folders.join('\n')}\n\n`);
  });
}
