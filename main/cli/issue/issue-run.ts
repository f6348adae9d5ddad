/**
 * One `issue` run through the shared file intake (main/intake/): files are read and hashed a
 * few at a time (one read serves hash, MIME sniff and upload; never more than a window of them
 * in memory), their credentials created and scheduled a chunk per write transaction, the
 * journal (main/intake/journal.ts, the one the watched folders use) written once per chunk
 * BEFORE each side effect, and the proofs written per job.
 *
 * A run is one source of the journal (`Journal.runSource`), one row per file named by its
 * place on the command line: uploading (the create request may have gone out) → scheduled
 * (its credential is known) → issued (its proof is on disk), or duplicate (content uploaded
 * before, not issued again). The run's rows are closed when it ends.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { ServiceError, isServiceError } from '../../../common/errors.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import type { ProofExportFormat } from '../../../common/records.js';
import type { CreateAndScheduleRequest } from '../../../common/requests.js';
import type { Job } from '../../../common/wire-types.js';
import { diskFullError, isDiskFull } from '../../engine/disk-full.js';
import { newFileRow, type FileRow, type Journal } from '../../intake/index.js';
import { ByteGate, HELD_BYTES, INTAKE_BATCH, IntakeSender, READ_CONCURRENCY, certificatesOfJob, chunks, credentialTexts, credentialsSince, mapOrdered, proofTexts, readForIntake, vcPathOf, writeRound, type IntakeRead } from '../../intake/index.js';
import { systemClock, type Clock } from '../../engine/clock.js';
import { PROOF_KINDS } from '../args.js';
import type { CliContext } from '../context.js';
import { issueFaultPoint } from '../../intake/fault-points.js';

const POLL_MS = 250;
/** How far back from a journaled request its credential may carry an upload date (clock steps). */
const RECOVERY_SKEW_MS = 5_000;
/** Proofs written per round (one sync pass and one journal commit each). */
const PROOF_CHUNK = 1_000;

export interface IssueRunOptions {
  /** The run's source in the journal (`Journal.runSource` of the command line's fingerprint). */
  sourceId: number;
  files: string[];
  engineId: string;
  target: string;
  now: boolean;
  outDir: string | undefined;
  /** What is written per file: its proof file (the default), its Verifiable Credential (FILE.vc.json), or both. */
  format?: ProofExportFormat;
  allowDuplicates: boolean;
  /** What every credential gets: its title (or the file's name), metadata, tags, expiry and links. */
  title: string | undefined;
  meta: Record<string, unknown>;
  tags: string[];
  expiry: string | undefined;
  links: string[];
  /** The time journaled and asked about (the system clock unless a test passes one). */
  clock?: Clock;
}

/** What this process's scheduler last ran into (a full disk ends the wait instead of waiting forever). */
export interface Trouble {
  error?: unknown;
}

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

/** A downloaded text, or the download's error thrown (it stops the run). */
function textOf(text: unknown): string {
  if (typeof text !== 'string') throw text;
  return text;
}

/**
 * The credentials requests journaled as `uploading` created before a crash, if they did: made
 * since the earliest such request, holding the same content, and claimed by no other item.
 * One listing for the whole chunk, not one per file.
 */
async function findCreated(service: IssuingService, journal: Journal, items: { since: number; hash: string }[], claimedNow: Set<string>): Promise<(string | undefined)[]> {
  const since = Math.min(...items.map((i) => i.since)) - RECOVERY_SKEW_MS;
  const byHash = await credentialsSince(service, since, (c) => c.files.map((f) => f.file_hash));
  return items.map(({ since: at, hash }) => {
    const match = (byHash.get(hash) ?? []).find((c) => Date.parse(c.upload_date) >= at - RECOVERY_SKEW_MS && !claimedNow.has(c.uid) && !journal.credentialClaimed(c.uid));
    if (match) claimedNow.add(match.uid);
    return match?.uid;
  });
}

