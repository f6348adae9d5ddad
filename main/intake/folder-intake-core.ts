/**
 * The state the intake's stages share: the journal, the open rows (row-store.ts: every change
 * to a row goes through it), the work queues, and the few steps every stage takes (route a row
 * to its next stage, retry later, warn). Each stage (find-and-settle.ts, describe.ts,
 * upload-and-schedule.ts, collect-proofs.ts, file-away.ts) works on rows through it.
 */
import { join } from 'node:path';
import { isServiceError } from '../../common/errors.js';
import type { IssuingService } from '../../common/issuing-service.js';
import { systemClock, type Clock } from '../engine/clock.js';
import { ProofCollector } from './collect-proofs.js';
import { Describer } from './describe.js';
import { signatureOf } from './entries.js';
import { Filer } from './file-away.js';
import type { FolderWatcher } from './folder-watcher.js';
import { Settler } from './find-and-settle.js';
import { JOURNAL_FILE, Journal, type FileRow } from './journal.js';
import { RowStore, pathKey } from './row-store.js';
import type { FailedFile, FolderIntakeOptions } from './types.js';
import { Uploader } from './upload-and-schedule.js';
import { ROUND_MAX } from './finish-round.js';
import { WorkQueue } from './work-queue.js';
import { INTAKE_BATCH } from './sender.js';
import { DISK_FULL_RETRY_MS, DiskFullReporter, fullPath, isDiskFull } from './disk-full.js';

/** How many times a local side effect (a proof, a note, a move) is tried before the file is failed. */
export const MAX_TRIES = 5;

/** Files whose proof is written and original filed at the same time (local side effects, small files). */
const FILING_AT_ONCE = 32;
/**
 * Files finishing at the same time: they go in rounds of up to ROUND_MAX (finish-round.ts: one
 * sync pass and three journal commits per round), two rounds side by side so that one is built on
 * the main thread while the other's files are written and moved.
 */
const FINISHING_AT_ONCE = 2 * ROUND_MAX;

/** An error of the local file system (it names a path), not of the service or the network. */
function isLocalFailure(error: unknown): boolean {
  const e = error as { code?: unknown; path?: unknown } | null;
  return typeof e?.code === 'string' && typeof e.path === 'string';
}

/** One watched folder and what its files become. */
export interface Folder {
  id: number;
  root: string;
  /** The folder's real path (links resolved): what is read or moved must be inside it. */
  realRoot: string;
  engine: string;
  target: string;
  tags: string[];
  metadata: Record<string, unknown>;
  recursive: boolean;
  outDir: string;
  /** `both`: a Verifiable Credential beside each proof. */
  format: 'proof' | 'both';
  allowDuplicates: boolean;
  watcher?: FolderWatcher;
}

/** Files counted since start, by what happened to them. */
export interface Counts {
  seen: number;
  settled: number;
  issued: number;
  failed: number;
  duplicates: number;
}

export class FolderIntakeCore {
  readonly journal: Journal;
  /**
   * Where the folders are claimed when the rows are in a service's own journal file: the data
   * directory's `ingest.sqlite`, so that one folder is never watched by two processes of one
   * data directory at a time, whichever services they issue through. Unset: the journal itself.
   */
  readonly claims: Journal | undefined;
  readonly service: IssuingService;
  private readonly folderList: Folder[] = [];
  private readonly byId = new Map<number, Folder>();
  /** The open rows, with their indexes: every change to a row goes through it. */
  readonly rows: RowStore;
  /** Rows a task is working on: not taken by another until it is done. */
  private readonly busy = new Set<number>();
  /** Rows waiting to be tried again, with when (see retryIn). */
  private readonly retryAt = new Map<number, number>();
  private readonly attempts = new Map<number, number>();
  private readonly recovery = new Set<number>();
  private readonly tasks = new Set<Promise<void>>();
  /** Links refused and left in place, by path key, with their lstat signature: reported once while they stay the same. */
  private readonly refused = new Map<string, string>();
  private readonly queues: { take: WorkQueue; finish: WorkQueue; file: WorkQueue };
  readonly diskFull: DiskFullReporter;
  /** The first wait after a failed try; it doubles with each try (up to 30 s). */
  private readonly retryBaseMs: number;
  /** `settled`: files taken off settling since start (stable, on to be described). */
  private readonly tally: Counts = { seen: 0, settled: 0, issued: 0, failed: 0, duplicates: 0 };
  /** Files failed since start, with their reasons (the newest 1,000), for failedFiles(). */
  private readonly failures: FailedFile[] = [];
  readonly stableMs: number;
  /** The time every stage reads (the system clock; tests pass one they move by hand). */
  readonly clock: Clock;
  readonly token: string;
  private recovering = false;
  private stopRequested = false;
  /** Paused: no new work starts (work under way finishes); the watchers keep noting what arrives. */
  paused = false;
  private lastWarning = '';
  // The stages, which work on rows through this shared state (and so reach one another).
  readonly settler: Settler;
  readonly describer: Describer;
  readonly uploader: Uploader;
  readonly collector: ProofCollector;
  readonly filer: Filer;

