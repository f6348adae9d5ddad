import { formatDuration, parseDuration } from '../../../common/duration.js';
import { parseArgs } from 'node:util';
import { COMMON_OPTIONS, subcommand, userPath } from '../args.js';
import { UsageError } from '../cli-error.js';
import { withEngine, withPartnerRegistry, type CliContext } from '../context.js';
import { json, table } from '../output.js';

export const PARTNER_USAGE = `partner add --name NAME [--issuing-interval DURATION]   register a Partner with its chain account and signing key
                                                        (kept in the keychain, or set PROOFDESK_PASSPHRASE); prints
                                                        its client credentials once
partner list [--json]                                   the Partners of the data directory
partner set PARTNER --issuing-interval DURATION         change how often a Partner's scheduled jobs are issued
  DURATION: 30s, 5m, 24h, 7d. PARTNER: its id or name.`;

/** `partner add | list | set` */
export async function partnerCommand(args: string[], ctx: CliContext): Promise<number> {
  const [given, ...rest] = args;
  const action = subcommand('partner', given, ['add', 'list', 'set'], PARTNER_USAGE);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
    ...COMMON_OPTIONS,
    name: { type: 'string' },
    'issuing-interval': { type: 'string' },
    },
  });
  const interval = values['issuing-interval'] === undefined ? undefined : parseDuration(values['issuing-interval']);
  if (action === 'add' && !values.name) throw new UsageError('partner add needs --name NAME');
  if (action === 'add') {
    return withEngine(
      userPath(values.data),
      async (engine) => {
        const { partner_id, name, client_id, client_secret, realm } = await engine.addPartner({ name: values.name!, issuingIntervalSeconds: interval });
        ctx.stdout(JSON.stringify({ partner_id, name, client_id, client_secret, realm }));
        return 0;
      },
      { secrets: true },
    );
  }
  // list and set need the Partners' table only, not the engine (chains, keys, files).
  return withPartnerRegistry(userPath(values.data), async (partners, dataDir) => {
    if (action === 'list') {
      const all = partners.list();
      if (values.json) ctx.stdout(json(all));
      else if (all.length === 0) ctx.stdout(`No partners in ${dataDir}. Add one with: proofdesk partner add --name NAME`);
      else {
        ctx.stdout(
          table(
            ['id', 'name', 'client_id', 'issuing interval', 'chain account'],
            all.map((p) => [p.id, p.name, p.client_id, formatDuration(p.issuing_interval_seconds), p.chain_address ?? '(made at first issue)']),
          ),
        );
      }
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError('partner set takes one PARTNER (id or name)');
    if (interval === undefined) throw new UsageError('partner set needs --issuing-interval DURATION');
    const partner = partners.setIssuingInterval(partners.resolve(positionals[0]!).id, interval);
    ctx.stdout(values.json ? json(partner) : `${partner.name}: issuing interval ${formatDuration(partner.issuing_interval_seconds)}`);
    return 0;
  });
}
