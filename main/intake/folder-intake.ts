/**
 * The watched-folder intake: files dropped into a folder are uploaded, made into credentials
 * and scheduled on the folder's engine; when their job is finished, each gets its proof file
 * and moves to done/. It works over IssuingService only, so the embedded engine and a remote
 * service are alike to it.
 *
 * This class is the thin coordinator: it opens the folders and the journal, starts the
 * stages' clocks and stops them. The stages are find-and-settle.ts, describe.ts,
 * upload-and-schedule.ts, collect-proofs.ts and file-away.ts; their shared state is folder-intake-core.ts.
 *
 * Exactly once: every step is written to the journal (its own SQLite file) before its side
 * effect, and every step can be resumed from what the journal says. docs/intake.md explains
 * the states and why each crash point is safe.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { ServiceError } from '../../common/errors.js';
import { validateTags } from '../../common/validate.js';
import { FolderIntakeCore, type Folder } from './folder-intake-core.js';
import { isInside, toPosix } from './entries.js';
import { DEFAULT_PROOFS_DIR, FAILED_DIR } from './names.js';
import { firstFree, fitPath, moveFile, numbered } from './paths.js';
import type { FileState } from './journal.js';
import type { FailedFile, FolderIntakeOptions, FolderIntakeProgress } from './types.js';

/** How often the folders' claim is renewed, paused or not (well within the journal's OWNER_STALE_MS). */
const CLAIM_BEAT_MS = 5_000;
/** How often a folder is scanned when it is polled (usePolling: network shares without native events). */
const POLL_MS = 1_000;
/** How often jobs are looked at anyway when every move is told (a move missed while stopping, say). */
const JOB_SAFETY_NET_MS = 30_000;

export class FolderIntake {
  private readonly core: FolderIntakeCore;
  private readonly timers: NodeJS.Timeout[] = [];
  private stopJobMoves: () => void = () => undefined;

  private constructor(options: FolderIntakeOptions) {
    this.core = new FolderIntakeCore(options, randomUUID());
  }

  /**
   * Starts watching: claims the folders in the journal, resumes every file the journal has in
   * progress, scans each folder for files that arrived while nothing watched, then follows the
   * watcher's events and rescans on a timer. Resolves once the watchers are ready.
   */
  static async start(options: FolderIntakeOptions): Promise<FolderIntake> {
    if (options.folders.length === 0) throw new Error('Nothing to watch: give at least one folder');
    const intake = new FolderIntake(options);
    try {
      await intake.open();
      return intake;
    } catch (error) {
      await intake.stop();
      throw error;
    }
  }

