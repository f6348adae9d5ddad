import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ServiceError } from '../../../common/errors.js';
import { parseIsoDate, validateTags } from '../../../common/validate.js';
import type { Credential, Job } from '../../../common/wire-types.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import { diskFullError, isDiskFull } from '../../engine/disk-full.js';
import { defaultDataDir } from '../../engine/index.js';
import { COMMON_OPTIONS, ISSUING_OPTIONS, parseMetaPairs, userPath } from '../args.js';
import { UsageError } from '../cli-error.js';
import { REMOTE_OPTIONS, withPartnerService, type CliContext } from '../context.js';
import { issueFaultPoint } from '../issue/issue-fault-points.js';
import { IssueJournal } from '../issue/issue-journal.js';
import { writeFileDurably } from '../../chain/anvil-durable-state.js';
import { json } from '../output.js';

export const ISSUE_USAGE = `issue FILE... [--engine local] [--title T] [--expiry DATE] [--link UID]... [--tag T]... [--meta KEY=VALUE]...
      [--now] [--out DIR] [--allow-duplicates] [--remote BASE_URL]
                                                      upload, create and schedule one credential per file, wait for
                                                      its job to finish and write FILE.proof.json (into --out DIR,
                                                      or beside each file); --now issues at once (demo engines).
                                                      Running the same command again after a crash resumes it;
                                                      content this Partner already issued there is not issued again
                                                      unless --allow-duplicates.
                                                      e.g. issue diploma.pdf --title "Diploma" --expiry 2030-01-01 --now`;

const POLL_MS = 250;
/** How far back from a journaled request its credential may carry an upload date (clock steps). */
const RECOVERY_SKEW_MS = 5_000;

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

function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The credential a request journaled as `uploading` created before the crash, if it did: made
 * since the request, holding the same content, and not claimed by another item.
 */
async function findCreated(service: IssuingService, journal: IssueJournal, since: number, hash: string): Promise<Credential | undefined> {
  for (let page = 1; ; page++) {
    const result = await service.listCredentials({ upload_date_from: new Date(since - RECOVERY_SKEW_MS).toISOString(), per_page: 500, page });
    const match = result.items.find((c) => c.files.some((f) => f.file_hash === hash) && !journal.claimed(c.uid));
    if (match) return match;
    if (page >= result.total_pages || result.items.length === 0) return undefined;
  }
}

/** The job a credential is in on the engine now (scheduled again when its job failed and released it). */
async function jobOf(service: IssuingService, credentialUid: string, engineId: string): Promise<Job> {
  const jobs = (await service.listJobs({ uid: credentialUid, per_page: 100 })).items.filter((j) => j.chain === engineId && j.status !== 'failed');
  const job = jobs.find((j) => j.status !== 'scheduled') ?? jobs[0];
  if (job) return job;
  await service.scheduleCredentials({ engine: engineId, credentials: [credentialUid] });
  return (await service.listJobs({ uid: credentialUid, status: 'scheduled' })).items[0]!;
}

/** What the scheduler of this process last ran into (a full disk ends the wait instead of waiting forever). */
interface Trouble {
  error?: unknown;
}

