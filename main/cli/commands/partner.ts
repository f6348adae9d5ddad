import { formatDuration, parseDuration } from '../../../common/duration.js';
import { parseCommand, subcommand, userPath } from '../args.js';
import { UsageError } from '../cli-error.js';
import { withEngine, withPartnerRegistry, type CliContext } from '../context.js';
import { json, table } from '../output.js';

export const USAGE = `partner add --name NAME [--issuing-interval DURATION]   register a Partner with its chain account and signing key
                                                        (kept in the keychain, or set PROOFDESK_PASSPHRASE); prints
                                                        its client credentials once
partner list [--json]                                   the Partners of the data directory
partner set PARTNER --issuing-interval DURATION         change how often a Partner's scheduled jobs are issued
partner set PARTNER --requests-per-second N|none        the Partner's request limits on a live server (serve
                    --requests-per-day N|none           --environment live), enforced across every node
  DURATION: 30s, 5m, 24h, 7d. PARTNER: its id or name.`;

/** `N` or `none` for a request limit; undefined when the option was not given. */
function limitOption(value: string | undefined, flag: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} takes a whole number of at least 1, or none; got ${JSON.stringify(value)}`);
  return n;
}

/** `10/s, 5,000/day`, or `none`. */
function limitsText(p: { requests_per_second: number | null; requests_per_day: number | null }): string {
  const parts = [p.requests_per_second === null ? null : `${p.requests_per_second}/s`, p.requests_per_day === null ? null : `${p.requests_per_day}/day`].filter((x) => x !== null);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

/** `partner add | list | set` */
export async function run(args: string[], ctx: CliContext): Promise<number> {
  const [given, ...rest] = args;
  const action = subcommand('partner', given, ['add', 'list', 'set'], USAGE);
  const { values, positionals } = parseCommand(rest, {
    name: { type: 'string' },
    'issuing-interval': { type: 'string' },
    'requests-per-second': { type: 'string' },
    'requests-per-day': { type: 'string' },
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
            ['id', 'name', 'client_id', 'issuing interval', 'request limits', 'chain account'],
            all.map((p) => [p.id, p.name, p.client_id, formatDuration(p.issuing_interval_seconds), limitsText(p), p.chain_address ?? '(made at first issue)']),
          ),
        );
      }
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError('partner set takes one PARTNER (id or name)');
    const perSecond = limitOption(values['requests-per-second'], '--requests-per-second');
    const perDay = limitOption(values['requests-per-day'], '--requests-per-day');
    if (interval === undefined && perSecond === undefined && perDay === undefined) {
      throw new UsageError('partner set needs --issuing-interval DURATION, --requests-per-second N|none or --requests-per-day N|none');
    }
    let partner = partners.resolve(positionals[0]!);
    if (interval !== undefined) partner = partners.setIssuingInterval(partner.id, interval);
    if (perSecond !== undefined || perDay !== undefined) {
      const now = partners.requestLimits(partner.id);
      partner = partners.setRequestLimits(partner.id, { perSecond: perSecond === undefined ? now.perSecond : perSecond, perDay: perDay === undefined ? now.perDay : perDay });
    }
    const limits = perSecond === undefined && perDay === undefined ? '' : `; request limits ${limitsText(partner)}`;
    ctx.stdout(values.json ? json(partner) : `${partner.name}: issuing interval ${formatDuration(partner.issuing_interval_seconds)}${limits}`);
    return 0;
  });
}