  constructor(
    readonly options: FolderIntakeOptions,
    token: string,
  ) {
    this.service = options.service;
    this.token = token;
    this.stableMs = options.stableMs ?? 1_000;
    this.clock = options.clock ?? systemClock;
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.diskFull = new DiskFullReporter((message) => this.warn(message));
    // On a service with the batched create-and-schedule (the embedded engine) the files taken
    // together go as one write transaction (main/intake/): two batches' worth are taken at once,
    // so one batch is hashed and journaled while the one before is in the engine. Fewer at once
    // would make small batches: a transaction and a journal commit pair per few files, and an
    // fdatasync per staged file (too few for one syncfs), with the engine waiting for the next.
    const concurrency = Math.max(1, options.concurrency ?? (typeof options.service.createAndScheduleCredentials === 'function' ? 2 * INTAKE_BATCH : 4));
    this.queues = {
      take: new WorkQueue(concurrency, (row) => this.uploader.take(row)),
      // Many at once: each waits for the journal twice, and the waits of all of them are one
      // commit (group commit), so the more files go through together, the fewer commits per file.
      finish: new WorkQueue(FINISHING_AT_ONCE, (row) => this.collector.finish(row)),
      file: new WorkQueue(FILING_AT_ONCE, (row) => this.filer.fileAway(row)),
    };
    this.journal = Journal.open(options.dataDir, options.journalFile);
    try {
      this.claims = options.journalFile === undefined || options.journalFile === JOURNAL_FILE ? undefined : Journal.open(options.dataDir);
    } catch (error) {
      this.journal.close();
      throw error;
    }
    this.journal.onFlushError = (error) => this.problem('writing the journal', error);
    this.rows = new RowStore(this.journal, this.clock);
    this.settler = new Settler(this);
    this.describer = new Describer(this);
    this.uploader = new Uploader(this);
    this.collector = new ProofCollector(this);
    this.filer = new Filer(this);
  }

  /** The watched folders, in the order they were opened. */
  get folders(): readonly Folder[] {
    return this.folderList;
  }

  /** Adds a watched folder (while opening, before any row of it is read). */
  addFolder(folder: Folder): void {
    this.folderList.push(folder);
    this.byId.set(folder.id, folder);
  }

  /** The watched folder whose resolved path is `root`, if any. */
  folderAt(root: string): Folder | undefined {
    return this.folderList.find((f) => f.root === root);
  }

  /** Stopping: nothing new starts, and the stages finish what is under way. */
  get stopping(): boolean {
    return this.stopRequested;
  }

  /** Marks the intake as stopping; returns false when it already was. */
  beginStop(): boolean {
    if (this.stopRequested) return false;
    this.stopRequested = true;
    return true;
  }

  /** Whether new work may start now (neither stopping nor paused). */
  get running(): boolean {
    return !this.stopRequested && !this.paused;
  }

  /** Files counted since start. */
  get counts(): Readonly<Counts> {
    return this.tally;
  }

  /** Counts files that reached a milestone. */
  count(what: Exclude<keyof Counts, 'failed'>, n = 1): void {
    this.tally[what] += n;
  }

  /** Whether a task is working on the row now. */
  isBusy(id: number): boolean {
    return this.busy.has(id);
  }

  /** Whether the row waits for its turn to be taken (queued, no task on it yet). */
  waitsToBeTaken(id: number): boolean {
    return this.queues.take.queued.has(id) && !this.busy.has(id);
  }

  /** Whether the row's proof is queued to be written, or being written. */
  finishing(id: number): boolean {
    return this.busy.has(id) || this.queues.finish.queued.has(id);
  }

  /** Settled rows, on to be taken (described, uploaded and scheduled). */
  take(rows: readonly FileRow[]): void {
    for (const row of rows) this.queues.take.push(row.id);
  }

  /** A row whose job finished, on to have its proof written and its original filed. */
  finishLater(row: FileRow): void {
    this.queues.finish.push(row.id);
  }

