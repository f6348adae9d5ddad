/**
 * Stage 4, collect proofs: the jobs of the files waiting for one are followed in bulk; when a
 * file's job is finished its proof is written, and a failed job's credentials are scheduled again.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isServiceError } from '../../common/errors.js';
import { RECOVERY_SKEW_MS, type IngestCore } from './core.js';
import { ContainmentError, errorCode, hashFile, statEntry } from './entries.js';
import { ingestFaultPoint } from './fault-points.js';
import type { FileRow } from './journal.js';
import { DONE_DIR } from './names.js';
import { ProofRounds, certificatesOfJob, credentialsOfJob } from '../intake/index.js';
import { firstFree, fitPath, moveFile, numbered, writeAtomic } from './paths.js';

/** How often at most a file overdue for its job is asked about on its own (see checkOverdue). */
const OVERDUE_ASK_MS = 10 * 60_000;

export class ProofCollector {
  private readonly certificateOf = new Map<string, string>();
  /** Jobs finished or failed since the oldest waiting file was scheduled, with what they hold. */
  private readonly jobCache = new Map<string, { start: number; status: 'finished' | 'failed'; credentials: Map<string, string> }>();
  readonly lastAsked = new Map<number, number>();
  /** Per engine, the latest start of a job seen finished (see checkOverdue). */
  private readonly latestFinishedStart = new Map<string, number>();
  pollRunning: Promise<void> | undefined;
  /** Rows waiting for their job that the watcher saw change (looked at before the next poll). */
  readonly suspects = new Set<number>();
  /** Proofs of the files finishing side by side, written together in rounds (one sync pass each). */
  private readonly rounds = new ProofRounds(500, (step) => {
    if (step === 'synced') ingestFaultPoint('proofs-unrenamed');
  });

  constructor(private readonly core: IngestCore) {}

  pollJobs(): Promise<void> {
    this.pollRunning ??= this.pollRound()
      .catch((error) => this.core.problem('following jobs', error))
      .finally(() => (this.pollRunning = undefined));
    return this.pollRunning;
  }

  /**
   * Follows the jobs of the files waiting for one, in bulk: a job holding a waiting file's
   * credential started after the credential was scheduled, so the jobs finished or failed since
   * the oldest waiting file's scheduling are listed (each job's certificates or credentials are
   * read once), and matched to the files by credential uid. Costs a few calls per job, none per
   * file — which matters most against a remote service.
   */
  async pollRound(): Promise<void> {
    if (this.suspects.size > 0) await this.checkSuspects();
    const waiting = new Map<string, FileRow>();
    let since = Infinity;
    for (const row of this.core.rows.values()) {
      if (row.state !== 'scheduled' || this.core.busy.has(row.id) || this.core.queues.finish.queued.has(row.id)) continue;
      waiting.set(row.credential_uid!, row);
      since = Math.min(since, row.attempt_at ?? row.updated_at);
    }
    if (waiting.size === 0) {
      this.jobCache.clear();
      return;
    }
    since -= RECOVERY_SKEW_MS;
    // Jobs that started before every waiting file was scheduled cannot hold any of them.
    for (const [uid, entry] of this.jobCache) if (entry.start < since) this.jobCache.delete(uid);
    for (const status of ['finished', 'failed'] as const) {
      for (let page = 1; ; page++) {
        const jobs = await this.core.service.listJobs({ status, start_date_from: new Date(since).toISOString(), sort_by: 'start_date', per_page: 100, page });
        for (const job of jobs.items) {
          if (this.core.stopping) return;
          if (!this.jobCache.has(job.uid)) {
            const start = Date.parse(job.start_date ?? job.created_date);
            this.jobCache.set(job.uid, { start, status, credentials: await this.jobContents(job.uid, status) });
            if (status === 'finished') this.latestFinishedStart.set(job.chain, Math.max(start, this.latestFinishedStart.get(job.chain) ?? 0));
          }
        }
        if (page >= jobs.total_pages || jobs.items.length === 0) break;
      }
    }
    // Finished jobs first: a credential in a finished job is issued, whatever failed before.
    for (const [jobUid, entry] of this.jobCache) {
      if (entry.status !== 'finished') continue;
      for (const [credentialUid, certificateUid] of entry.credentials) {
        const row = waiting.get(credentialUid);
        if (!row) continue;
        waiting.delete(credentialUid);
        this.certificateOf.set(credentialUid, certificateUid);
        row.job_uid = jobUid;
        this.core.queues.finish.push(row.id);
      }
    }
    const failed = new Map<string, FileRow[]>();
    for (const [jobUid, entry] of this.jobCache) {
      if (entry.status !== 'failed') continue;
      for (const credentialUid of entry.credentials.keys()) {
        const row = waiting.get(credentialUid);
        // A row already scheduled again into another job has left this one behind.
        if (!row || (row.job_uid !== null && row.job_uid !== jobUid)) continue;
        waiting.delete(credentialUid);
        const list = failed.get(jobUid);
        if (list) list.push(row);
        else failed.set(jobUid, [row]);
      }
    }
    this.core.pump();
    for (const [jobUid, rows] of failed) await this.reschedule(jobUid, rows);
    await this.checkOverdue(waiting);
  }

