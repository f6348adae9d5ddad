/**
 * Stage 4, collect proofs: the jobs of the files waiting for one are followed in bulk; when a
 * file's job is finished its proof is written, and a failed job's credentials are scheduled again.
 */
import { isServiceError } from '../../common/errors.js';
import type { FolderIntakeCore } from './folder-intake-core.js';
import { statEntry } from './entries.js';
import { FinishRounds } from './finish-round.js';
import type { FileRow } from './journal.js';
import { certificatesOfJob, credentialsOfJob } from './job-proofs.js';
import { RECOVERY_SKEW_MS } from './upload-and-schedule.js';
import { allPages } from '../../common/all-pages.js';

/** How often at most a file overdue for its job is asked about on its own (see checkOverdue). */
const OVERDUE_ASK_MS = 10 * 60_000;
/** How soon jobs are looked at again while one is being issued (see soonIfIssuing). */
const ISSUING_POLL_MS = 100;

export class ProofCollector {
  private readonly certificateOf = new Map<string, string>();
  /** Jobs finished or failed since the oldest waiting file was scheduled, with what they hold. */
  private readonly jobCache = new Map<string, { start: number; status: 'finished' | 'failed'; credentials: Map<string, string> }>();
  private readonly lastAsked = new Map<number, number>();
  /** Per engine, the latest start of a job seen finished (see checkOverdue). */
  private readonly latestFinishedStart = new Map<string, number>();
  pollRunning: Promise<void> | undefined;
  /** A job moved during the look under way: look again once it is done. */
  private pollAgain = false;
  /** Rows waiting for their job that the watcher saw change (looked at before the next poll). */
  private readonly suspects = new Set<number>();
  /** The files whose job finished, finished a round at a time (finish-round.ts). */
  private readonly rounds: FinishRounds;

  constructor(private readonly core: FolderIntakeCore) {
    this.rounds = new FinishRounds(core, this.certificateOf);
  }

  /** The watcher saw a file waiting for its job change: it is looked at before the next poll. */
  suspect(id: number): void {
    this.suspects.add(id);
  }

  /** Lets a row go (closed or gone). */
  forget(id: number): void {
    this.lastAsked.delete(id);
    this.suspects.delete(id);
  }

  /** Writes the proof of a file whose job finished and moves the original to done/ (in a round with the others finishing now). */
  finish(row: FileRow): Promise<void> {
    return this.rounds.finish(row);
  }

  pollJobs(): Promise<void> {
    this.pollRunning ??= this.pollRound()
      .catch((error) => this.core.problem('following jobs', error))
      .finally(() => {
        this.pollRunning = undefined;
        if (!this.pollAgain || this.core.stopping) return;
        this.pollAgain = false;
        void this.pollJobs();
      });
    return this.pollRunning;
  }

  /** A job moved: the jobs are looked at now, or again right after the look under way (which may have missed it). */
  jobsMoved(): void {
    if (this.pollRunning) this.pollAgain = true;
    else void this.pollJobs();
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
      if (row.state !== 'scheduled' || this.core.finishing(row.id)) continue;
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
      for await (const jobs of allPages((page) => this.core.service.listJobs({ status, start_date_from: new Date(since).toISOString(), sort_by: 'start_date', per_page: 100, page }))) {
        for (const job of jobs.items) {
          if (this.core.stopping) return;
          if (!this.jobCache.has(job.uid)) {
            const start = Date.parse(job.start_date ?? job.created_date);
            this.jobCache.set(job.uid, { start, status, credentials: await this.jobContents(job.uid, status) });
            if (status === 'finished') this.latestFinishedStart.set(job.chain, Math.max(start, this.latestFinishedStart.get(job.chain) ?? 0));
          }
        }
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
        this.core.finishLater(row);
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
    // Told of every move, nothing needs looking at sooner.
    if (waiting.size > 0 && !this.core.options.jobMoves) await this.soonIfIssuing();
    await this.checkOverdue(waiting);
  }

  /**
   * While a job is being issued (started, or waiting for its confirmations), the jobs are looked
   * at again within ISSUING_POLL_MS rather than at the next poll: the proofs of its files follow
   * it closely instead of up to a poll's interval later. Two calls per poll while files wait.
   */
  private async soonIfIssuing(): Promise<void> {
    for (const status of ['unconfirmed', 'started'] as const) {
      if (this.core.stopping) return;
      if ((await this.core.service.listJobs({ status, per_page: 1 })).total_items === 0) continue;
      setTimeout(() => {
        if (this.core.running) void this.pollJobs();
      }, ISSUING_POLL_MS).unref();
      return;
    }
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
    const now = this.core.clock.now();
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
        this.core.rows.save(row, { state: 'created', job_uid: null });
        this.core.route(row);
      } else if (row.job_uid !== job.uid) this.core.rows.save(row, { job_uid: job.uid });
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
      const at = this.core.clock.now();
      for (const row of group) this.core.rows.save(row, { attempt_at: at, job_failures: row.job_failures + 1 });
      await this.core.durable();
      try {
        const job = await this.core.service.scheduleCredentials({ engine, credentials: group.map((r) => r.credential_uid!) });
        for (const row of group) this.core.rows.save(row, { job_uid: job.uid });
      } catch {
        // Some are scheduled already (or gone): each finds its own way.
        for (const row of group) {
          this.core.rows.save(row, { state: 'created', job_uid: null });
          this.core.route(row);
        }
        this.core.pump();
      }
    }
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
      if (!row || row.state !== 'scheduled' || this.core.finishing(id)) continue;
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
      this.core.rows.unindexContent(row);
      this.core.rows.save(row, { state: 'seen', size: info.size, mtime_ms: info.mtimeMs, sha256: null, details: null, sidecar: null, credential_uid: null, job_uid: null });
      const now = this.core.clock.now();
      this.core.settler.settleFrom(row.id, now, now + this.core.stableMs);
    }
  }
}
