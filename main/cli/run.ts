/**
 * The CLI's dispatcher. Each command's module is imported only when that command runs, so a
 * command loads only what it needs (`partner list` no HTTP server or client, `verify --offline`
 * no chain client): a call of the built CLI starts in a fraction of a second.
 */
import type { CliContext } from './context.js';
import { reportError } from './error-report.js';

interface CommandModule {
  run: (args: string[], ctx: CliContext) => Promise<number>;
  USAGE: string;
}

const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  partner: () => import('./commands/partner.js'),
  credential: () => import('./commands/credential.js'),
  certificate: () => import('./commands/certificate.js'),
  revoke: () => import('./commands/revoke.js'),
  jobs: () => import('./commands/jobs.js'),
  activity: () => import('./commands/activity.js'),
  issue: () => import('./commands/issue.js'),
  verify: () => import('./commands/verify.js'),
  watch: () => import('./commands/watch.js'),
  serve: () => import('./commands/serve.js'),
};

/** One example per command, shown by `COMMAND --help` (the commands' own usage texts come first). */
const EXAMPLES: Record<string, string> = {
  partner: 'proofdesk partner add --name "University of Testing" --data ./proofdesk-data',
  credential: 'proofdesk credential create --title "BSc Chemistry" --meta student="Ada Lovelace" --file diploma.pdf --tag cs2026',
  certificate: 'proofdesk certificate list --issued-from 2026-01-01 --verification-status failed\nproofdesk certificate download 0190d6c4-… 0190d6c5-… --out ./proofs',
  revoke: 'proofdesk revoke 0190d6c4-7a1b-7c2d-8e3f-123456789abc --yes\nproofdesk revoke --credential 0190d6c4-… --engine local',
  jobs: 'proofdesk jobs list --status scheduled\nproofdesk jobs issue-now --engine local\nproofdesk jobs tag 0190d6c4-… --tag spring-2026',
  activity: 'proofdesk activity list --kind issued --from 2026-11-16 --until 2026-11-23\nproofdesk activity list --credential 0190d6c4-… --kind revoked --csv > revocations.csv',
  issue: 'proofdesk issue diploma.pdf transcript.pdf --tag cs2026 --now --out ./proofs',
  verify: 'proofdesk verify diploma.pdf.proof.json --file diploma.pdf\nproofdesk verify diploma.pdf.proof.json --rpc http://127.0.0.1:8545\nproofdesk verify ./proofs --offline --report proofs.csv',
  watch: 'proofdesk watch ./inbox --out ./proofs --tag cs2026\nPROOFDESK_CLIENT_SECRET=… proofdesk watch ./inbox --remote https://issuer.example/api --client-id pd-…',
  serve: 'proofdesk serve --port 8080',
};

const FOOTER = `Every command takes --data DIR (default: the desktop app's data directory, or $PROOFDESK_DATA), and
--database postgres://… (or $PROOFDESK_DATABASE_URL) to keep the engine's data in PostgreSQL instead (see docs/deploying.md).
The credential, certificate, revoke, jobs, activity, issue, verify and watch commands take --remote BASE_URL [--auth-url URL]
[--client-id ID] [--realm R] to work against a remote instance (the Live/Demo service, or a Proofdesk \`serve\`)
instead of --data (watch keeps its journal in --data still). The client secret is read from $PROOFDESK_CLIENT_SECRET only, never from a flag. Defaults:
--auth-url $PROOFDESK_AUTH_URL or the origin of BASE_URL; --client-id $PROOFDESK_CLIENT_ID; --realm
$PROOFDESK_REALM or proofdesk.
Keys live in the OS keychain; on a server without one, set PROOFDESK_PASSPHRASE, or PROOFDESK_PASSPHRASE_FILE naming a
file that holds it (an encrypted file in DIR).
Exit codes: 0 done, 1 the service refused (error id and message on stderr) or a proof is not ok, 2 wrong usage,
3 something around the command stopped it (a full disk, no keychain, a chain or server not answering): fix it and
run again, 70 a bug in Proofdesk.
\`proofdesk COMMAND --help\` shows one command with an example. (In a clone: npm run cli -- COMMAND ….)`;

/** The whole usage text (every command's). */
export async function usage(): Promise<string> {
  const modules = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  return `Proofdesk — issue and verify blockchain-anchored credentials (headless commands)

Usage: proofdesk <command> [options]        (in a clone: npm run cli -- <command> [options])

${modules.map((m) => m.USAGE).join('\n\n')}

${FOOTER}`;
}

/** One command's help: its usage and an example. */
function commandHelp(name: string, module: CommandModule): string {
  return `Usage:\n${module.USAGE}\n\nExample:\n${EXAMPLES[name]!.split('\n').map((l) => `  ${l}`).join('\n')}\n\n${FOOTER}`;
}

/**
 * `--database URL` on any command is PROOFDESK_DATABASE_URL for this process and the processes
 * it starts (a `serve`'s workers, say): one place decides where the engine's data lives.
 */
function applyDatabaseFlag(args: string[]): void {
  const at = args.findIndex((arg) => arg === '--database' || arg.startsWith('--database='));
  if (at === -1) return;
  const url = args[at]!.startsWith('--database=') ? args[at]!.slice('--database='.length) : args[at + 1];
  if (url !== undefined) process.env.PROOFDESK_DATABASE_URL = url;
}

/** Runs one CLI invocation and returns its exit code; never throws. */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      const about = command === 'help' && rest[0] !== undefined && Object.hasOwn(COMMANDS, rest[0]) ? rest[0] : undefined;
      ctx.stdout(about ? commandHelp(about, await COMMANDS[about]!()) : await usage());
      return command === undefined ? 2 : 0;
    }
    if (!Object.hasOwn(COMMANDS, command)) {
      ctx.stderr(`Unknown command ${JSON.stringify(command)}: the commands are ${Object.keys(COMMANDS).join(', ')}.\n(proofdesk help for all of them, proofdesk COMMAND --help for one)`);
      return 2;
    }
    const module = await COMMANDS[command]!();
    if (rest.includes('--help') || rest.includes('-h')) {
      ctx.stdout(commandHelp(command, module));
      return 0;
    }
    applyDatabaseFlag(rest);
    return await module.run(rest, ctx);
  } catch (error) {
    const report = reportError(error);
    ctx.stderr(report.message);
    return report.code;
  }
}