  private async open(): Promise<void> {
    const configs = this.core.options.folders.map((f) => ({ ...f, path: resolve(f.path) }));
    const seen = new Set<string>();
    for (const config of configs) {
      if (seen.has(config.path)) throw new Error(`${config.path} is listed twice`);
      for (const other of seen) {
        if (config.path.startsWith(other + sep) || other.startsWith(config.path + sep)) throw new Error(`${config.path} and ${other} are inside one another: watch only the outer one`);
      }
      seen.add(config.path);
      await this.checkEngine(config.engine ?? 'local', config.path);
      const info = await stat(config.path).catch(() => undefined);
      if (!info?.isDirectory()) throw new Error(`Not a folder: ${config.path}`);
      validateTags(config.tags ?? [], `the tags of ${config.path}`);
    }
    const paths = configs.map((c) => c.path);
    this.core.claims?.claimFolders(paths, this.core.token, this.core.clock.now());
    const ids = this.core.journal.claimFolders(paths, this.core.token, this.core.clock.now());
    for (const config of configs) {
      const engine = config.engine ?? 'local';
      const folder: Folder = {
        id: ids.get(config.path)!,
        root: config.path,
        realRoot: realpathSync(config.path),
        engine,
        target: `${this.core.options.target ?? 'default'}|${engine}`,
        tags: config.tags ?? [],
        metadata: config.metadata ?? {},
        recursive: config.recursive ?? true,
        outDir: resolve(config.outDir ?? join(config.path, DEFAULT_PROOFS_DIR)),
        format: config.format ?? 'proof',
        allowDuplicates: config.allowDuplicates ?? false,
      };
      this.core.addFolder(folder);
    }
    // Resume what the journal has in progress.
    const now = this.core.clock.now();
    for (const row of this.core.journal.openRows(this.core.folders.map((f) => f.id))) {
      this.core.rows.add(row);
      this.core.count('seen');
      if (row.state === 'seen') this.core.settler.settleFrom(row.id, now, now);
      else this.core.route(row);
    }
    if (this.core.options.watch ?? true) await Promise.all(this.core.folders.map((f) => this.core.settler.startWatcher(f)));
    await this.core.settler.rescan();
    this.core.pump();
    this.every(this.core.settler.tickMs, () => this.core.settler.settle());
    // Without native events (usePolling, or watch: false) the scans are what finds files.
    const polling = this.core.options.usePolling === true && (this.core.options.watch ?? true);
    this.every(polling ? Math.min(POLL_MS, this.core.options.rescanMs ?? POLL_MS) : (this.core.options.rescanMs ?? 30_000), () => this.core.settler.rescan());
    const { jobMoves } = this.core.options;
    if (jobMoves) {
      this.stopJobMoves = jobMoves(() => {
        if (this.core.running) this.core.collector.jobsMoved();
      });
    }
    this.every(this.core.options.jobPollMs ?? (jobMoves ? JOB_SAFETY_NET_MS : 1_000), () => this.core.collector.pollJobs());
    // Jobs resumed rows wait for may have moved while nothing watched: no event will say so.
    void this.core.collector.pollJobs();
    // The claim's heartbeat goes on while paused (the settle rounds that also beat do not run
    // then): a paused folder is still this process's, and another watcher must not take it.
    this.timers.push(setInterval(() => this.beat(), CLAIM_BEAT_MS));
    void this.core.settler.settle();
  }

  /**
   * The folder's engine as the service resolves it: its refusal is the user's answer (an
   * unknown engine, or `local` whose chain is another data directory's), named for the folder.
   */
  private async checkEngine(engine: string, path: string): Promise<void> {
    try {
      await this.core.service.getEngine(engine);
    } catch (error) {
      if (error instanceof ServiceError && error.id === 'wrong_blockchain_engine') throw new ServiceError(error.id, `${path}: ${error.message}`);
      throw error;
    }
  }

  private beat(): void {
    if (this.core.stopping) return;
    try {
      this.core.journal.heartbeat(this.core.token, this.core.clock.now());
    } catch (error) {
      this.core.problem('keeping the folders claimed', error);
    }
  }

  private every(ms: number, fn: () => Promise<void>): void {
    const timer = setInterval(() => {
      if (this.core.running) void fn();
    }, ms);
    this.timers.push(timer);
  }

  /** Live counts. */
  progress(): FolderIntakeProgress {
    const c = this.core.rows.stateCounts;
    return {
      seen: this.core.counts.seen,
      inProgress: this.core.settler.heardCount + c.seen + c.hashed + c.uploading + c.created + c.issued,
      waitingForJob: c.scheduled,
      issued: this.core.counts.issued,
      failed: this.core.counts.failed,
      duplicates: this.core.counts.duplicates,
    };
  }

  /**
   * How many files reached each state since start (`seen`: found and journaled; `settled`:
   * stable, taken to be described), for telling
   * where the time goes stage by stage (bench/ingest.bench.ts).
   */
  reached(): Record<FileState | 'settled', number> {
    return { ...this.core.rows.reached, seen: this.core.counts.seen, settled: this.core.counts.settled };
  }

  /** The journal's group commits so far and the row writes they carried. */
  journalStats(): { commits: number; rowWrites: number } {
    return { ...this.core.journal.stats };
  }

