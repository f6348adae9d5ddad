import { parseCommand } from '../args.js';
import { UsageError } from '../cli-error.js';
import { REMOTE_OPTIONS, withPartnerService, type CliContext } from '../context.js';
import { json } from '../output.js';

export const USAGE = `revoke CERTIFICATE_UID [--yes]                        revoke one certificate on its chain (for good)
revoke --credential UID --engine E [--yes]            revoke the credential's certificate on engine E
  Asks for confirmation on a terminal; without one, --yes is required. Takes [--partner ID|NAME] or --remote BASE_URL.`;

/** `revoke CERTIFICATE_UID` and `revoke --credential UID --engine E` */
export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand(args, { ...REMOTE_OPTIONS, credential: { type: 'string' }, engine: { type: 'string' }, yes: { type: 'boolean', short: 'y' } });
  const byCredential = values.credential !== undefined;
  if (byCredential ? positionals.length !== 0 || values.engine === undefined : positionals.length !== 1 || values.engine !== undefined) {
    throw new UsageError(`revoke takes one CERTIFICATE_UID, or --credential UID with --engine E\n${USAGE}`);
  }
  const what = byCredential ? `the certificate of credential ${values.credential} on engine ${values.engine}` : `certificate ${positionals[0]}`;
  if (!values.yes) {
    // Revoking is written on chain and cannot be undone: never without a yes.
    if (!ctx.ask) throw new UsageError(`Revoking ${what} cannot be undone; there is no terminal to confirm on, so confirm with --yes`);
    const answer = (await ctx.ask(`Revoke ${what}? This is recorded on chain and cannot be undone. Type "yes" to revoke: `)).trim().toLowerCase();
    if (answer !== 'yes' && answer !== 'y') {
      ctx.stderr('Not revoked.');
      return 1;
    }
  }
  return withPartnerService(values, async (service) => {
    const result = byCredential ? await service.revokeCredential(values.credential!, values.engine!) : await service.revokeCertificate(positionals[0]!);
    ctx.stdout(values.json ? json(result) : `Revoked ${what} at ${result.revoked_date}`);
    return 0;
  }, { secrets: true });
}