  /** Resolves once no task is at work (new ones may still start unless stopping). */
  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  /**
   * Whether an entry refused and left in place before (a link) is still as it was then (so it
   * is not reported again); one that changed is forgotten and looked at anew.
   */
  stillRefused(key: string, signature: () => string | undefined): boolean {
    const known = this.refused.get(key);
    if (known === undefined) return false;
    if (known === signature()) return true;
    this.refused.delete(key);
    return false;
  }

  /** Remembers an entry left in place (a link) with its lstat signature: not reported again while it stays the same. */
  refuse(folder: Folder, rel: string, signature: string | undefined): void {
    if (signature) this.refused.set(pathKey(folder.id, rel), signature);
  }

  /** Forgets a refused entry, so the next look at it takes it again. */
  unrefuse(folder: Folder, rel: string): void {
    this.refused.delete(pathKey(folder.id, rel));
  }

  /** A failed file was left where it is, not filed under failed/: failedFiles() lists it so. */
  leftInPlace(folder: Folder, rel: string): void {
    const failure = this.failures.findLast((f) => f.folder === folder.root && f.path === rel);
    if (failure) failure.failed_path = null;
  }

  /** The files failed since start and left where they are, oldest first. */
  failuresLeftInPlace(): FailedFile[] {
    return this.failures.filter((f) => f.failed_path === null);
  }

  /** Lets a row go (closed or gone) with everything the stages kept for it. */
  untrack(row: FileRow): void {
    this.rows.delete(row);
    this.settler.forget(row.id);
    this.retryAt.delete(row.id);
    this.attempts.delete(row.id);
    this.collector.forget(row.id);
    this.recovery.delete(row.id);
  }

  /** Puts a row where its state says it goes next. */
  route(row: FileRow): void {
    if (row.closed_at !== null) {
      this.untrack(row);
      return;
    }
    if (this.retryAt.has(row.id)) return;
    switch (row.state) {
      case 'seen':
        if (!this.settler.isSettling(row.id)) this.queues.take.push(row.id);
        break;
      case 'hashed':
      case 'created':
        this.queues.take.push(row.id);
        break;
      case 'uploading':
        this.recovery.add(row.id);
        break;
      case 'issued':
        this.queues.finish.push(row.id);
        break;
      case 'failed':
      case 'duplicate':
      case 'moved':
        this.queues.file.push(row.id);
        break;
      case 'scheduled':
        break; // the job poller takes it from here
    }
  }

  pump(): void {
    if (!this.running) return;
    for (const queue of Object.values(this.queues)) {
      while (queue.active < queue.limit && queue.queued.size > 0) {
        const id = queue.next()!;
        const row = this.rows.get(id);
        if (!row || this.busy.has(id)) continue;
        queue.active++;
        this.run(row, () => queue.work(row), () => queue.active--);
      }
    }
    if (this.recovery.size > 0 && !this.recovering) {
      const rows = [...this.recovery].map((id) => this.rows.get(id)).filter((r): r is FileRow => r !== undefined && !this.busy.has(r.id));
      this.recovery.clear();
      if (rows.length > 0) {
        this.recovering = true;
        this.runMany(rows, () => this.uploader.recoverUploads(rows), () => (this.recovering = false));
      }
    }
  }

  /** Runs `work` on the row as one task: the row is busy (taken by nothing else) until it is done, then routed on. */
  run(row: FileRow, work: () => Promise<void>, done: () => void): void {
    this.runMany([row], work, done);
  }

  private runMany(rows: FileRow[], work: () => Promise<void>, done: () => void): void {
    for (const row of rows) this.busy.add(row.id);
    const task = work()
      .catch((error) => {
        for (const row of rows) this.retryLater(row, error);
      })
      .finally(() => {
        this.tasks.delete(task);
        done();
        for (const row of rows) {
          this.busy.delete(row.id);
          if (this.rows.get(row.id) === row) this.route(row);
        }
        this.pump();
      });
    this.tasks.add(task);
  }

  /**
   * A passing problem (the service unreachable, a full disk, a file system hiccup): the row
   * waits and tries again. A full disk is waited out however long it lasts, and told once per
   * disk (DiskFullReporter); the service is waited for too. A local side effect that keeps
   * failing otherwise (a proof or a note that cannot be written, a file that cannot be moved)
   * gives up after MAX_TRIES: the file goes to failed/ with the reason.
   */
  retryLater(row: FileRow, error: unknown): void {
    if (isDiskFull(error)) {
      this.diskFull.report(fullPath(error, this.options.dataDir), Math.max(row.size, 0) + 64 * 1024, this.clock.now());
      this.retryIn(row, DISK_FULL_RETRY_MS);
      return;
    }
    const n = (this.attempts.get(row.id) ?? 0) + 1;
    this.attempts.set(row.id, n);
    const what = isServiceError(error) ? `${error.id}: ${error.message}` : (error as Error).message ?? String(error);
    if (isLocalFailure(error) && n >= MAX_TRIES) return this.giveUp(row, n, what);
    this.retryIn(row, Math.min(30_000, this.retryBaseMs * 2 ** Math.min(n, 6)));
    this.warn(`${row.rel_path}: ${what} (will try again)`);
  }

