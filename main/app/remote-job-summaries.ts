/**
 * The Jobs table's summaries (credential count, first titles, finality) of a remote service's
 * jobs. The spec has no listing that serves several jobs at once (GET /jobs/<uid>/credentials is
 * per job), so each summary costs a request: they are asked only for the rows on screen, a few at
 * a time, and kept for the connection's life once the job's credentials can no longer change.
 */
import pMap from 'p-map';
import type { JobSummary } from '../../common/ipc/jobs.js';
import type { IssuingService } from '../../common/issuing-service.js';
import type { Job, JobStatus } from '../../common/wire-types.js';

/** Titles asked for per job, to name a job without tags. */
const TITLES = 2;
/** Summary requests in flight at once. */
const CONCURRENCY = 4;

/**
 * Statuses in which a job's credential list is fixed: credentials join or leave only the
 * scheduled job, and a failed job's list shrinks when a credential it released is deleted.
 */
const FIXED_STATUSES: ReadonlySet<JobStatus> = new Set(['started', 'unconfirmed', 'finished']);

/** One connection's summaries: what it has kept and the jobs it last listed. */
export class RemoteJobSummaries {
  /** Count and titles of jobs whose credential list is fixed, by uid. */
  private readonly fixed = new Map<string, Pick<JobSummary, 'credentials' | 'titles'>>();
  /** The jobs last listed, by uid: their status decides what may be kept. */
  private readonly listed = new Map<string, Job>();

  constructor(private readonly service: IssuingService) {}

  /** Remembers listed jobs, and answers the summaries of those already kept (no request). */
  known(rows: readonly Job[]): Record<string, JobSummary> {
    const out: Record<string, JobSummary> = {};
    for (const job of rows) {
      this.listed.set(job.uid, job);
      const kept = this.keptFor(job);
      // An unconfirmed job's finality moves: it is asked for with its summary.
      if (kept && job.status !== 'unconfirmed') out[job.uid] = { ...kept, finality: job.finality ?? null };
    }
    return out;
  }

  /**
   * The summaries of these jobs, asking the service for those not kept. A job whose summary
   * cannot be had (gone, a slow or failed request) is left out; the others still come back.
   */
  async of(uids: readonly string[]): Promise<Record<string, JobSummary>> {
    const out: Record<string, JobSummary> = {};
    await pMap(
      [...new Set(uids)],
      async (uid) => {
        try {
          out[uid] = await this.summaryOf(uid);
        } catch {
          // Left out: the table shows the row without its count.
        }
      },
      { concurrency: CONCURRENCY },
    );
    return out;
  }

  private keptFor(job: Job): Pick<JobSummary, 'credentials' | 'titles'> | undefined {
    return FIXED_STATUSES.has(job.status) ? this.fixed.get(job.uid) : undefined;
  }

  private async summaryOf(uid: string): Promise<JobSummary> {
    let job = this.listed.get(uid) ?? (await this.service.getJob(uid));
    // Only the job itself carries an unconfirmed job's finality (the listing may be older).
    if (job.status === 'unconfirmed') job = await this.service.getJob(uid);
    this.listed.set(uid, job);
    let kept = this.keptFor(job);
    if (!kept) {
      const page = await this.service.listJobCredentials(uid, { per_page: TITLES });
      kept = { credentials: page.total_items, titles: page.items.map((c) => c.title) };
      if (FIXED_STATUSES.has(job.status)) this.fixed.set(uid, kept);
    }
    return { ...kept, finality: job.finality ?? null };
  }
}