/** The job a credential is in on the engine now (scheduled again when its job failed and released it). */
async function jobOf(service: IssuingService, credentialUid: string, engineId: string): Promise<Job> {
  const jobs = (await service.listJobs({ uid: credentialUid, per_page: 100 })).items.filter((j) => j.chain === engineId && j.status !== 'failed');
  const job = jobs.find((j) => j.status !== 'scheduled') ?? jobs[0];
  if (job) return job;
  await service.scheduleCredentials({ engine: engineId, credentials: [credentialUid] });
  return (await service.listJobs({ uid: credentialUid, status: 'scheduled' })).items[0]!;
}

/** An unconfirmed job's way to final, for people: "2 of 3 confirmations", or "waiting for finality". */
function finalityProgress(job: Job): string {
  if (!job.finality) return 'waiting for confirmations';
  return job.finality.required === null ? `waiting for finality (${job.finality.confirmations} confirmation(s))` : `${job.finality.confirmations} of ${job.finality.required} confirmations`;
}

/**
 * Waits for the job to finish or fail, looking every POLL_MS (`sleep`); with --now, asks for it
 * to be issued (waiting while the account is busy) and looks again at once.
 */
export async function waitForJob(
  service: IssuingService,
  jobUid: string,
  engineId: string,
  now: boolean,
  ctx: CliContext,
  trouble: Trouble,
  sleep: (ms: number) => Promise<unknown> = setTimeout,
): Promise<Job> {
  let last = '';
  let lastWaiting: string | null | undefined = null;
  for (;;) {
    if (isDiskFull(trouble.error)) throw trouble.error;
    const job = await service.getJob(jobUid);
    const when =
      job.status === 'scheduled' ? `, due ${job.scheduled_date}` : job.status === 'unconfirmed' ? `, mined ${job.issued_date}, ${finalityProgress(job)}` : '';
    const tx = job.status === 'started' && job.transaction ? `, transaction ${job.transaction.hash}` : '';
    if (`${job.status}${when}${tx}` !== last) {
      last = `${job.status}${when}${tx}`;
      ctx.stderr(`job ${job.uid} on ${job.chain}: ${job.status}${when}${tx}`);
    }
    // Why it is not moving (funds, fees above the cap), said once each time it changes.
    if (job.waiting && job.waiting !== lastWaiting) ctx.stderr(`job ${job.uid}: ${job.waiting}`);
    lastWaiting = job.waiting;
    if (job.status === 'finished' || job.status === 'failed') return job;
    if (job.status === 'scheduled' && now) {
      try {
        const sent = await service.issueJobNow({ engine: engineId });
        // Sent (on a chain that mines on demand, already mined and final): looked at again at once.
        if (sent.uid === jobUid && sent.status !== 'scheduled') continue;
      } catch (error) {
        // Another job of the Partner is under way (perhaps the one a crashed run started): wait for it.
        if (isDiskFull(error) || !(error instanceof ServiceError && error.id === 'try_again_later')) throw error;
      }
    }
    await sleep(POLL_MS);
  }
}

/**
 * Milliseconds spent per stage, printed at the end (`intake: ...`): where the time goes. The
 * first, `process start`, is the process's age when the run began (Node's clock starts with the
 * process): for the `proofdesk` command, its start-up before the first file is read.
 */
class StageClock {
  private last = performance.now();
  readonly ms: Record<string, number> = { 'process start': this.last };
  lap(stage: string): void {
    const now = performance.now();
    this.ms[stage] = (this.ms[stage] ?? 0) + (now - this.last);
    this.last = now;
  }
  toString(): string {
    return Object.entries(this.ms)
      .map(([stage, ms]) => `${stage} ${(ms / 1000).toFixed(2)} s`)
      .join(', ');
  }
}

export interface ProofWritten {
  file: string;
  credential_uid: string;
  certificate_uid: string;
  /** The proof file written, or (--format vc) the credential. */
  proof: string;
  /** The Verifiable Credential written beside the proof (--format both). */
  vc?: string;
}