  /** A finished job's credential uid → certificate uid; a failed job's credential uids (one paged query per job). */
  async jobContents(jobUid: string, status: 'finished' | 'failed'): Promise<Map<string, string>> {
    if (status === 'finished') return certificatesOfJob(this.core.service, jobUid);
    return new Map([...(await credentialsOfJob(this.core.service, jobUid))].map((uid) => [uid, '']));
  }

  /**
   * A safety net for credentials taken out of their job by someone else. Jobs start in order,
   * so once a job on the engine that started well after a file was scheduled has finished, the
   * file's own job should have finished too; a file still waiting then is overdue and is asked
   * about on its own (a few per round, each at most every ten minutes).
   */
  async checkOverdue(waiting: Map<string, FileRow>): Promise<void> {
    const now = Date.now();
    let checked = 0;
    for (const row of waiting.values()) {
      if (checked >= 20 || this.core.stopping) return;
      const scheduled = row.attempt_at ?? row.updated_at;
      if (scheduled + RECOVERY_SKEW_MS >= (this.latestFinishedStart.get(row.engine) ?? 0)) continue;
      if (now - (this.lastAsked.get(row.id) ?? 0) < OVERDUE_ASK_MS) continue;
      this.lastAsked.set(row.id, now);
      checked++;
      const job = await this.core.uploader.activeJob(row.credential_uid!, row.engine);
      if (!job) {
        this.core.save(row, { state: 'created', job_uid: null });
        this.core.route(row);
      } else if (row.job_uid !== job.uid) this.core.save(row, { job_uid: job.uid });
    }
    this.core.pump();
  }

  /** A failed job released its credentials: they go into the next job. */
  async reschedule(jobUid: string, rows: FileRow[]): Promise<void> {
    this.core.options.onEvent?.({ type: 'job-failed', job_uid: jobUid, credentials: rows.length });
    const byEngine = new Map<string, FileRow[]>();
    for (const row of rows) {
      const list = byEngine.get(row.engine);
      if (list) list.push(row);
      else byEngine.set(row.engine, [row]);
    }
    for (const [engine, group] of byEngine) {
      const at = Date.now();
      for (const row of group) this.core.save(row, { attempt_at: at, job_failures: row.job_failures + 1 });
      await this.core.durable();
      try {
        const job = await this.core.service.scheduleCredentials({ engine, credentials: group.map((r) => r.credential_uid!) });
        for (const row of group) this.core.save(row, { job_uid: job.uid });
      } catch {
        // Some are scheduled already (or gone): each finds its own way.
        for (const row of group) {
          this.core.save(row, { state: 'created', job_uid: null });
          this.core.route(row);
        }
        this.core.pump();
      }
    }
  }

  /** Where the original and its proof go: `done/<rel>` and `<out>/<rel>.proof.json`, numbered on a clash. */
  chooseDonePaths(row: FileRow): { final: string; proof: string } {
    const folder = this.core.folderOf(row);
    const [final, proof] = firstFree(
      (n) => {
        const rel = numbered(row.rel_path, n);
        return [join(folder.root, DONE_DIR, rel), fitPath(join(folder.outDir, rel), '.proof.json')];
      },
      this.core.reserved,
    );
    return { final: final!, proof: proof! };
  }

  /**
   * Files the watcher saw change while they waited for their job: one whose size or time
   * changed has its credential withdrawn (unscheduled, which deletes it: nothing was issued) and
   * settles again, so its new content is what is issued. A credential that cannot be withdrawn
   * any more (its job started) is left; finish() tells it superseded.
   */
  private async checkSuspects(): Promise<void> {
    for (const id of [...this.suspects]) {
      this.suspects.delete(id);
      const row = this.core.rows.get(id);
      if (!row || row.state !== 'scheduled' || this.core.busy.has(id) || this.core.queues.finish.queued.has(id)) continue;
      const info = await statEntry(this.core.pathOf(row));
      if (info.kind !== 'file' || (info.size === row.size && info.mtimeMs === row.mtime_ms)) continue;
      const uid = row.credential_uid!;
      try {
        if (!(await this.core.service.unscheduleCredential(uid, row.engine)).credential_deleted) continue;
      } catch (error) {
        if (isServiceError(error)) continue;
        throw error;
      }
      this.core.warn(`${row.rel_path} changed after it was taken, before it was issued: its credential ${uid} is withdrawn, and the new content is taken once it is stable`);
      this.core.unindexContent(row);
      this.core.save(row, { state: 'seen', size: info.size, mtime_ms: info.mtimeMs, sha256: null, details: null, sidecar: null, credential_uid: null, job_uid: null });
      const now = Date.now();
      this.core.settling.set(row.id, { stableSince: now, checkAt: now + this.core.stableMs });
    }
  }

