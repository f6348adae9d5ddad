import { parseArgs } from 'node:util';
import { COMMON_OPTIONS } from '../args.js';
import { UsageError } from '../cli-error.js';
import { REMOTE_OPTIONS, withPartnerService, type CliContext } from '../context.js';
import { json, pageSummary, table } from '../output.js';

export const JOBS_USAGE = `jobs list [--status S] [--and-tags a,b] [--or-tags a,b] [--page N] [--per-page N] [--json]
jobs show UID                                         (also with --remote BASE_URL, see Remote below)`;

/** `jobs list | show` */
export async function jobsCommand(args: string[], ctx: CliContext): Promise<number> {
  const [action, ...rest] = args;
  // An unknown action is said first, before a data directory or Partner is looked at.
  if (!['list', 'show'].includes(action ?? '')) {
    throw new UsageError(`${action === undefined ? 'Missing' : 'Unknown'} jobs command${action === undefined ? '' : ` ${JSON.stringify(action)}`}: jobs takes list | show\n${JOBS_USAGE}`);
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
    ...COMMON_OPTIONS,
    ...REMOTE_OPTIONS,
    partner: { type: 'string' },
    status: { type: 'string' },
    'and-tags': { type: 'string' },
    'or-tags': { type: 'string' },
    page: { type: 'string' },
    'per-page': { type: 'string' },
    },
  });
  return withPartnerService(values, async (service) => {
    if (action === 'list') {
      const page = await service.listJobs({
        status: values.status,
        and_tags: values['and-tags'],
        or_tags: values['or-tags'],
        page: values.page,
        per_page: values['per-page'],
      });
      if (values.json) ctx.stdout(json(page));
      else {
        ctx.stdout(table(['uid', 'engine', 'status', 'created', 'scheduled for', 'tags'], page.items.map((j) => [j.uid, j.chain, j.status, j.created_date, j.scheduled_date ?? '', j.tags.join(',')])));
        ctx.stdout(pageSummary(page, 'jobs'));
      }
      return 0;
    }
    if (action === 'show' && positionals.length === 1) {
      ctx.stdout(json(await service.getJob(positionals[0]!)));
      return 0;
    }
    throw new UsageError(`Unknown jobs command\n${JOBS_USAGE}`);
  });
}