/** What a run did: its exit code, the jobs followed, the proofs written, the files not issued again. */
export interface IssueRunResult {
  code: number;
  jobUids: string[];
  written: ProofWritten[];
  skipped: number;
}

/** The journal's rows of one run, by the file's place on the command line; written in the caller's transaction. */
class RunRows {
  private readonly rows = new Map<number, FileRow>();

  constructor(
    private readonly journal: Journal,
    private readonly sourceId: number,
    private readonly target: string,
    private readonly engine: string,
  ) {
    for (const row of journal.openRows([sourceId])) this.rows.set(Number(row.rel_path), row);
  }

  get(i: number): FileRow | undefined {
    return this.rows.get(i);
  }

  /** A credential the journal already holds for this content on the target (any run): issuing it again would be a duplicate. */
  issuedContent(i: number, sha256: string): string | undefined {
    const same = this.journal.sameContent(sha256, this.target, this.rows.get(i)?.id ?? 0);
    return same.find((r) => r.credential_uid !== null && (r.state === 'scheduled' || r.state === 'issued'))?.credential_uid ?? undefined;
  }

  /** Writes file i's new state, making its row if it has none. */
  record(i: number, read: IntakeRead, changes: Partial<FileRow>, now: number): void {
    let row = this.rows.get(i);
    if (!row) {
      row = this.journal.insert(
        newFileRow({ folder_id: this.sourceId, rel_path: String(i), state: changes.state ?? 'uploading', target: this.target, size: read.size, mtime_ms: read.mtimeMs, engine: this.engine }, now),
      );
      this.rows.set(i, row);
    }
    Object.assign(row, { size: read.size, mtime_ms: read.mtimeMs, sha256: read.sha256 }, changes, { updated_at: now });
    this.journal.save(row);
  }

  /** Marks file i's proof written. */
  issued(i: number, proof: string, now: number): void {
    const row = this.rows.get(i)!;
    Object.assign(row, { state: 'issued', proof_path: proof, updated_at: now });
    this.journal.save(row);
  }
}