  /**
   * Whether the file is still what was issued: size and modification time, then its hash.
   * `gone`: deleted (or a link put in its place, which is never read); `changed`: other content.
   */
  private async compare(row: FileRow): Promise<'same' | 'changed' | 'gone'> {
    const path = this.core.pathOf(row);
    const info = await statEntry(path);
    if (info.kind !== 'file') return 'gone';
    if (info.size !== row.size || info.mtimeMs !== row.mtime_ms) return 'changed';
    try {
      const { sha256 } = await hashFile(path, info.size, this.core.folderOf(row).realRoot);
      return sha256 === row.sha256 ? 'same' : 'changed';
    } catch (error) {
      if (error instanceof ContainmentError || errorCode(error) === 'ENOENT') return 'gone';
      throw error;
    }
  }

  /**
   * The file changed after it was taken and its credential is issued: the proof (of the content
   * that was issued) gets a note beside it saying so, the file is not moved to done/, and it is
   * taken again as a new file.
   */
  private async supersede(row: FileRow): Promise<void> {
    const folder = this.core.folderOf(row);
    const message = `${row.rel_path} changed after it was taken: credential ${row.credential_uid} was issued for its earlier content (sha256 ${row.sha256}), so this proof is superseded. The file was not moved to ${DONE_DIR}/; its new content is taken as a new file.`;
    await writeAtomic(
      fitPath(row.proof_path!, '.superseded.json'),
      `${JSON.stringify({ id: 'superseded', message, when: new Date().toISOString(), file: row.rel_path, sha256: row.sha256, credential_uid: row.credential_uid, proof: row.proof_path }, null, 2)}\n`,
    );
    this.core.warn(message);
    this.core.save(row, { state: 'moved', final_path: null, error_message: message, closed_at: Date.now() });
    this.core.counts.issued++;
    this.core.options.onEvent?.({ type: 'issued', folder: folder.root, path: row.rel_path, proof: row.proof_path!, credential_uid: row.credential_uid! });
    // Taken again right away as a new file (not only at the next rescan).
    this.core.untrack(row);
    this.core.discovered.set(this.core.key(folder, row.rel_path), { folder, rel: row.rel_path });
  }

  async finish(row: FileRow): Promise<void> {
    let checked: 'same' | 'gone' | undefined;
    if (row.state === 'scheduled') {
      const credentialUid = row.credential_uid!;
      let certificateUid = this.certificateOf.get(credentialUid);
      if (!certificateUid) {
        const page = await this.core.service.listCertificates({ credential_uid: credentialUid, per_page: 100 });
        certificateUid = page.items.find((c) => c.certificate.credential.uid === credentialUid)?.certificate.uid;
      }
      if (!certificateUid) {
        // Not in the job after all: find where it is.
        this.core.save(row, { state: 'created', job_uid: null });
        return;
      }
      if (!row.final_path || !row.proof_path) {
        const { final, proof } = this.chooseDonePaths(row);
        this.core.save(row, { final_path: final, proof_path: proof });
        this.core.reserved.add(final);
        this.core.reserved.add(proof);
        // Where the proof goes is journaled before it is written: a restart writes the same file.
        await this.core.durable();
      }
      // Before the proof is written: is the file still what was issued?
      const change = await this.compare(row);
      const proofText = await this.core.service.downloadCertificate(certificateUid);
      this.core.diskFull.assertRoom(row.proof_path!);
      await this.rounds.write(row.proof_path!, proofText);
      if (change === 'changed') {
        this.certificateOf.delete(credentialUid);
        return this.supersede(row);
      }
      checked = change;
      this.core.save(row, { state: 'issued' });
      this.certificateOf.delete(credentialUid);
      await this.core.durable();
      ingestFaultPoint('after-issued');
    }
    if (row.state !== 'issued') return;
    // Before the move: still what was issued? (Checked again after a restart, or if it was not hashed just now.)
    const now = await statEntry(this.core.pathOf(row));
    const unchanged = checked === 'same' && now.kind === 'file' && now.size === row.size && now.mtimeMs === row.mtime_ms;
    if (!unchanged && (await this.compare(row)) === 'changed') return this.supersede(row);
    // Moved, never issued again: the journal says issued.
    const source = this.core.pathOf(row);
    const moved = (this.core.filer.movable(row, source) && (await moveFile(source, row.final_path!, this.core.folderOf(row).realRoot))) || existsSync(row.final_path!);
    await this.core.filer.moveSidecar(row);
    await this.core.filer.removeStaleNote(row);
    if (!moved) this.core.warn(`${row.rel_path} was issued but had gone from the folder before it could be moved to ${DONE_DIR}/`);
    this.core.save(row, { state: 'moved', closed_at: Date.now() });
    this.core.counts.issued++;
    this.core.options.onEvent?.({ type: 'issued', folder: this.core.folderOf(row).root, path: row.rel_path, proof: row.proof_path!, credential_uid: row.credential_uid! });
  }
}
