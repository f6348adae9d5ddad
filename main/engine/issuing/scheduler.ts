import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../chain/index.js';
import type { ChainWatch } from './chain-watch.js';
import type { JobIssuer } from './job-issuer.js';

/** The same error message is reported again only after this long. */
const REPEAT_AFTER_MS = 60_000;

/** The lock files this process holds: a second engine in the same process must not take one. */
const heldLocks = new Set<string>();

/**
 * Issues each Partner's due jobs at its issuing interval and moves jobs under way towards
 * `finished`, on a timer. One process per data directory runs it (the app, `serve` or
 * `watch`): it holds `issuing.lock`; others sharing the directory leave issuing to it.
 */
export class IssuingScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly lockFile: string;
  private holdsLock = false;

  private readonly onError: (error: unknown) => void;

  constructor(
    dataDir: string,
    private readonly issuer: JobIssuer,
    onError: (error: unknown) => void,
    private readonly watch?: ChainWatch,
  ) {
    this.lockFile = join(dataDir, 'issuing.lock');
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

  /** Takes the lock (false when a live process holds it) and ticks every `tickMs`. */
  start(tickMs: number): boolean {
    if (!this.acquire()) return false;
    this.timer = setInterval(() => void this.tick(true), tickMs);
    this.timer.unref();
    void this.tick();
    return true;
  }

  private acquire(): boolean {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.lockFile, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        this.holdsLock = true;
        heldLocks.add(this.lockFile);
        return true;
      } catch {
        const holder = Number(readFileSync(this.lockFile, { encoding: 'utf8', flag: 'r' }).trim());
        const heldByUs = holder === process.pid && heldLocks.has(this.lockFile);
        if (heldByUs || (Number.isSafeInteger(holder) && holder !== process.pid && isProcessAlive(holder))) return false;
        rmSync(this.lockFile, { force: true }); // left by a process that is gone
      }
    }
    return false;
  }

  /**
   * One round: resume jobs under way, start the due ones, re-check the jobs finished lately.
   * Rounds never overlap. `paced` (the timer's rounds): a chain is asked at most once per block
   * time about jobs that wait for blocks; an explicit round asks now.
   */
  tick(paced = false): Promise<void> {
    this.running ??= this.round(paced).finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(paced: boolean): Promise<void> {
    const looks = this.watch?.round(paced);
    for (const id of this.issuer.activeJobs()) {
      const look = looks ? await this.watch!.due(id, looks) : { due: true };
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
        // job is sent in, so its first look after sending waits for the next block.
        const look = looks ? await looks(job.engine) : undefined;
        if (job.waiting && look && !look.due) continue;
        await this.issuer.checkFunds(job.id, job.partner_id, job.engine);
        this.issuer.start(job.id);
        await this.issuer.advance(job.id);
      } catch (error) {
        this.onError(error);
      }
    }
    if (looks) await this.watch!.recheckFinished(looks, this.onError);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    if (this.holdsLock) {
      rmSync(this.lockFile, { force: true });
      heldLocks.delete(this.lockFile);
    }
    this.holdsLock = false;
  }
}
