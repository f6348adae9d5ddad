import type { SchedulerPlace } from '../readiness.js';
import type { ChainWatch } from './chain-watch.js';
import type { IssuingLease } from './issuing-lease.js';
import type { JobIssuer } from './job-issuer.js';

/** The same error message is reported again only after this long. */
const REPEAT_AFTER_MS = 60_000;

/**
 * Issues each Partner's due jobs at its issuing interval and moves jobs under way towards
 * `finished`, on a timer. Every process that runs it (the app, `serve` nodes, `watch`) ticks,
 * but only the holder of the issuing lease works: each tick renews it, and the others take it
 * over when the holder stops or dies (issuing-lease.ts).
 */
export class IssuingScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly issuer: JobIssuer,
    private readonly lease: IssuingLease,
    onError: (error: unknown) => void,
    private readonly watch: ChainWatch,
  ) {
    // The same trouble every tick (a full disk, a chain down) is said once a minute, not 4 times a second.
    const said = new Map<string, number>();
    this.onError = (error) => {
      const key = String((error as Error)?.message ?? error);
      const now = Date.now();
      if ((said.get(key) ?? -Infinity) > now - REPEAT_AFTER_MS) return;
      said.set(key, now);
      if (said.size > 100) said.clear();
      onError(error);
    };
  }

  /**
   * Ticks every `tickMs`, issuing while this holds the lease; false when another live process
   * holds it now (this one takes over when it goes).
   */
  start(tickMs: number): boolean {
    const holds = this.lease.acquire();
    this.timer = setInterval(() => void this.tick(true), tickMs);
    this.timer.unref();
    void this.tick();
    return holds;
  }

  /**
   * One round: resume jobs under way, start the due ones, re-check the jobs finished lately.
   * Rounds never overlap. `paced` (the timer's rounds): a chain is asked at most once per block
   * time about jobs that wait for blocks; an explicit round asks now.
   */
  tick(paced = false): Promise<void> {
    // Renewed at every tick (also while a long round runs); another live holder: issuing is its.
    let holds: boolean;
    try {
      holds = this.lease.acquire();
    } catch (error) {
      // The database closed under the timer (an engine that failed to open): nothing to tick for.
      if (!this.lease.databaseOpen) clearInterval(this.timer);
      // A full disk, say: said (once a minute), and tried again at the next tick.
      else this.onError(error);
      return Promise.resolve();
    }
    if (!holds) return Promise.resolve();
    this.running ??= this.round(paced).finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(paced: boolean): Promise<void> {
    const looks = this.watch.round(paced);
    for (const id of this.issuer.activeJobs()) {
      const look = await this.watch.due(id, looks);
      if (!look.due) continue;
      await this.issuer.advance(id, look.head).catch(this.onError);
    }
    for (const job of this.issuer.dueJobs()) {
      if (job.empty) {
        this.issuer.postpone(job.id);
        continue;
      }
      // A later job never takes a nonce while an earlier one of the account is unsettled.
      if (this.issuer.isBusy(job.partner_id, job.engine)) continue;
      try {
        const expired = this.issuer.dropExpired(job.id);
        if (expired) this.onError(expired);
        // Short of funds (or fees above the cap), the job stays scheduled: nothing is released.
        // Its account is asked again once per block of the chain (or after the backoff), not every round.
        if (!this.issuer.pace.ready(job.engine)) continue;
        // The round's look (at most one head per block time) also tells the pace which block the
        // job is sent in, so its first look after sending waits for the next block. When the round
        // did not ask (a head asked within the last block time may be a block behind), the head is
        // asked now: otherwise that first look would find the block it was sent in "new" and ask
        // for a receipt a block too early.
        const look = await looks(job.engine);
        if (job.waiting && !look.due) continue;
        if (!look.head) await this.watch.look(job.engine, false).catch(() => undefined);
        await this.issuer.checkFunds(job.id, job.partner_id, job.engine);
        this.issuer.start(job.id);
        await this.issuer.advance(job.id);
      } catch (error) {
        this.onError(error);
      }
    }
    await this.watch.recheckFinished(looks, this.onError);
  }

  /** Where issuing runs for this database: here (this scheduler holds the lease), in another live holder, or nowhere. */
  where(): SchedulerPlace {
    if (this.timer !== undefined && this.lease.heldHere) return 'here';
    if (this.lease.heldElsewhere() !== undefined) return 'elsewhere';
    // Between one holder letting the lease go (or its expiry) and the next tick's taking it:
    // this process takes it then, so issuing is not left to nobody.
    return this.timer !== undefined ? 'standby' : 'nowhere';
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    try {
      this.lease.release();
    } catch {
      // A database that cannot be written (full) keeps the lease until it expires: others wait that long.
    }
  }
}
