import { isServiceError } from '../../common/errors.js';
import { isDiskFull } from '../engine/disk-full.js';
import { UsageError } from './cli-error.js';
import { CREDENTIAL_USAGE, credentialCommand } from './commands/credential.js';
import { ISSUE_USAGE, issueCommand } from './commands/issue.js';
import { JOBS_USAGE, jobsCommand } from './commands/jobs.js';
import { PARTNER_USAGE, partnerCommand } from './commands/partner.js';
import { SERVE_USAGE, serveCommand } from './commands/serve.js';
import { VERIFY_USAGE, verifyCommand } from './commands/verify.js';
import { WATCH_USAGE, watchCommand } from './commands/watch.js';
import type { CliContext } from './context.js';

export const USAGE = `Proofdesk — issue and verify blockchain-anchored credentials (headless commands)

Usage: npm run cli -- <command> [options]

${PARTNER_USAGE}

${CREDENTIAL_USAGE}

${JOBS_USAGE}

${ISSUE_USAGE}
${VERIFY_USAGE}

${WATCH_USAGE}

${SERVE_USAGE}

Every command takes --data DIR (default: the desktop app's data directory, or $PROOFDESK_DATA).
The credential, jobs and issue commands take --remote BASE_URL [--auth-url URL] [--client-id ID] [--realm R] to work
against a remote instance (the Live/Demo service, or a Proofdesk \`serve\`) instead of --data. The client secret is
read from $PROOFDESK_CLIENT_SECRET only, never from a flag. Defaults: --auth-url $PROOFDESK_AUTH_URL or the origin
of BASE_URL; --client-id $PROOFDESK_CLIENT_ID; --realm $PROOFDESK_REALM or proofdesk.
Keys live in the OS keychain; on a server without one, set PROOFDESK_PASSPHRASE (an encrypted file in DIR).
Exit codes: 0 done, 1 the service refused (error id and message on stderr) or a proof is not ok, 2 wrong usage.`;

const COMMANDS: Record<string, (args: string[], ctx: CliContext) => Promise<number>> = {
  partner: partnerCommand,
  credential: credentialCommand,
  jobs: jobsCommand,
  issue: issueCommand,
  verify: verifyCommand,
  watch: watchCommand,
  serve: serveCommand,
};

/** Runs one CLI invocation and returns its exit code; never throws. */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    ctx.stdout(USAGE);
    return command === undefined ? 2 : 0;
  }
  const handler = COMMANDS[command];
  if (!handler) {
    ctx.stderr(`Unknown command ${JSON.stringify(command)}.\n\n${USAGE}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    ctx.stdout(USAGE);
    return 0;
  }
  try {
    return await handler(rest, ctx);
  } catch (error) {
    // node:util parseArgs rejects unknown or malformed flags with ERR_PARSE_ARGS_* codes.
    if (error instanceof UsageError || String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      ctx.stderr(`${(error as Error).message}\n(npm run cli -- help for every command)`);
      return 2;
    }
    if (isServiceError(error)) {
      ctx.stderr(`error ${error.id} (${error.status}): ${error.message}`);
      return 1;
    }
    if (isDiskFull(error)) {
      ctx.stderr(`error try_again_later (503): the disk is full (${(error as Error).message}). Nothing was lost: free some space and run the same command again.`);
      return 1;
    }
    ctx.stderr(`Unexpected error: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}
