import { join } from 'node:path';
import { ServiceError } from '../../../common/errors.js';
import { certificateFileName, type Certificate } from '../../../common/wire-types.js';
import { writeAtomic } from '../../intake/paths.js';
import { parseCommand, PAGE_OPTIONS, PROOF_KINDS, pageQuery, proofFormat, subcommand, userPath } from '../args.js';
import { UsageError } from '../cli-error.js';
import { REMOTE_OPTIONS, withPartnerService, type CliContext } from '../context.js';
import { json, printPage } from '../output.js';

export const USAGE = `certificate list [--uid U] [--job UID] [--credential UID] [--issued-from DATE] [--issued-until DATE]
                 [--verification-status ok|pending|expired|revoked|failed|error]
                 [--and-credential-tags a,b] [--or-credential-tags a,b] [--and-job-tags a,b] [--or-job-tags a,b]
                 [--sort issued_date|chain] [--desc] [--page N] [--per-page N] [--json]
                                                      the Partner's issued certificates, with the spec's filters
certificate download UID... --out DIR [--format proof|vc|both]
                                                      write each certificate's proof file as DIR/UID.proof.json,
                                                      its Verifiable Credential as DIR/UID.vc.json, or both
  Both take [--partner ID|NAME], or --remote BASE_URL.`;

function row(c: Certificate): string[] {
  return [
    c.certificate.uid,
    c.certificate.credential.title,
    c.certificate.issued_date ?? '',
    c.revoked_date ?? '',
    c.last_verification ? `${c.last_verification.status} ${c.last_verification.timestamp}` : '',
  ];
}

/** `certificate list | download` */
export async function run(args: string[], ctx: CliContext): Promise<number> {
  const [given, ...rest] = args;
  const action = subcommand('certificate', given, ['list', 'download'], USAGE);
  const { values, positionals } = parseCommand(rest, {
    ...REMOTE_OPTIONS,
    uid: { type: 'string' },
    job: { type: 'string' },
    credential: { type: 'string' },
    'issued-from': { type: 'string' },
    'issued-until': { type: 'string' },
    'verification-status': { type: 'string' },
    'and-credential-tags': { type: 'string' },
    'or-credential-tags': { type: 'string' },
    'and-job-tags': { type: 'string' },
    'or-job-tags': { type: 'string' },
    ...PAGE_OPTIONS,
    out: { type: 'string' },
    format: { type: 'string' },
  });
  if (action === 'list' && positionals.length > 0) throw new UsageError(`certificate list takes no arguments (filter with --uid, --job, --credential …)\n${USAGE}`);
  if (action === 'download' && (positionals.length === 0 || values.out === undefined)) throw new UsageError(`certificate download needs UID... and --out DIR\n${USAGE}`);
  const kinds = PROOF_KINDS[proofFormat(values.format, USAGE)];
  // A Verifiable Credential is signed with the Partner's key: only then is the secret store opened.
  return withPartnerService(values, async (service) => {
    if (action === 'list') {
      const page = await service.listCertificates({
        uid: values.uid,
        job_uid: values.job,
        credential_uid: values.credential,
        issued_date_from: values['issued-from'],
        issued_date_until: values['issued-until'],
        verification_status: values['verification-status'],
        and_credential_tags: values['and-credential-tags'],
        or_credential_tags: values['or-credential-tags'],
        and_job_tags: values['and-job-tags'],
        or_job_tags: values['or-job-tags'],
        ...pageQuery(values),
      });
      printPage(ctx.stdout, values.json, page, 'certificates', ['uid', 'title', 'issued', 'revoked', 'last verification'], row);
      return 0;
    }
    // Every file is fetched before any is written: a wrong uid writes nothing.
    // Many credentials are signed together on worker threads when the service can.
    const vcs = kinds.includes('vc') && positionals.length > 1 && service.downloadCertificateVcs ? await service.downloadCertificateVcs(positionals) : undefined;
    const proofs: { name: string; text: string }[] = [];
    for (const [i, uid] of positionals.entries()) {
      for (const kind of kinds) {
        const bulk = kind === 'vc' ? vcs?.[i] : undefined;
        if (bulk instanceof ServiceError) throw bulk;
        proofs.push({ name: certificateFileName(uid, kind), text: bulk ?? (kind === 'vc' ? await service.downloadCertificateVc(uid) : await service.downloadCertificate(uid)) });
      }
    }
    const dir = userPath(values.out!);
    const written: string[] = [];
    for (const { name, text } of proofs) {
      const path = join(dir, name);
      await writeAtomic(path, text);
      written.push(path);
    }
    ctx.stdout(values.json ? json({ proofs: written }) : written.join('\n'));
    return 0;
  }, kinds.includes('vc') ? { secrets: true } : {});
}
