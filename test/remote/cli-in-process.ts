import { runCli } from '../../main/cli/run.js';

export const SECRET_ENV = 'PROOFDESK_CLIENT_SECRET';

/**
 * runCli in this process with `secret` as PROOFDESK_CLIENT_SECRET for the call (none when
 * undefined); the variable is put back as it was afterwards.
 */
export async function cliWithSecret(args: string[], secret?: string): Promise<{ code: number; out: string; err: string }> {
  const saved = process.env[SECRET_ENV];
  if (secret === undefined) delete process.env[SECRET_ENV];
  else process.env[SECRET_ENV] = secret;
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await runCli(args, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    if (saved === undefined) delete process.env[SECRET_ENV];
    else process.env[SECRET_ENV] = saved;
  }
}
