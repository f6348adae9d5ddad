/**
 * The app's watch folders: one FolderIntake per folder in the main process (the same intake and
 * journal the CLI's `watch` uses), started from the saved list when the app starts. A folder
 * another process watches (the CLI, or a second app) is refused: the journal's claim on it is
 * held by a live process. Electron-free: the window and the browser bridge share it.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ServiceError, isServiceError } from '../../../common/errors.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import type { WatchFailedFile, WatchFolderCounts, WatchFolderInput, WatchFolderStatus } from '../../../common/ipc/watch-folders.js';
import { DEFAULT_PROOFS_DIR, FolderBusyError, FolderIntake, JOURNAL_FILE, type FolderIntakeOptions } from '../../intake/index.js';
import { ensurePrivateFile } from '../../engine/private-files.js';
import { readWatchFolders, writeWatchFolders, type SavedWatchFolder } from './watch-folder-list.js';

const ZERO: WatchFolderCounts = { seen: 0, inProgress: 0, waiting: 0, issued: 0, failed: 0, duplicates: 0 };
/** How often live counts are compared and, when changed, sent. */
const COUNTS_EVERY_MS = 500;

export interface WatchFolderManagerOptions {
  dataDir: string;
  /** The service that issues for a Partner. */
  serviceFor(partnerId: string): IssuingService;
  /** The active Partner (new folders issue for it); null when there is none yet. */
  activePartner(): string | null;
  /** Called with a folder's status when its counts or state changed. */
  onChange(status: WatchFolderStatus): void;
  /** FolderIntake timings (tests make them short). */
  intake?: Pick<FolderIntakeOptions, 'stableMs' | 'rescanMs' | 'jobPollMs'>;
  /** Tells when a Partner's job ends (the embedded engine's events), so finished jobs' proofs follow at once rather than on a timer. */
  jobEnds?(partnerId: string, listener: () => void): () => void;
}

interface Entry {
  saved: SavedWatchFolder;
  intake: FolderIntake | null;
  problem: string | null;
  lastSent: string;
}

/** The sentence an admin sees when a folder cannot be watched. */
function problemOf(error: unknown, path: string): string {
  if (error instanceof FolderBusyError) {
    return `${path} is already watched by another Proofdesk process (process ${error.pid}, for example \`proofdesk watch\` on the command line). Stop watching it there first, then add it here.`;
  }
  if (isServiceError(error)) return error.message;
  return (error as Error).message ?? String(error);
}