/** Waits for the job to finish or fail; with --now, asks for it to be issued, waiting while the account is busy. */
async function waitForJob(service: IssuingService, jobUid: string, engineId: string, now: boolean, ctx: CliContext, trouble: Trouble): Promise<Job> {
  let last = '';
  for (;;) {
    if (isDiskFull(trouble.error)) throw trouble.error;
    const job = await service.getJob(jobUid);
    if (job.status !== last) {
      last = job.status;
      const when =
        job.status === 'scheduled' ? `, due ${job.scheduled_date}` : job.status === 'unconfirmed' ? `, mined ${job.issued_date}, waiting for confirmations` : '';
      ctx.stderr(`job ${job.uid} on ${job.chain}: ${job.status}${when}`);
    }
    if (job.status === 'finished' || job.status === 'failed') return job;
    if (job.status === 'scheduled' && now) {
      try {
        await service.issueJobNow({ engine: engineId });
      } catch (error) {
        // Another job of the Partner is under way (perhaps the one a crashed run started): wait for it.
        if (isDiskFull(error) || !(error instanceof ServiceError && error.id === 'try_again_later')) throw error;
      }
    }
    await sleep(POLL_MS);
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
      title: { type: 'string' },
      expiry: { type: 'string' },
      link: { type: 'string', multiple: true },
      'allow-duplicates': { type: 'boolean' },
    },
  });
  if (positionals.length === 0) throw new UsageError(`issue needs one or more files\n${ISSUE_USAGE}`);
  const files = positionals.map((f) => resolve(userPath(f)!));
  for (const file of files) if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`Not a file: ${file}`);
  const tags = validateTags(values.tag ?? [], '--tag');
  const meta = parseMetaPairs(values.meta);
  if (values.expiry !== undefined) parseIsoDate(values.expiry, '--expiry', 'invalid_expiry_date');
  if (values.title !== undefined && values.title.trim() === '') throw new UsageError('--title must not be empty');
  const links = values.link ?? [];
  const allowDuplicates = values['allow-duplicates'] === true;
  const outDir = userPath(values.out);
  if (outDir) mkdirSync(outDir, { recursive: true });
  const dataDir = userPath(values.data) ?? defaultDataDir();
  const engineId = values.engine!;
  const target = JSON.stringify([values.remote ?? resolve(dataDir), values.partner ?? '', engineId]);
  const hashes = files.map((file) => sha256(readFileSync(file)));
  const runKey = sha256(
    JSON.stringify({ target, files: files.map((f, i) => [f, hashes[i]]), title: values.title, expiry: values.expiry, links, tags, meta, allowDuplicates, outDir: outDir ?? null }),
  );

  // Against the embedded engine this process also runs the scheduler (or leaves issuing to the
  // process that holds the lock); against --remote the service issues on its own.
  const trouble: Trouble = {};
  const onError = (error: unknown) => {
    trouble.error = error;
    ctx.stderr(`issuing: ${(error as Error).message ?? String(error)}`);
  };
  const inputBytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
  return withPartnerService(
    { ...values, data: userPath(values.data) },
    async (service) => {
      try {
        return await issueFiles(service);
      } catch (error) {
        // A proof folder that is full says so itself; anything else full is the data directory.
        if (isDiskFull(error) && !(error instanceof ServiceError)) throw diskFullError(dataDir, 2 * inputBytes + 1024 * 1024, error);
        throw error;
      }
    },
    { secrets: true, issuing: { scheduler: true, tickMs: POLL_MS, onError } },
  ).catch((error: unknown) => {
    if (isDiskFull(error) && !(error instanceof ServiceError)) throw diskFullError(dataDir, 2 * inputBytes + 1024 * 1024, error);
    throw error;
  });

  async function issueFiles(service: IssuingService): Promise<number> {
      const journal = IssueJournal.open(dataDir);
      try {
        const run = journal.openRun(runKey, target, Date.now());
        if (run.resumed) ctx.stderr('Resuming the earlier run of this command: files it already sent are not sent again.');
        const credentialUids: (string | undefined)[] = [];
        for (const [i, file] of files.entries()) {
          const hash = hashes[i]!;
          const item = journal.item(run.id, i);
          let uid = item?.credential_uid ?? undefined;
          if (!uid && item?.state === 'skipped') {
            credentialUids.push(undefined);
            continue;
          }
          if (!uid && !allowDuplicates) uid = journal.issuedContent(target, hash);
          if (!uid && item?.state === 'uploading') uid = (await findCreated(service, journal, item.attempt_at ?? 0, hash))?.uid;
          if (uid) {
            journal.created(run.id, i, file, hash, uid);
            credentialUids.push(uid);
            ctx.stderr(`already sent ${i + 1}/${files.length}: ${basename(file)} (credential ${uid})`);
            continue;
          }
          journal.uploading(run.id, i, file, hash, Date.now());
          issueFaultPoint('after-uploading');
          let credential: Credential;
          try {
            credential = await service.createAndScheduleCredential(engineId, {
              file: { path: file },
              credential_details: {
                title: values.title ?? basename(file),
                metadata: { file_name: basename(file), ...meta },
                tags,
                ...(values.expiry !== undefined ? { expiry_date: values.expiry } : {}),
                ...(links.length > 0 ? { credentials: links } : {}),
                ignore_duplicate: allowDuplicates ? 'true' : 'false',
              },
            });
          } catch (error) {
            if (!(error instanceof ServiceError && error.id === 'file_already_exists')) throw error;
            journal.skipped(run.id, i, file, hash);
            credentialUids.push(undefined);
            ctx.stderr(`not issued again: ${basename(file)} — this Partner uploaded the same content before (add --allow-duplicates to issue it again)`);
            continue;
          }
          issueFaultPoint('after-create');
          journal.created(run.id, i, file, hash, credential.uid);
          credentialUids.push(credential.uid);
          ctx.stderr(`scheduled ${i + 1}/${files.length}: ${basename(file)}`);
        }

        const jobs = new Map<string, Job>();
        for (const uid of credentialUids) {
          if (!uid) continue;
          const job = await jobOf(service, uid, engineId);
          if (!jobs.has(job.uid)) jobs.set(job.uid, await waitForJob(service, job.uid, engineId, values.now === true, ctx, trouble));
        }
        const failed = [...jobs.values()].find((j) => j.status === 'failed');
        if (failed) {
          ctx.stderr(`The job ${failed.uid} failed at ${failed.failed_date} (see \`jobs\` for its reason). Its credentials are released: run the same command again to schedule them again.`);
          return 1;
        }

        const paths = proofPaths(files, outDir);
        const written: { file: string; credential_uid: string; certificate_uid: string; proof: string }[] = [];
        for (const [i, uid] of credentialUids.entries()) {
          if (!uid) continue;
          // A failed job's certificates are deleted: the one left is the issued one.
          const certificate = (await service.listCertificates({ credential_uid: uid, per_page: 0 })).items.find((c) => c.certificate.credential.uid === uid);
          if (!certificate) throw new ServiceError('missing_certificate_by_credential', `No certificate for credential ${uid} on ${engineId}`);
          const path = paths[i]!;
          const item = journal.item(run.id, i);
          if (!(item?.state === 'done' && item.proof === path && existsSync(path))) {
            const proof = await service.downloadCertificate(certificate.certificate.uid);
            try {
              writeFileDurably(path, proof, 0o644);
            } catch (error) {
              if (!isDiskFull(error)) throw error;
              const left = credentialUids.slice(i).filter(Boolean).length;
              throw diskFullError(dirname(path), left * Buffer.byteLength(proof), error);
            }
            issueFaultPoint('after-proof');
            journal.done(run.id, i, path);
          }
          written.push({ file: files[i]!, credential_uid: uid, certificate_uid: certificate.certificate.uid, proof: path });
        }
        journal.finishRun(run.id);
        const skipped = credentialUids.filter((u) => !u).length;
        const jobUids = [...jobs.keys()];
        if (values.json) ctx.stdout(json({ job: jobUids[0] ?? null, jobs: jobUids, engine: engineId, proofs: written, skipped }));
        else for (const w of written) ctx.stdout(`${w.proof}`);
        ctx.stderr(`${written.length} credential(s) issued in job ${jobUids.join(', ') || '(none)'}; proof files written${skipped ? `; ${skipped} not issued again` : ''}.`);
        return 0;
      } finally {
        journal.close();
      }
  }
}
