/**
 * The CLI as a real child process, for tests that need separate processes: the bundle of
 * main/cli/index.ts that the integration tests build once for the run (test/support/cli-bundle.ts),
 * else `node --import tsx main/cli/index.ts` (what `npm run cli` runs, without npm's start-up).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const REPO = join(import.meta.dirname, '../..');

/** The node arguments that run the CLI (before its own arguments). */
export function cliArgs(): string[] {
  const bundle = process.env.PROOFDESK_TEST_CLI;
  return bundle ? [bundle] : ['--import', 'tsx', join(REPO, 'main/cli/index.ts')];
}

export interface ChildResult {
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI with `argv` and the given environment additions; resolves when it exits. */
export function runCliChild(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<ChildResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...cliArgs(), ...argv], { cwd: REPO, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, out, err) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err });
    });
  });
}

/** Runs the CLI with its stdout piped into `head -n LINES` (a reader that goes away early). */
export function runCliIntoHead(argv: string[], lines: number, env: NodeJS.ProcessEnv = {}): Promise<ChildResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cliArgs(), ...argv], { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const head = spawn('head', ['-n', String(lines)], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.pipe(head.stdin);
    head.stdin.on('error', () => undefined);
    let out = '';
    let err = '';
    head.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, out, err }));
  });
}

export interface CliRun {
  child: ChildProcess;
  /** What it printed so far. */
  stdout(): string;
  stderr(): string;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/**
 * Starts the CLI with `argv` and exactly the environment `env` (for tests that watch it run, stop
 * it or kill it), in `cwd` (default the repository); `detached` makes it lead a process group of
 * its own, to be killed as a whole.
 */
export function startCliChild(argv: string[], env: NodeJS.ProcessEnv, options: { cwd?: string; detached?: boolean } = {}): CliRun {
  const child = spawn(process.execPath, [...cliArgs(), ...argv], { cwd: options.cwd ?? REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached ?? false });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, ended };
}

/**
 * Waits for `run` to exit. One still running after `timeoutMs` is SIGKILLed and the wait fails:
 * a kill of ours must never pass for the exit (or the fault-point kill) a test waits for.
 */
export async function endedWithin(run: CliRun, timeoutMs: number) {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    run.child.kill('SIGKILL');
  }, timeoutMs);
  try {
    const result = await run.ended;
    if (timedOut) throw new Error(`the CLI did not end within ${timeoutMs} ms (killed); its stderr ends: ${result.stderr.slice(-1500)}`);
    return result;
  } finally {
    clearTimeout(timer);
  }
}