export class WatchFolderManager {
  private readonly entries = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: WatchFolderManagerOptions) {
    this.timer = setInterval(() => this.sendChanges(), COUNTS_EVERY_MS);
    this.timer.unref();
  }

  /** Watches the saved folders again (app start). A folder that cannot be watched keeps its problem; the others start. */
  async startSaved(): Promise<void> {
    let saved: SavedWatchFolder[];
    try {
      saved = readWatchFolders(this.options.dataDir);
    } catch (error) {
      console.error((error as Error).message);
      return;
    }
    for (const folder of saved) {
      const entry: Entry = { saved: folder, intake: null, problem: null, lastSent: '' };
      this.entries.set(folder.id, entry);
      try {
        entry.intake = await this.startFolderIntake(folder);
      } catch (error) {
        entry.problem = problemOf(error, folder.path);
      }
      this.sendChanges();
    }
  }

  list(): WatchFolderStatus[] {
    return [...this.entries.values()].map((e) => this.statusOf(e));
  }

  /** Starts watching a folder and saves it; refuses (nothing saved) what cannot be watched. */
  async add(input: WatchFolderInput): Promise<WatchFolderStatus> {
    const partnerId = this.options.activePartner();
    if (!partnerId) throw new ServiceError('unauthorized', 'There is no Partner yet: set one up first, then add a watch folder.');
    const path = resolve(input.path);
    const info = statSafe(path);
    if (!info) throw new ServiceError('invalid_value', `The folder ${path} does not exist; create it or choose another.`);
    if (!info.isDirectory()) throw new ServiceError('invalid_value', `${path} is a file, not a folder; choose a folder.`);
    for (const other of this.entries.values()) {
      if (resolve(other.saved.path) === path) throw new ServiceError('invalid_value', `${path} is already in the list of watch folders.`);
    }
    const saved: SavedWatchFolder = { ...input, path, ...(input.outDir ? { outDir: resolve(input.outDir) } : {}), id: randomUUID(), partnerId, paused: false };
    if (saved.outDir) mkdirSync(saved.outDir, { recursive: true });
    let intake: FolderIntake;
    try {
      intake = await this.startFolderIntake(saved);
    } catch (error) {
      if (isServiceError(error)) throw error;
      throw new ServiceError('invalid_value', problemOf(error, path));
    }
    const entry: Entry = { saved, intake, problem: null, lastSent: '' };
    this.entries.set(saved.id, entry);
    try {
      this.save();
    } catch (error) {
      this.entries.delete(saved.id);
      await intake.stop();
      throw error;
    }
    return this.statusOf(entry);
  }

  /** Stops watching and forgets the folder. Its files stay; files waiting for their job stay journaled. */
  async remove(id: string): Promise<void> {
    const entry = this.entry(id);
    this.entries.delete(id);
    this.save();
    await entry.intake?.stop();
  }

  pause(id: string): WatchFolderStatus {
    const entry = this.entry(id);
    entry.saved.paused = true;
    entry.intake?.pause();
    this.save();
    return this.sendChanges(entry);
  }

  /** Goes on after a pause; a folder that could not be watched (`stopped`) is tried again. */
  async resume(id: string): Promise<WatchFolderStatus> {
    const entry = this.entry(id);
    entry.saved.paused = false;
    if (entry.intake) entry.intake.resume();
    else {
      try {
        entry.intake = await this.startFolderIntake(entry.saved);
        entry.problem = null;
      } catch (error) {
        entry.problem = problemOf(error, entry.saved.path);
      }
    }
    this.save();
    return this.sendChanges(entry);
  }

  failed(id: string): WatchFailedFile[] {
    const intake = this.entry(id).intake;
    if (!intake) return [];
    return intake.failedFiles().map((f) => ({ path: f.path, id: f.id, message: f.message, failedPath: f.failed_path, when: f.when }));
  }

  /** Puts a failed file back into its folder; answers where it is now. */
  async retry(id: string, file: { path: string; failedPath: string | null }): Promise<string> {
    const entry = this.entry(id);
    if (!entry.intake) throw new ServiceError('invalid_value', `${entry.saved.path} is not watched now (${entry.problem ?? 'stopped'}); nothing can be retried there.`);
    const back = await entry.intake.retry({ folder: entry.intake.folders()[0]!, path: file.path, failed_path: file.failedPath });
    this.sendChanges(entry);
    return back;
  }

  outDirOf(id: string): string {
    return this.statusOf(this.entry(id)).outDir;
  }

  /** Stops every intake (app exit): work under way finishes and is journaled, the claims are given up. */
  async stopAll(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.allSettled([...this.entries.values()].map((e) => e.intake?.stop()));
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new ServiceError('not_found', 'That watch folder is no longer in the list; refresh the view.');
    return entry;
  }

  private async startFolderIntake(folder: SavedWatchFolder): Promise<FolderIntake> {
    const { dataDir } = this.options;
    // As the CLI does: the journal is created 0600 before SQLite opens it.
    ensurePrivateFile(join(dataDir, JOURNAL_FILE));
    const intake = await FolderIntake.start({
      service: this.options.serviceFor(folder.partnerId),
      dataDir,
      // The CLI's target for the same Partner: duplicates are recognised across the two.
      target: `partner:${folder.partnerId}`,
      folders: [{ path: folder.path, engine: folder.engine, tags: folder.tags, metadata: folder.metadata, outDir: folder.outDir, recursive: folder.recursive, allowDuplicates: folder.allowDuplicates }],
      ...this.options.intake,
      ...(this.options.jobEnds ? { jobMoves: (listener: () => void) => this.options.jobEnds!(folder.partnerId, listener) } : {}),
      onEvent: () => undefined,
    });
    if (folder.paused) intake.pause();
    return intake;
  }

  private save(): void {
    writeWatchFolders(
      this.options.dataDir,
      [...this.entries.values()].map((e) => e.saved),
    );
  }

  private statusOf(entry: Entry): WatchFolderStatus {
    const { saved, intake } = entry;
    const p = intake?.progress();
    return {
      id: saved.id,
      path: saved.path,
      engine: saved.engine ?? 'local',
      tags: saved.tags ?? [],
      metadata: saved.metadata ?? {},
      outDir: saved.outDir ?? join(saved.path, DEFAULT_PROOFS_DIR),
      recursive: saved.recursive ?? true,
      allowDuplicates: saved.allowDuplicates ?? false,
      state: !intake ? 'stopped' : saved.paused ? 'paused' : 'watching',
      problem: entry.problem,
      counts: p ? { seen: p.seen, inProgress: p.inProgress, waiting: p.waitingForJob, issued: p.issued, failed: p.failed, duplicates: p.duplicates } : ZERO,
    };
  }

  /** Sends the statuses that changed since last sent (or the one given, always); answers it. */
  private sendChanges(): void;
  private sendChanges(only: Entry): WatchFolderStatus;
  private sendChanges(only?: Entry): WatchFolderStatus | void {
    for (const entry of only ? [only] : this.entries.values()) {
      const status = this.statusOf(entry);
      const text = JSON.stringify(status);
      if (only || text !== entry.lastSent) {
        entry.lastSent = text;
        this.options.onChange(status);
      }
      if (only) return status;
    }
  }
}

function statSafe(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
