import { parseCommand, subcommand } from '../args.js';
import { UsageError } from '../cli-error.js';
import { REMOTE_OPTIONS, withPartnerService, type CliContext } from '../context.js';
import { json, printPage } from '../output.js';

export const USAGE = `jobs list [--status S] [--and-tags a,b] [--or-tags a,b] [--page N] [--per-page N] [--json]
jobs show UID
jobs issue-now --engine E                             issue the Partner's scheduled credentials on E now (demo engines)
jobs tag UID... --tag T... [--replace]                add tags (or replace all tags) on jobs
  Every jobs command takes [--partner ID|NAME], or --remote BASE_URL.`;

/** `jobs list | show` */
export async function run(args: string[], ctx: CliContext): Promise<number> {
  const [given, ...rest] = args;
  const action = subcommand('jobs', given, ['list', 'show', 'issue-now', 'tag'], USAGE);
  const { values, positionals } = parseCommand(rest, {
    ...REMOTE_OPTIONS,
    status: { type: 'string' },
    'and-tags': { type: 'string' },
    'or-tags': { type: 'string' },
    page: { type: 'string' },
    'per-page': { type: 'string' },
    engine: { type: 'string' },
    tag: { type: 'string', multiple: true },
    replace: { type: 'boolean' },
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
      printPage(ctx.stdout, values.json, page, 'jobs', ['uid', 'engine', 'status', 'created', 'scheduled for', 'tags'], (j) => [j.uid, j.chain, j.status, j.created_date, j.scheduled_date ?? '', j.tags.join(',')]);
      return 0;
    }
    if (action === 'show' && positionals.length === 1) {
      ctx.stdout(json(await service.getJob(positionals[0]!)));
      return 0;
    }
    if (action === 'issue-now') {
      if (values.engine === undefined || positionals.length > 0) throw new UsageError(`jobs issue-now takes --engine E (and nothing else)\n${USAGE}`);
      let job = await service.issueJobNow({ engine: values.engine });
      ctx.stderr(`job ${job.uid} on ${job.chain}: ${job.status}`);
      // Follow it to the end, as `issue --now` does: a job sent is not yet a job issued.
      while (job.status === 'started' || job.status === 'unconfirmed') {
        await new Promise((r) => setTimeout(r, 250));
        const next = await service.getJob(job.uid);
        if (next.status !== job.status) ctx.stderr(`job ${next.uid} on ${next.chain}: ${next.status}`);
        job = next;
      }
      ctx.stdout(values.json ? json(job) : `Job ${job.uid} on ${job.chain}: ${job.status}${job.issued_date ? `, issued ${job.issued_date}` : ''}`);
      return job.status === 'finished' ? 0 : 1;
    }
    if (action === 'tag') {
      if (positionals.length === 0 || !values.tag?.length) throw new UsageError(`jobs tag needs UID... and --tag T...\n${USAGE}`);
      const body = { jobs: positionals.map((uid) => ({ job_uid: uid, tags: values.tag! })) };
      await (values.replace ? service.replaceJobTags(body) : service.addJobTags(body));
      ctx.stdout(`${values.replace ? 'Replaced' : 'Added'} tags on ${positionals.length} job(s)`);
      return 0;
    }
    throw new UsageError(`jobs ${action} takes one UID\n${USAGE}`);
  }, action === 'issue-now' ? { secrets: true, issuing: { scheduler: true, tickMs: 250 } } : {});
}
