import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { validateTags } from '../../../common/validate.js';
import type { Credential, Job } from '../../../common/wire-types.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import { COMMON_OPTIONS, ISSUING_OPTIONS, parseMetaPairs, userPath } from '../args.js';
import { UsageError } from '../cli-error.js';
import { REMOTE_OPTIONS, withPartnerService, type CliContext } from '../context.js';
import { json } from '../output.js';

export const ISSUE_USAGE = `issue FILE... [--engine local] [--tag T]... [--meta KEY=VALUE]... [--now] [--out DIR] [--remote BASE_URL]
                                                      upload, create and schedule one credential per file, wait for
                                                      its job to finish and write FILE.proof.json (into --out DIR,
                                                      or beside each file); --now issues at once (demo engines)`;

const POLL_MS = 250;

/** Where each input's proof goes: beside it, or in --out with a number added on a name clash. */
function proofPaths(files: string[], outDir: string | undefined): string[] {
  const taken = new Set<string>();
  return files.map((file) => {
    const dir = outDir ?? dirname(file);
    let path = join(dir, `${basename(file)}.proof.json`);
    for (let n = 2; taken.has(path); n++) path = join(dir, `${basename(file)}.${n}.proof.json`);
    taken.add(path);
    return path;
  });
}

async function waitForJob(service: IssuingService, jobUid: string, ctx: CliContext): Promise<Job> {
  let last = '';
  for (;;) {
    const job = await service.getJob(jobUid);
    if (job.status !== last) {
      last = job.status;
      const when =
        job.status === 'scheduled' ? `, due ${job.scheduled_date}` : job.status === 'unconfirmed' ? `, mined ${job.issued_date}, waiting for confirmations` : '';
      ctx.stderr(`job ${job.uid} on ${job.chain}: ${job.status}${when}`);
    }
    if (job.status === 'finished' || job.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** `issue FILE...` */
export async function issueCommand(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...COMMON_OPTIONS,
      ...ISSUING_OPTIONS,
      ...REMOTE_OPTIONS,
      now: { type: 'boolean' },
      out: { type: 'string' },
    },
  });
  if (positionals.length === 0) throw new UsageError(`issue needs one or more files\n${ISSUE_USAGE}`);
  const files = positionals.map((f) => userPath(f));
  for (const file of files) if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`Not a file: ${file}`);
  const tags = validateTags(values.tag ?? [], '--tag');
  const meta = parseMetaPairs(values.meta);
  const outDir = userPath(values.out);
  if (outDir) mkdirSync(outDir, { recursive: true });

  // Against the embedded engine this process also runs the scheduler (or leaves issuing to the
  // process that holds the lock); against --remote the service issues on its own.
  return withPartnerService(
    { ...values, data: userPath(values.data) },
    async (service) => {
      const engineId = values.engine!;
      const credentials: Credential[] = [];
      for (const [i, file] of files.entries()) {
        credentials.push(
          await service.createAndScheduleCredential(engineId, {
            file: { path: file },
            credential_details: { title: basename(file), metadata: { file_name: basename(file), ...meta }, tags, ignore_duplicate: 'true' },
          }),
        );
        ctx.stderr(`scheduled ${i + 1}/${files.length}: ${basename(file)}`);
      }
      const open = await service.listJobs({ uid: credentials[0]!.uid, status: 'scheduled' });
      let jobUid = open.items[0]!.uid;
      if (values.now) jobUid = (await service.issueJobNow({ engine: engineId })).uid;
      const job = await waitForJob(service, jobUid, ctx);
      if (job.status === 'failed') {
        ctx.stderr(`The job failed at ${job.failed_date}; its credentials are released and can be scheduled again.`);
        return 1;
      }
      const paths = proofPaths(files, outDir);
      const written: { file: string; credential_uid: string; certificate_uid: string; proof: string }[] = [];
      for (const [i, credential] of credentials.entries()) {
        const certificate = (await service.listCertificates({ credential_uid: credential.uid, per_page: 0 })).items.find((c) => c.certificate.credential.uid === credential.uid);
        const uid = certificate!.certificate.uid;
        writeFileSync(paths[i]!, await service.downloadCertificate(uid));
        written.push({ file: files[i]!, credential_uid: credential.uid, certificate_uid: uid, proof: paths[i]! });
      }
      if (values.json) ctx.stdout(json({ job: job.uid, engine: job.chain, proofs: written }));
      else for (const w of written) ctx.stdout(`${w.proof}`);
      ctx.stderr(`${written.length} credential(s) issued in job ${job.uid}; proof files written.`);
      return 0;
    },
    { secrets: true, issuing: { scheduler: true, tickMs: POLL_MS } },
  );
}
