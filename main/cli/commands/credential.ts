import { parseIsoDate, validateTags } from '../../../common/validate.js';
import type { CreateCredentialBody } from '../../../common/requests.js';
import type { Credential } from '../../../common/wire-types.js';
import { parseCommand, PAGE_OPTIONS, pageQuery, parseMetaPairs, parseMetadataJson, subcommand, userPath } from '../args.js';
import { UsageError } from '../cli-error.js';
import { REMOTE_OPTIONS, withPartnerService, type CliContext } from '../context.js';
import { json, printPage } from '../output.js';

export const USAGE = `credential create --title T [--metadata JSON] [--meta KEY=VALUE]... [--file F]... [--tag T]... [--link UID]... [--expiry DATE]
credential list [--and-tags a,b] [--or-tags a,b] [--from DATE] [--to DATE] [--sort title|upload_date] [--desc] [--page N] [--per-page N] [--json]
credential show UID
credential tag UID... --tag T... [--replace]          add tags (or replace all tags) on many credentials at once
credential untag UID --tag T
credential schedule UID... [--engine local]           add to the Partner's next job on the engine
credential unschedule UID [--engine local]
  Every credential command takes [--partner ID|NAME] when the data directory has several Partners,
  or --remote BASE_URL to work against a remote instance (see --remote below).`;

function credentialRow(c: Credential): string[] {
  return [c.uid, c.title, c.upload_date, c.tags.join(','), String(c.files.length)];
}

/** `credential create | list | show | tag | untag | schedule | unschedule` */
export async function run(args: string[], ctx: CliContext): Promise<number> {
  const [given, ...rest] = args;
  const action = subcommand('credential', given, ['create', 'list', 'show', 'tag', 'untag', 'schedule', 'unschedule'], USAGE);
  const { values, positionals } = parseCommand(rest, {
    ...REMOTE_OPTIONS,
    title: { type: 'string' },
    metadata: { type: 'string' },
    meta: { type: 'string', multiple: true },
    file: { type: 'string', multiple: true },
    tag: { type: 'string', multiple: true },
    link: { type: 'string', multiple: true },
    expiry: { type: 'string' },
    'and-tags': { type: 'string' },
    'or-tags': { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    ...PAGE_OPTIONS,
    replace: { type: 'boolean' },
    engine: { type: 'string', default: 'local' },
  });
  return withPartnerService(values, async (service) => {
    switch (action) {
      case 'create': {
        if (values.title === undefined) throw new UsageError('credential create needs --title');
        // Check what needs no look-up before uploading anything, so a typo uploads nothing.
        validateTags(values.tag ?? [], '--tag');
        if (values.expiry !== undefined) parseIsoDate(values.expiry, '--expiry', 'invalid_expiry_date');
        const files = [];
        for (const path of (values.file ?? []).map((f) => userPath(f))) {
          // A file uploaded before is simply reused: the credential is what is new.
          files.push((await service.uploadFile({ file: { path }, ignore_duplicated: true })).file_hash);
        }
        const body: CreateCredentialBody = {
          title: values.title,
          metadata: { ...parseMetadataJson(values.metadata), ...parseMetaPairs(values.meta) },
          files,
          credentials: values.link ?? [],
          tags: values.tag ?? [],
          expiry_date: values.expiry ?? null,
        };
        ctx.stdout(json(await service.createCredential(body)));
        return 0;
      }
      case 'list': {
        const page = await service.listCredentials({
          and_tags: values['and-tags'],
          or_tags: values['or-tags'],
          upload_date_from: values.from,
          upload_date_to: values.to,
          ...pageQuery(values),
        });
        printPage(ctx.stdout, values.json, page, 'credentials', ['uid', 'title', 'created', 'tags', 'files'], credentialRow);
        return 0;
      }
      case 'show': {
        if (positionals.length !== 1) throw new UsageError('credential show takes one UID');
        ctx.stdout(json(await service.getCredential(positionals[0]!)));
        return 0;
      }
      case 'tag': {
        if (positionals.length === 0 || !values.tag?.length) throw new UsageError('credential tag needs UID... and --tag T...');
        const body = { credentials: positionals.map((uid) => ({ credential_uid: uid, tags: values.tag! })) };
        await (values.replace ? service.replaceCredentialTags(body) : service.addCredentialTags(body));
        ctx.stdout(`${values.replace ? 'Replaced' : 'Added'} tags on ${positionals.length} credential(s)`);
        return 0;
      }
      case 'untag': {
        if (positionals.length !== 1 || values.tag?.length !== 1) throw new UsageError('credential untag takes one UID and one --tag T');
        await service.deleteCredentialTag(positionals[0]!, values.tag[0]!);
        ctx.stdout(`Removed tag ${values.tag[0]}`);
        return 0;
      }
      case 'schedule': {
        if (positionals.length === 0) throw new UsageError('credential schedule needs one or more UIDs');
        const job = await service.scheduleCredentials({ engine: values.engine!, credentials: positionals });
        ctx.stdout(values.json ? json(job) : `Scheduled ${positionals.length} credential(s) in job ${job.uid} on ${job.chain}, due ${job.scheduled_date}`);
        return 0;
      }
      case 'unschedule': {
        if (positionals.length !== 1) throw new UsageError('credential unschedule takes one UID');
        ctx.stdout(json(await service.unscheduleCredential(positionals[0]!, values.engine!)));
        return 0;
      }
    }
  });
}