/** Runs (or resumes) the journaled run of `options.sourceId`. */
export async function issueRun(service: IssuingService, journal: Journal, options: IssueRunOptions, ctx: CliContext, trouble: Trouble): Promise<IssueRunResult> {
  const { files, engineId, target, allowDuplicates } = options;
  const rows = new RunRows(journal, options.sourceId, target, engineId);
  const time = options.clock ?? systemClock;
  const sender = new IntakeSender(service);
  const stages = new StageClock();
  const credentialUids: (string | undefined)[] = new Array(files.length).fill(undefined);
  const claimedNow = new Set<string>();
  let sent = 0;
  const request = (read: IntakeRead): CreateAndScheduleRequest => ({
    file: read.bytes ? { data: read.bytes, name: basename(read.path) } : { path: read.path },
    credential_details: {
      title: options.title ?? basename(read.path),
      metadata: { file_name: basename(read.path), ...options.meta },
      tags: options.tags,
      ...(options.expiry !== undefined ? { expiry_date: options.expiry } : {}),
      ...(options.links.length > 0 ? { credentials: options.links } : {}),
      ignore_duplicate: allowDuplicates ? 'true' : 'false',
    },
  });

  // 1. Read, create and schedule, a chunk at a time.
  const budget = new ByteGate(HELD_BYTES);
  const reads = mapOrdered(files.entries(), READ_CONCURRENCY, async ([i, file]) => ({ i, read: await readForIntake(file, budget) }));
  // The next chunk is read while this one is sent (it waits for the disk when this one does).
  // A chunk: one journal commit and one engine transaction.
  const chunkIterator = chunks(reads, INTAKE_BATCH);
  let upcoming = chunkIterator.next();
  upcoming.catch(() => undefined); // a failure is rethrown where it is awaited
  // Stopped by a refusal: the reads under way end quietly.
  const stopReading = () => void chunkIterator.return(undefined).catch(() => undefined);
  for (;;) {
    const next = await upcoming;
    if (next.done) break;
    const chunk = next.value;
    upcoming = chunkIterator.next();
    upcoming.catch(() => undefined);
    stages.lap('read+hash');
    const toSend: { i: number; read: IntakeRead }[] = [];
    const known: { i: number; read: IntakeRead; uid: string }[] = [];
    const recover: { i: number; read: IntakeRead; since: number }[] = [];
    for (const { i, read } of chunk) {
      const item = rows.get(i);
      let uid = item?.credential_uid ?? undefined;
      if (!uid && item?.state === 'duplicate') continue;
      if (!uid && !allowDuplicates) uid = rows.issuedContent(i, read.sha256);
      if (uid) known.push({ i, read, uid });
      else if (item?.state === 'uploading') recover.push({ i, read, since: item.attempt_at ?? 0 });
      else toSend.push({ i, read });
    }
    if (recover.length > 0) {
      const found = await findCreated(service, journal, recover.map((r) => ({ since: r.since, hash: r.read.sha256 })), claimedNow);
      recover.forEach((r, n) => (found[n] ? known.push({ ...r, uid: found[n] }) : toSend.push(r)));
    }
    const attemptAt = time.now();
    journal.transaction(() => {
      // A file already journaled with its credential keeps its row as it is (its proof may be written).
      for (const k of known) if (rows.get(k.i)?.credential_uid !== k.uid) rows.record(k.i, k.read, { state: 'scheduled', credential_uid: k.uid }, attemptAt);
      for (const s of toSend) rows.record(s.i, s.read, { state: 'uploading', attempt_at: attemptAt }, attemptAt);
    });
    for (const k of known) credentialUids[k.i] = k.uid;
    if (known.length > 0) ctx.stderr(`already sent: ${known.length} file(s) of this chunk (their credentials are taken, not created again)`);
    for (let n = 0; n < toSend.length; n++) issueFaultPoint('after-uploading');
    stages.lap('journal');
    const outcomes = await sender.createAndScheduleMany(
      engineId,
      toSend.map((s) => request(s.read)),
      toSend.map((s) => s.read.sha256),
    );
    stages.lap('create+schedule');
    let refused: unknown;
    const skipped: { i: number; read: IntakeRead }[] = [];
    toSend.forEach((s, n) => {
      const outcome = outcomes[n]!;
      if (outcome.credential) {
        issueFaultPoint('after-create');
        credentialUids[s.i] = outcome.credential.uid;
      } else if (isServiceError(outcome.error) && outcome.error.id === 'file_already_exists') {
        skipped.push(s);
        ctx.stderr(`not issued again: ${basename(s.read.path)} — this Partner uploaded the same content before (add --allow-duplicates to issue it again)`);
      } else refused ??= outcome.error;
    });
    const recordedAt = time.now();
    journal.transaction(() => {
      for (const s of toSend) if (credentialUids[s.i]) rows.record(s.i, s.read, { state: 'scheduled', credential_uid: credentialUids[s.i]! }, recordedAt);
      for (const s of skipped) rows.record(s.i, s.read, { state: 'duplicate' }, recordedAt);
    });
    stages.lap('journal');
    // Requests that were refused for another reason stop the run (what was created is journaled).
    for (const { read } of chunk) budget.release(read.bytes?.length ?? 0);
    if (refused !== undefined) {
      stopReading();
      throw refused;
    }
    sent += chunk.length;
    ctx.stderr(`scheduled ${sent}/${files.length}`);
  }

  // 2. Wait for the jobs; each finished job's certificates are read once.
  const certificateOf = new Map<string, string>();
  const jobUids: string[] = [];
  for (const uid of credentialUids) {
    if (!uid || certificateOf.has(uid)) continue;
    const job = await waitForJob(service, (await jobOf(service, uid, engineId)).uid, engineId, options.now, ctx, trouble);
    if (job.status === 'failed') {
      ctx.stderr(`The job ${job.uid} failed at ${job.failed_date}: ${job.failure_reason ?? 'no reason recorded'}. Its credentials are released: run the same command again to schedule them again.`);
      return { code: 1, jobUids, written: [], skipped: 0 };
    }
    jobUids.push(job.uid);
    for (const [credential, certificate] of await certificatesOfJob(service, job.uid)) certificateOf.set(credential, certificate);
    // A failed job's certificates are deleted: the one left is the issued one.
    if (!certificateOf.has(uid)) throw new ServiceError('missing_certificate_by_credential', `No certificate for credential ${uid} on ${engineId}`);
  }
  stages.lap('jobs');

  // 3. Proofs (and/or Verifiable Credentials), a chunk of files at a time: written durably,
  // then journaled as done under the first file of each (the proof, or the credential alone).
  const paths = proofPaths(files, options.outDir);
  const format = options.format ?? 'proof';
  const kinds = PROOF_KINDS[format];
  const primary = (i: number) => (format === 'vc' ? vcPathOf(paths[i]!) : paths[i]!);
  const written: ProofWritten[] = [];
  const indices = credentialUids.flatMap((uid, i) => (uid ? [i] : []));
  for (let at = 0; at < indices.length; at += PROOF_CHUNK) {
    const round = indices.slice(at, at + PROOF_CHUNK);
    const pending = round.filter((i) => {
      const item = rows.get(i);
      return !(item?.state === 'issued' && item.proof_path === primary(i) && existsSync(primary(i)));
    });
    const certificates = pending.map((i) => certificateOf.get(credentialUids[i]!)!);
    const proofs = kinds.includes('proof') ? await proofTexts(service, certificates) : [];
    const credentials = kinds.includes('vc') ? await credentialTexts(service, certificates) : [];
    const toWrite: { i: number; path: string; text: string }[] = [];
    for (const [n, i] of pending.entries()) {
      if (kinds.includes('proof')) toWrite.push({ i, path: paths[i]!, text: textOf(proofs[n]) });
      if (kinds.includes('vc')) toWrite.push({ i, path: vcPathOf(paths[i]!), text: textOf(credentials[n]) });
    }
    stages.lap('proofs: build');
    const errors = await writeRound(toWrite, { mode: 0o644, afterStep: (step) => {
        if (step === 'synced') issueFaultPoint('proofs-unrenamed');
      },
    });
    stages.lap('proofs: write');
    const failedItems = new Set(toWrite.filter((_, n) => errors[n] !== undefined).map((w) => w.i));
    const done = pending.filter((i) => !failedItems.has(i));
    for (let n = 0; n < done.length; n++) issueFaultPoint('after-proof');
    const doneAt = time.now();
    journal.transaction(() => {
      for (const i of done) rows.issued(i, primary(i), doneAt);
    });
    stages.lap('proofs: journal');
    const failed = errors.findIndex((e) => e !== undefined);
    if (failed >= 0) {
      const error = errors[failed];
      if (!isDiskFull(error)) throw error;
      const left = indices.length - at - done.length;
      throw diskFullError(dirname(toWrite[failed]!.path), left * kinds.length * Buffer.byteLength(toWrite[failed]!.text), error);
    }
    for (const i of round) {
      const certificate = certificateOf.get(credentialUids[i]!)!;
      written.push({ file: files[i]!, credential_uid: credentialUids[i]!, certificate_uid: certificate, proof: primary(i), ...(format === 'both' ? { vc: vcPathOf(paths[i]!) } : {}) });
    }
  }
  journal.closeSource(options.sourceId, time.now());
  ctx.stderr(`intake: ${files.length} files; ${stages.toString()}${sender.batched ? '' : ' (single requests: the service has no batched call)'}`);
  return { code: 0, jobUids, written, skipped: credentialUids.filter((u) => !u).length };
}
