/** The CLI run in this process (runCli), its stdout and stderr captured: for tests that need no separate process. */
import { runCli } from '../../main/cli/run.js';

export const SECRET_ENV = 'PROOFDESK_CLIENT_SECRET';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** runCli with `argv`; its output lines joined with newlines. */
export async function cliInProcess(...argv: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * runCli with `secret` as PROOFDESK_CLIENT_SECRET for the call (none when undefined); the
 * variable is put back as it was afterwards.
 */
export async function cliWithSecret(args: string[], secret?: string): Promise<CliResult> {
  const saved = process.env[SECRET_ENV];
  if (secret === undefined) delete process.env[SECRET_ENV];
  else process.env[SECRET_ENV] = secret;
  try {
    return await cliInProcess(...args);
  } finally {
    if (saved === undefined) delete process.env[SECRET_ENV];
    else process.env[SECRET_ENV] = saved;
  }
}
