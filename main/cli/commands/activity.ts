import { activityCsv, type ActivityEntry, type ActivityQuery } from '../../../common/activity.js';
import { allPages } from '../../../common/all-pages.js';
import { parseCommand, PAGE_OPTIONS, pageQuery, subcommand } from '../args.js';
import { UsageError } from '../cli-error.js';
import { REMOTE_OPTIONS, withPartnerService, type CliContext } from '../context.js';
import { printPage } from '../output.js';

export const USAGE = `activity list [--kind K[,K]] [--from DATE] [--until DATE] [--credential UID] [--job UID]
              [--sort date] [--desc] [--page N] [--per-page N] [--json | --csv]
                                                      what was created, scheduled, unscheduled, tagged, issued,
                                                      revoked and exported, when, by whom, on which chain;
                                                      --csv writes every matching entry (or the --page asked)
  Kinds: created, scheduled, unscheduled, tagged, issued, revoked, exported, keys_exported, keys_restored.
  Takes [--partner ID|NAME], or --remote BASE_URL.`;

function row(e: ActivityEntry): string[] {
  const transaction = typeof e.detail?.transaction === 'string' ? e.detail.transaction : '';
  const tags = Array.isArray(e.detail?.tags) ? (e.detail.tags as string[]).join(',') : '';
  return [e.date, e.kind, e.actor, e.engine ?? '', e.credential_uid ?? e.job_uid ?? '', transaction || tags];
}

/** `activity list` */
export async function run(args: string[], ctx: CliContext): Promise<number> {
  const [given, ...rest] = args;
  subcommand('activity', given, ['list'], USAGE);
  const { values, positionals } = parseCommand(rest, {
    ...REMOTE_OPTIONS,
    kind: { type: 'string' },
    from: { type: 'string' },
    until: { type: 'string' },
    credential: { type: 'string' },
    job: { type: 'string' },
    csv: { type: 'boolean' },
    ...PAGE_OPTIONS,
  });
  if (positionals.length > 0) throw new UsageError(`activity list takes no arguments (filter with --kind, --from, --until, --credential, --job)\n${USAGE}`);
  if (values.csv && values.json) throw new UsageError(`Choose one of --json and --csv\n${USAGE}`);
  return withPartnerService(values, async (service) => {
    if (!service.listActivity) throw new UsageError('This service keeps no activity log');
    const list = service.listActivity.bind(service);
    const query: ActivityQuery = {
      kind: values.kind,
      date_from: values.from,
      date_until: values.until,
      credential_uid: values.credential,
      job_uid: values.job,
      ...pageQuery(values),
    };
    if (values.csv && values.page === undefined && values['per-page'] === undefined) {
      const entries: ActivityEntry[] = [];
      for await (const page of allPages((page) => list({ ...query, per_page: 1000, page }))) entries.push(...page.items);
      ctx.stdout(activityCsv(entries).trimEnd());
      return 0;
    }
    const page = await list(query);
    if (values.csv) ctx.stdout(activityCsv(page.items).trimEnd());
    else printPage(ctx.stdout, values.json, page, 'entries', ['date', 'kind', 'by', 'engine', 'credential / job', 'transaction / tags'], row);
    return 0;
  });
}