  /** Files the intake has not finished with (seen, in progress or waiting for their job). */
  pending(): number {
    return this.core.rows.size + this.core.settler.heardCount;
  }

  /**
   * Stops gracefully: no new files are taken, work under way (a hash, an upload, a proof being
   * written) finishes and is journaled, then the journal closes. Files waiting for their job
   * stay journaled and are finished by the next start.
   */
  async stop(): Promise<void> {
    if (!this.core.beginStop()) return;
    this.stopJobMoves();
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.core.folders.map((f) => f.watcher?.close().catch(() => undefined)));
    await Promise.allSettled([this.core.settler.settleRunning, this.core.collector.pollRunning, this.core.settler.rescanRunning]);
    await this.core.idle();
    try {
      this.core.journal.releaseFolders(this.core.token);
      this.core.claims?.releaseFolders(this.core.token);
    } catch (error) {
      // A full disk: the claim lapses by itself (its process is gone, its heartbeat stops).
      this.core.problem('giving the folders up', error);
    }
    this.core.journal.close();
    this.core.claims?.close();
  }

  /** Pauses: no new work starts (work under way finishes and is journaled); resume() goes on. */
  pause(): void {
    this.core.paused = true;
  }

  resume(): void {
    if (!this.core.paused) return;
    this.core.paused = false;
    this.core.pump();
    void this.core.settler.settle();
  }

  get paused(): boolean {
    return this.core.paused;
  }

  /**
   * The failed files with their reasons, newest first: those filed under failed/ (from the
   * journal, also of earlier runs, while the file is still there) and those left in place (links,
   * names that are not UTF-8) since start.
   */
  failedFiles(limit = 1000): FailedFile[] {
    const left = this.core.failuresLeftInPlace();
    const filed: FailedFile[] = [];
    for (const row of this.core.journal.failedRows(this.core.folders.map((f) => f.id), limit)) {
      if (!row.final_path || !existsSync(row.final_path)) continue;
      filed.push({ folder: this.core.folderOf(row).root, path: row.rel_path, id: row.error_id ?? 'invalid_value', message: row.error_message ?? '', failed_path: row.final_path, when: new Date(row.updated_at).toISOString() });
    }
    return [...left.reverse(), ...filed].slice(0, limit);
  }

  /**
   * Puts a failed file back to be taken again: failed/NAME (and its sidecar) moves back to its
   * place in the folder (numbered if the name is taken meanwhile). Its note stays in failed/
   * until the retry succeeds, then it is removed. A file left in place is looked at again.
   * Returns where the file is now.
   */
  async retry(failed: Pick<FailedFile, 'folder' | 'path' | 'failed_path'>): Promise<string> {
    const folder = this.core.folderAt(resolve(failed.folder));
    if (!folder) throw new ServiceError('invalid_value', `${failed.folder} is not watched here`);
    if (failed.failed_path === null) {
      this.core.unrefuse(folder, failed.path);
      this.core.settler.hear(folder, failed.path);
      return join(folder.root, failed.path);
    }
    if (!isInside(join(folder.root, FAILED_DIR), resolve(failed.failed_path))) throw new ServiceError('invalid_value', `${failed.failed_path} is not in ${join(folder.root, FAILED_DIR)}`);
    if (!existsSync(failed.failed_path)) throw new ServiceError('missing_file', `${failed.failed_path} is no longer there`);
    const [back] = firstFree((n) => [join(folder.root, numbered(failed.path, n))], this.core.rows.reserved);
    await moveFile(failed.failed_path, back!, folder.realRoot);
    const sidecar = fitPath(failed.failed_path, '.json');
    if (existsSync(sidecar)) await moveFile(sidecar, fitPath(back!, '.json'), folder.realRoot);
    this.core.settler.hear(folder, toPosix(relative(folder.root, back!)));
    return back!;
  }

  /** Names of the watched folders (resolved paths). */
  folders(): string[] {
    return this.core.folders.map((f) => f.root);
  }
}
