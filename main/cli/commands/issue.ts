import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ServiceError } from '../../../common/errors.js';
import { parseIsoDate, validateTags } from '../../../common/validate.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import { diskFullError, isDiskFull } from '../../engine/disk-full.js';
import { defaultDataDir } from '../../engine/data-dir.js';
import { ensurePrivateFile } from '../../engine/private-files.js';
import { JOURNAL_FILE, Journal, resumeOlderIssueRun } from '../../intake/index.js';
import { parseCommand, ISSUING_OPTIONS, parseMetaPairs, proofFormat, userPath } from '../args.js';
import { UsageError } from '../cli-error.js';
import { sha256Hex } from '../../files/hash-file.js';
import { REMOTE_OPTIONS, withPartnerService, type CliContext } from '../context.js';
import { issueRun, type Trouble } from '../issue/issue-run.js';
import { json } from '../output.js';

export const USAGE = `issue FILE... [--engine local] [--title T] [--expiry DATE] [--link UID]... [--tag T]... [--meta KEY=VALUE]...
      [--now] [--out DIR] [--format proof|vc|both] [--allow-duplicates] [--remote BASE_URL]
                                                      upload, create and schedule one credential per file, wait for
                                                      its job to finish and write FILE.proof.json (into --out DIR,
                                                      or beside each file); --format vc|both writes FILE.vc.json, the
                                                      Verifiable Credential, instead or beside; --now issues at once (demo engines).
                                                      Running the same command again after a crash resumes it;
                                                      content this Partner already issued there is not issued again
                                                      unless --allow-duplicates.
                                                      e.g. issue diploma.pdf --title "Diploma" --expiry 2030-01-01 --now`;

const POLL_MS = 250;

/** `issue FILE...` */
export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    ...ISSUING_OPTIONS,
    ...REMOTE_OPTIONS,
    now: { type: 'boolean' },
    out: { type: 'string' },
    format: { type: 'string' },
    title: { type: 'string' },
    expiry: { type: 'string' },
    link: { type: 'string', multiple: true },
    'allow-duplicates': { type: 'boolean' },
  });
  if (positionals.length === 0) throw new UsageError(`issue needs one or more files\n${USAGE}`);
  const files = positionals.map((f) => resolve(userPath(f)!));
  const stats = files.map((file) => {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) throw new UsageError(`Not a file: ${file}`);
    return stat;
  });
  const tags = validateTags(values.tag ?? [], '--tag');
  const meta = parseMetaPairs(values.meta);
  if (values.expiry !== undefined) parseIsoDate(values.expiry, '--expiry', 'invalid_expiry_date');
  if (values.title !== undefined && values.title.trim() === '') throw new UsageError('--title must not be empty');
  const links = values.link ?? [];
  const allowDuplicates = values['allow-duplicates'] === true;
  const format = proofFormat(values.format, USAGE);
  const outDir = userPath(values.out);
  if (outDir) mkdirSync(outDir, { recursive: true });
  const dataDir = userPath(values.data) ?? defaultDataDir();
  const engineId = values.engine!;
  const target = JSON.stringify([values.remote ?? resolve(dataDir), values.partner ?? '', engineId]);
  // The command line's fingerprint: each file by path, size and modification time (content that
  // changed makes a new run; reading every file twice just for this would double the reads).
  const runKey = sha256Hex(
    JSON.stringify({ target, files: files.map((f, i) => [f, stats[i]!.size, stats[i]!.mtimeMs]), title: values.title, expiry: values.expiry, links, tags, meta, allowDuplicates, outDir: outDir ?? null }),
  );

  // Against the embedded engine this process also runs the scheduler (or leaves issuing to the
  // process that holds the lock); against --remote the service issues on its own.
  const trouble: Trouble = {};
  const onError = (error: unknown) => {
    trouble.error = error;
    ctx.stderr(`issuing: ${(error as Error).message ?? String(error)}`);
  };
  const inputBytes = stats.reduce((sum, s) => sum + s.size, 0);
  return withPartnerService({ ...values, data: userPath(values.data) }, issueFiles, {
    secrets: true,
    issuing: { scheduler: true, tickMs: POLL_MS, onError },
    ...(values.now ? { issuesOn: engineId } : {}),
  }).catch((error: unknown) => {
    // A proof folder that is full says so itself; anything else full is the data directory.
    if (isDiskFull(error) && !(error instanceof ServiceError)) throw diskFullError(dataDir, 2 * inputBytes + 1024 * 1024, error);
    throw error;
  });

  async function issueFiles(service: IssuingService): Promise<number> {
    // The intake journal (the watched folders' too), its commits synced to disk: a run commits a few large transactions.
    const journal = Journal.open(dataDir, JOURNAL_FILE, { fullSync: true });
    ensurePrivateFile(join(dataDir, JOURNAL_FILE));
    try {
      const sourceId = journal.runSource(runKey);
      const resumed = journal.openRows([sourceId]).length > 0 || resumeOlderIssueRun(dataDir, runKey, journal, sourceId, { target, engine: engineId }, Date.now());
      if (resumed) ctx.stderr('Resuming the earlier run of this command: files it already sent are not sent again.');
      const result = await issueRun(
        service,
        journal,
        { sourceId, files, engineId, target, now: values.now === true, outDir, format, allowDuplicates, title: values.title, meta, tags, expiry: values.expiry, links },
        ctx,
        trouble,
      );
      if (result.code !== 0) return result.code;
      const { jobUids, written, skipped } = result;
      if (values.json) ctx.stdout(json({ job: jobUids[0] ?? null, jobs: jobUids, engine: engineId, proofs: written, skipped }));
      else for (const w of written) ctx.stdout([w.proof, w.vc].filter((p) => p !== undefined).join('\n'));
      ctx.stderr(`${written.length} credential(s) issued in job ${jobUids.join(', ') || '(none)'}; proof files written${skipped ? `; ${skipped} not issued again` : ''}.`);
      return 0;
    } finally {
      journal.close();
    }
  }
}