  /** Holds a row back from its next stage for `ms`; the first settling round after routes it again (routeDue). */
  retryIn(row: FileRow, ms: number): void {
    this.retryAt.set(row.id, this.clock.now() + ms);
  }

  /** Routes the rows whose wait (retryIn) is over by `now`. */
  routeDue(now: number): void {
    for (const [id, at] of this.retryAt) {
      if (at > now) continue;
      this.retryAt.delete(id);
      const row = this.rows.get(id);
      if (row) this.route(row);
    }
  }

  /** A local side effect failed MAX_TRIES times: the file is failed with the reason, or, when filing it fails, left where it is. */
  private giveUp(row: FileRow, tries: number, what: string): void {
    this.attempts.delete(row.id);
    if (row.state === 'failed' || row.state === 'duplicate') {
      this.warn(`${row.rel_path} could not be filed under ${row.state === 'failed' ? 'failed' : 'duplicate'}/ after ${tries} tries (${what}); it is left where it is`);
      // Not taken again by the next scan while it stays as it is.
      this.refuse(this.folderOf(row), row.rel_path, signatureOf(this.pathOf(row)));
      this.rows.save(row, { closed_at: this.clock.now() });
      return;
    }
    const step = row.state === 'scheduled' ? 'Its proof could not be written' : row.state === 'issued' ? `It could not be moved to done/` : 'It could not be sent';
    const issued = row.credential_uid && (row.state === 'scheduled' || row.state === 'issued') ? ` Its credential ${row.credential_uid} was issued; the proof can be downloaded from the service.` : '';
    this.filer.fail(row, 'internal_error', `${step}: gave up after ${tries} tries (${what}).${issued}`);
  }

  warn(message: string): void {
    if (message === this.lastWarning) return;
    this.lastWarning = message;
    this.options.onEvent?.({ type: 'warning', message });
  }

  folderOf(row: FileRow): Folder {
    return this.byId.get(row.folder_id)!;
  }

  pathOf(row: FileRow): string {
    return join(this.folderOf(row).root, row.rel_path);
  }


  /** Waits until every journal write so far is committed: called before each side effect. */
  durable(): Promise<void> {
    return this.journal.flushed();
  }

  /** Back to settling: the file changed after it was taken. */
  resettle(row: FileRow, size: number, mtimeMs: number): void {
    this.rows.unindexContent(row);
    this.rows.save(row, { state: 'seen', size, mtime_ms: mtimeMs, sha256: null, details: null, sidecar: null });
    const now = this.clock.now();
    this.settler.settleFrom(row.id, now, now + this.stableMs);
  }

  vanish(row: FileRow): void {
    this.journal.remove(row.id);
    this.untrack(row);
  }

  describeOriginal(original: Pick<FileRow, 'state' | 'credential_uid' | 'folder_id' | 'rel_path' | 'final_path'>): string {
    const where = original.final_path ?? join(this.journal.folderPath(original.folder_id) ?? '', original.rel_path);
    const what = original.state === 'moved' ? 'was issued' : 'is being issued';
    return `Identical content ${what} as ${where}${original.credential_uid ? ` (credential ${original.credential_uid})` : ''}`;
  }

  /** Counts a failed file, tells the listener and keeps it for failedFiles(). */
  reportFailure(folder: Folder, path: string, id: string, message: string, failedPath: string | null = null): void {
    this.tally.failed++;
    this.failures.push({ folder: folder.root, path, id, message, failed_path: failedPath, when: new Date(this.clock.now()).toISOString() });
    if (this.failures.length > 1000) this.failures.shift();
    this.options.onEvent?.({ type: 'failed', folder: folder.root, path, id, message });
  }

  /** A problem of a whole round (settling, scanning, following jobs): a full disk is told once per disk, anything else as a warning. */
  problem(what: string, error: unknown): void {
    if (isDiskFull(error)) this.diskFull.report(fullPath(error, this.options.dataDir), 64 * 1024, this.clock.now());
    else this.warn(`${what}: ${(error as Error).message ?? String(error)}`);
  }

  /** After each settling round: tells a full disk that has room again. */
  roundDone(): void {
    if (this.diskFull.any) this.diskFull.check();
  }
}
