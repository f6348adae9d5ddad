/**
 * The watched-folder ingester: files dropped into a folder are uploaded, made into credentials
 * and scheduled on the folder's engine; when their job is finished, each gets its proof file
 * and moves to done/. It works over IssuingService only, so the embedded engine and a remote
 * service are alike to it.
 *
 * Exactly once: every step is written to the journal (its own SQLite file) before its side
 * effect, and every step can be resumed from what the journal says. docs/ingest.md explains
 * the states and why each crash point is safe.
 */
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { lstat, readFile, readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isServiceError, ServiceError, type ErrorId } from '../../common/errors.js';
import type { IssuingService } from '../../common/issuing-service.js';
import type { CredentialDetails } from '../../common/requests.js';
import { validateTags } from '../../common/validate.js';
import type { Credential, Job } from '../../common/wire-types.js';
import { ingestFaultPoint } from './fault-points.js';
import { INGEST_METADATA_KEY, MetadataError, MetadataSource, type FileFields } from './file-metadata.js';
import { FILE_STATES, Journal, type FileRow, type FileState } from './journal.js';
import { DEFAULT_PROOFS_DIR, DONE_DIR, DUPLICATE_DIR, FAILED_DIR, isCandidateName, isIgnoredName } from './names.js';
import { firstFree, moveFile, numbered, writeAtomic } from './paths.js';

/** One watched folder and what its files become. */
export interface WatchFolderOptions {
  path: string;
  /** The blockchain engine its credentials are scheduled on (default `local`). */
  engine?: string;
  /** Tags every credential from this folder gets (before the file's own). */
  tags?: string[];
  /** Merged into each credential's metadata (the file's own metadata wins). */
  metadata?: Record<string, unknown>;
  /** Take files in subfolders too (default true). */
  recursive?: boolean;
  /** Where proof files go (default `<path>/proofs`). */
  outDir?: string;
  /** Issue identical content again instead of filing it under duplicate/ (default false). */
  allowDuplicates?: boolean;
}

export interface IngesterOptions {
  service: IssuingService;
  /** Where the journal (`ingest.sqlite`) lives: the data directory. */
  dataDir: string;
  folders: WatchFolderOptions[];
  /**
   * Who the service issues for (e.g. `partner:<id>` or a remote base URL and client): identical
   * content is recognised as a duplicate within one target and engine. Default `default`.
   */
  target?: string;
  /** How long size and modification time must stay unchanged before a file is taken (default 1,000 ms). */
  stableMs?: number;
  /** Full rescans of every folder, to find what the watcher missed (default 30 s). */
  rescanMs?: number;
  /** How often jobs in progress are looked at (default 1,000 ms). */
  jobPollMs?: number;
  /** Files uploaded at the same time (default 4). */
  concurrency?: number;
  /** Use the file-system watcher (default true; without it only rescans find files). */
  watch?: boolean;
  /** Poll instead of native events (network shares). */
  usePolling?: boolean;
  onEvent?: (event: IngestEvent) => void;
}

/** What happened to a file, or a problem worth telling (the service unreachable, a job failed). */
export type IngestEvent =
  | { type: 'issued'; folder: string; path: string; proof: string; credential_uid: string }
  | { type: 'failed'; folder: string; path: string; id: string; message: string }
  | { type: 'duplicate'; folder: string; path: string; message: string }
  | { type: 'job-failed'; job_uid: string; credentials: number }
  /** Files whose request was sent before a crash or a lost answer: found = their credential existed, resent = it did not. */
  | { type: 'recovered'; found: number; resent: number }
  | { type: 'warning'; message: string };

/** Live counts for the status line. */
export interface IngestProgress {
  /** Files seen since start (including those resumed from the journal). */
  seen: number;
  /** Waiting to settle, being hashed, uploaded or scheduled. */
  inProgress: number;
  /** Scheduled, waiting for their job to be issued. */
  waitingForJob: number;
  issued: number;
  failed: number;
  duplicates: number;
}

interface Folder {
  id: number;
  root: string;
  engine: string;
  target: string;
  tags: string[];
  metadata: Record<string, unknown>;
  recursive: boolean;
  outDir: string;
  allowDuplicates: boolean;
  watcher?: FSWatcher;
}

/** In-memory state of a row still settling (not journaled: a restart settles again). */
interface Settling {
  stableSince: number;
  checkAt: number;
  /** The last stat error (an entry that keeps failing to stat is failed once it is stable). */
  error?: string;
}

/** How far back of a request's time its credential is looked for (clocks of remote services differ). */
const RECOVERY_SKEW_MS = 10 * 60_000;
/** Files up to this size are read whole, hashed and uploaded as the bytes that were hashed. */
const SMALL_FILE = 4 * 1024 * 1024;
const TINY_FILE = 256 * 1024;
const HEARTBEAT_MS = 5_000;
/** How often at most a file overdue for its job is asked about on its own (see checkOverdue). */
const OVERDUE_ASK_MS = 10 * 60_000;

/** Rows waiting for one kind of work, first in first out, with at most `limit` at work. */
class WorkQueue {
  private items: number[] = [];
  private head = 0;
  readonly queued = new Set<number>();
  active = 0;
  constructor(
    readonly limit: number,
    readonly work: (row: FileRow) => Promise<void>,
  ) {}
  push(id: number): void {
    if (this.queued.has(id)) return;
    this.queued.add(id);
    this.items.push(id);
  }
  /** The oldest row waiting, taken off the queue. */
  next(): number | undefined {
    while (this.head < this.items.length) {
      const id = this.items[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      if (this.queued.delete(id)) return id;
    }
    return undefined;
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message ?? String(error);
}

/** A ServiceError that says the request was refused (so nothing changed): every 4xx but 401. */
function isRefusal(error: unknown): error is ServiceError {
  return isServiceError(error) && error.status >= 400 && error.status < 500 && error.id !== 'unauthorized';
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** Describes what a non-regular directory entry is. */
function kindOf(info: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isDirectory()) return 'a folder';
  return 'not a regular file';
}

export class Ingester {
  private readonly journal: Journal;
  private readonly service: IssuingService;
  private readonly folders: Folder[] = [];
  private readonly byId = new Map<number, Folder>();
  private readonly rows = new Map<number, FileRow>();
  private readonly byPath = new Map<string, number>();
  private readonly settling = new Map<number, Settling>();
  /** Paths heard of and not journaled yet, with the watcher's stat of them when it gave one. */
  private readonly discovered = new Map<string, { folder: Folder; rel: string; info?: EntryInfo }>();
  private readonly busy = new Set<number>();
  private readonly retryAt = new Map<number, number>();
  private readonly attempts = new Map<number, number>();
  private readonly recovery = new Set<number>();
  private readonly certificateOf = new Map<string, string>();
  /** Jobs finished or failed since the oldest waiting file was scheduled, with what they hold. */
  private readonly jobCache = new Map<string, { start: number; status: 'finished' | 'failed'; credentials: Map<string, string> }>();
  private readonly lastAsked = new Map<number, number>();
  /** Per engine, the latest start of a job seen finished (see checkOverdue). */
  private readonly latestFinishedStart = new Map<string, number>();
  /** Rows with changes not yet journaled (see remember). */
  private readonly unsaved = new Map<number, Set<string>>();
  /** Open rows per state, kept as they change (the status line asks often). */
  private readonly stateCounts = Object.fromEntries(FILE_STATES.map((s) => [s, 0])) as Record<FileState, number>;
  private readonly reserved = new Set<string>();
  /** Open rows by content (target and SHA-256), to tell an identical file ahead of another. */
  private readonly byContent = new Map<string, Set<number>>();
  private readonly tasks = new Set<Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly metadataSource: MetadataSource;
  private readonly queues: { take: WorkQueue; finish: WorkQueue; file: WorkQueue };
  private readonly token = randomUUID();
  private readonly counts = { seen: 0, issued: 0, failed: 0, duplicates: 0 };
  private readonly stableMs: number;
  private readonly tickMs: number;
  private recovering = false;
  private settleRunning: Promise<void> | undefined;
  private pollRunning: Promise<void> | undefined;
  private rescanRunning: Promise<void> | undefined;
  private stopping = false;
  private lastBeat = 0;
  private lastWarning = '';

  private constructor(private readonly options: IngesterOptions) {
    this.service = options.service;
    this.stableMs = options.stableMs ?? 1_000;
    this.tickMs = Math.max(20, Math.min(250, Math.floor(this.stableMs / 4)));
    this.metadataSource = new MetadataSource(this.stableMs);
    const concurrency = Math.max(1, options.concurrency ?? 4);
    this.queues = {
      take: new WorkQueue(concurrency, (row) => this.take(row)),
      finish: new WorkQueue(8, (row) => this.finish(row)),
      file: new WorkQueue(8, (row) => this.fileAway(row)),
    };
    this.journal = Journal.open(options.dataDir);
  }

  /**
   * Starts watching: claims the folders in the journal, resumes every file the journal has in
   * progress, scans each folder for files that arrived while nothing watched, then follows the
   * watcher's events and rescans on a timer. Resolves once the watchers are ready.
   */
  static async start(options: IngesterOptions): Promise<Ingester> {
    if (options.folders.length === 0) throw new Error('Nothing to watch: give at least one folder');
    const ingester = new Ingester(options);
    try {
      await ingester.open();
      return ingester;
    } catch (error) {
      await ingester.stop();
      throw error;
    }
  }

  private async open(): Promise<void> {
    const engines = new Set((await this.service.listEngines()).map((e) => e.id));
    const configs = this.options.folders.map((f) => ({ ...f, path: resolve(f.path) }));
    const seen = new Set<string>();
    for (const config of configs) {
      if (seen.has(config.path)) throw new Error(`${config.path} is listed twice`);
      for (const other of seen) {
        if (config.path.startsWith(other + sep) || other.startsWith(config.path + sep)) throw new Error(`${config.path} and ${other} are inside one another: watch only the outer one`);
      }
      seen.add(config.path);
      const engine = config.engine ?? 'local';
      if (!engines.has(engine)) throw new ServiceError('wrong_blockchain_engine', `Unknown engine ${JSON.stringify(engine)} for ${config.path}; the service has ${[...engines].join(', ')}`);
      const info = await stat(config.path).catch(() => undefined);
      if (!info?.isDirectory()) throw new Error(`Not a folder: ${config.path}`);
      validateTags(config.tags ?? [], `the tags of ${config.path}`);
    }
    const ids = this.journal.claimFolders(
      configs.map((c) => c.path),
      this.token,
      Date.now(),
    );
    for (const config of configs) {
      const engine = config.engine ?? 'local';
      const folder: Folder = {
        id: ids.get(config.path)!,
        root: config.path,
        engine,
        target: `${this.options.target ?? 'default'}|${engine}`,
        tags: config.tags ?? [],
        metadata: config.metadata ?? {},
        recursive: config.recursive ?? true,
        outDir: resolve(config.outDir ?? join(config.path, DEFAULT_PROOFS_DIR)),
        allowDuplicates: config.allowDuplicates ?? false,
      };
      this.folders.push(folder);
      this.byId.set(folder.id, folder);
    }
    // Resume what the journal has in progress.
    const now = Date.now();
    for (const row of this.journal.openRows(this.folders.map((f) => f.id))) {
      this.track(row);
      this.counts.seen++;
      if (row.state === 'seen') this.settling.set(row.id, { stableSince: now, checkAt: now });
      else this.route(row);
    }
    if (this.options.watch ?? true) await Promise.all(this.folders.map((f) => this.startWatcher(f)));
    await this.rescan();
    this.pump();
    this.every(this.tickMs, () => this.settle());
    this.every(this.options.rescanMs ?? 30_000, () => this.rescan());
    this.every(this.options.jobPollMs ?? 1_000, () => this.pollJobs());
    void this.settle();
  }

  private every(ms: number, fn: () => Promise<void>): void {
    const timer = setInterval(() => {
      if (!this.stopping) void fn();
    }, ms);
    this.timers.push(timer);
  }

  /** Live counts. */
  progress(): IngestProgress {
    const c = this.stateCounts;
    return {
      seen: this.counts.seen,
      inProgress: this.discovered.size + c.seen + c.hashed + c.uploading + c.created + c.issued,
      waitingForJob: c.scheduled,
      issued: this.counts.issued,
      failed: this.counts.failed,
      duplicates: this.counts.duplicates,
    };
  }

  /** Files the ingester has not finished with (seen, in progress or waiting for their job). */
  pending(): number {
    return this.rows.size + this.discovered.size;
  }

  /**
   * Stops gracefully: no new files are taken, work under way (a hash, an upload, a proof being
   * written) finishes and is journaled, then the journal closes. Files waiting for their job
   * stay journaled and are finished by the next start.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.folders.map((f) => f.watcher?.close().catch(() => undefined)));
    await Promise.allSettled([this.settleRunning, this.pollRunning, this.rescanRunning]);
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
    this.journal.releaseFolders(this.token);
    this.journal.close();
  }

  // Discovery -------------------------------------------------------------------------------

  private key(folder: Folder, rel: string): string {
    return `${folder.id}\0${rel}`;
  }

  private track(row: FileRow): void {
    this.countState(undefined, row.state);
    this.rows.set(row.id, row);
    this.indexContent(row);
    this.byPath.set(`${row.folder_id}\0${row.rel_path}`, row.id);
    if (row.final_path) this.reserved.add(row.final_path);
    if (row.proof_path) this.reserved.add(row.proof_path);
  }

  private contentKey(row: FileRow): string {
    return `${row.target}\0${row.sha256}`;
  }

  private indexContent(row: FileRow): void {
    if (row.sha256 === null) return;
    const key = this.contentKey(row);
    let ids = this.byContent.get(key);
    if (!ids) this.byContent.set(key, (ids = new Set()));
    ids.add(row.id);
  }

  private unindexContent(row: FileRow): void {
    if (row.sha256 === null) return;
    const ids = this.byContent.get(this.contentKey(row));
    ids?.delete(row.id);
    if (ids?.size === 0) this.byContent.delete(this.contentKey(row));
  }

  private untrack(row: FileRow): void {
    if (this.rows.get(row.id) === row) this.countState(row.state, undefined);
    this.unsaved.delete(row.id);
    this.unindexContent(row);
    this.rows.delete(row.id);
    this.byPath.delete(`${row.folder_id}\0${row.rel_path}`);
    this.settling.delete(row.id);
    this.retryAt.delete(row.id);
    this.attempts.delete(row.id);
    this.lastAsked.delete(row.id);
    this.recovery.delete(row.id);
    if (row.final_path) this.reserved.delete(row.final_path);
    if (row.proof_path) this.reserved.delete(row.proof_path);
  }

  /** Whether a path inside the folder is never to be looked at (own folders, hidden or temporary names, the output folder). */
  private ignoredRel(folder: Folder, rel: string, abs: string): boolean {
    if (rel === '' || rel.startsWith('..')) return rel !== '';
    const parts = rel.split('/');
    if (parts.some((p) => isIgnoredName(p))) return true;
    if (parts[0] === DONE_DIR || parts[0] === FAILED_DIR || parts[0] === DUPLICATE_DIR) return true;
    if (abs === folder.outDir || abs.startsWith(folder.outDir + sep)) return true;
    if (!folder.recursive && parts.length > 1) return true;
    return false;
  }

  private startWatcher(folder: Folder): Promise<void> {
    const watcher = watch(folder.root, {
      ignoreInitial: true,
      persistent: true,
      ignorePermissionErrors: true,
      depth: folder.recursive ? undefined : 0,
      usePolling: this.options.usePolling ?? false,
      // The watcher stats every new file anyway: its stat is the first settling look.
      alwaysStat: true,
      ignored: (path: string) => this.ignoredRel(folder, toPosix(relative(folder.root, path)), path),
    });
    folder.watcher = watcher;
    const onFile = (path: string, stats?: Stats) => this.notice(folder, path, false, stats);
    watcher.on('add', onFile);
    watcher.on('change', onFile);
    watcher.on('unlink', (path: string) => this.notice(folder, path, true));
    watcher.on('error', (error) => this.warn(`watching ${folder.root}: ${(error as Error).message}`));
    return new Promise((resolveReady) => watcher.once('ready', () => resolveReady()));
  }

  /** A hint that something happened at `path`: it is looked at on the next settle round. */
  private notice(folder: Folder, path: string, gone = false, stats?: Stats): void {
    if (this.stopping) return;
    const rel = toPosix(relative(folder.root, path));
    if (this.ignoredRel(folder, rel, path)) return;
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (!isCandidateName(name)) return;
    const id = this.byPath.get(this.key(folder, rel));
    if (id !== undefined) {
      const s = this.settling.get(id);
      if (s) s.checkAt = Math.min(s.checkAt, Date.now());
      return;
    }
    if (gone) return;
    const info: EntryInfo | undefined = stats?.isFile() ? { kind: 'file', size: stats.size, mtimeMs: stats.mtimeMs } : undefined;
    this.discovered.set(this.key(folder, rel), { folder, rel, info });
  }

  /** Walks every folder for files no event told about (and those that came while nothing ran). */
  private rescan(): Promise<void> {
    this.rescanRunning ??= (async () => {
      for (const folder of this.folders) await this.walk(folder, folder.root);
    })()
      .catch((error) => this.warn(`scanning: ${(error as Error).message}`))
      .finally(() => (this.rescanRunning = undefined));
    return this.rescanRunning;
  }

  private async walk(folder: Folder, dir: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (dir === folder.root) this.warn(`cannot read ${dir}: ${errorCode(error)}`);
      return;
    }
    for (const entry of entries) {
      if (this.stopping) return;
      const abs = join(dir, entry.name);
      const rel = toPosix(relative(folder.root, abs));
      if (this.ignoredRel(folder, rel, abs)) continue;
      if (entry.isDirectory()) {
        if (folder.recursive) await this.walk(folder, abs);
        continue;
      }
      if (!isCandidateName(entry.name)) continue;
      if (!this.byPath.has(this.key(folder, rel))) this.discovered.set(this.key(folder, rel), { folder, rel });
    }
  }

  // Settling --------------------------------------------------------------------------------

  /** One round: stat new and settling files, take the stable ones, retry what is due. */
  private settle(): Promise<void> {
    this.settleRunning ??= this.settleRound()
      .catch((error) => this.warn(`settling: ${(error as Error).message}`))
      .finally(() => (this.settleRunning = undefined));
    return this.settleRunning;
  }

  private async settleRound(): Promise<void> {
    const now = Date.now();
    if (now - this.lastBeat >= HEARTBEAT_MS) {
      this.lastBeat = now;
      this.journal.heartbeat(this.token, now);
    }
    // New paths: a journal row each, in one transaction.
    const fresh = [...this.discovered.entries()];
    this.discovered.clear();
    const found = await mapLimit(fresh, 64, async ([key, { folder, rel, info }]) => ({ key, folder, rel, info: info ?? (await statEntry(join(folder.root, rel))) }));
    const due = [...this.settling.entries()].filter(([, s]) => s.checkAt <= now).map(([id]) => this.rows.get(id)!);
    const checked = await mapLimit(due, 64, async (row) => ({ row, info: await statEntry(this.pathOf(row)) }));
    if (this.stopping) return;
    const after = Date.now();
    const ready: FileRow[] = [];
    const failed: { row: FileRow; id: ErrorId; message: string }[] = [];
    // Queued writes first: a path closed a moment ago (moved to done/) may be taken again now.
    this.journal.flush();
    this.journal.transaction(() => {
      for (const { key, folder, rel, info } of found) {
        if (info.kind === 'gone' || this.byPath.has(key)) continue;
        const row = this.journal.insert({
          folder_id: folder.id,
          rel_path: rel,
          state: 'seen',
          target: folder.target,
          size: info.kind === 'file' ? info.size : -1,
          mtime_ms: info.kind === 'file' ? info.mtimeMs : -1,
          sha256: null,
          details: null,
          sidecar: null,
          engine: folder.engine,
          attempt_at: null,
          credential_uid: null,
          job_uid: null,
          job_failures: 0,
          proof_path: null,
          final_path: null,
          error_id: null,
          error_message: null,
          duplicate_of: null,
          seen_at: after,
          updated_at: after,
          closed_at: null,
        });
        this.track(row);
        this.counts.seen++;
        this.settling.set(row.id, { stableSince: after, checkAt: after + this.stableMs, error: info.kind === 'file' ? undefined : info.reason });
      }
      for (const { row, info } of checked) {
        const s = this.settling.get(row.id);
        if (!s || row.state !== 'seen') continue;
        if (info.kind === 'gone') {
          // Deleted before it was taken: it leaves no trace.
          this.journal.remove(row.id);
          this.untrack(row);
          continue;
        }
        if (info.kind === 'other') {
          if (s.error === info.reason && after - s.stableSince >= this.stableMs) failed.push({ row, id: 'no_file_on_payload', message: info.reason });
          else if (s.error !== info.reason) Object.assign(s, { error: info.reason, stableSince: after, checkAt: after + this.stableMs });
          else s.checkAt = s.stableSince + this.stableMs;
          continue;
        }
        if (s.error !== undefined || info.size !== row.size || info.mtimeMs !== row.mtime_ms) {
          this.save(row, { size: info.size, mtime_ms: info.mtimeMs });
          Object.assign(s, { error: undefined, stableSince: after, checkAt: after + this.stableMs });
          continue;
        }
        if (after - s.stableSince >= this.stableMs) {
          this.settling.delete(row.id);
          ready.push(row);
        } else s.checkAt = s.stableSince + this.stableMs;
      }
    });
    for (const { row, id, message } of failed) {
      this.settling.delete(row.id);
      this.fail(row, id, message);
      this.route(row);
    }
    for (const row of ready) this.queues.take.push(row.id);
    for (const [id, at] of this.retryAt) {
      if (at > after) continue;
      this.retryAt.delete(id);
      const row = this.rows.get(id);
      if (row) this.route(row);
    }
    this.pump();
  }

  // Routing and workers ---------------------------------------------------------------------

  /** Puts a row where its state says it goes next. */
  private route(row: FileRow): void {
    if (row.closed_at !== null) {
      this.untrack(row);
      return;
    }
    if (this.retryAt.has(row.id)) return;
    switch (row.state) {
      case 'seen':
        if (!this.settling.has(row.id)) this.queues.take.push(row.id);
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

  private pump(): void {
    if (this.stopping) return;
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
        this.runMany(rows, () => this.recoverUploads(rows), () => (this.recovering = false));
      }
    }
  }

  private run(row: FileRow, work: () => Promise<void>, done: () => void): void {
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

  /** A passing problem (the service unreachable, a file system hiccup): the row waits and tries again. */
  private retryLater(row: FileRow, error: unknown): void {
    const n = (this.attempts.get(row.id) ?? 0) + 1;
    this.attempts.set(row.id, n);
    this.retryAt.set(row.id, Date.now() + Math.min(30_000, 500 * 2 ** Math.min(n, 6)));
    const what = isServiceError(error) ? `${error.id}: ${error.message}` : (error as Error).message ?? String(error);
    this.warn(`${row.rel_path}: ${what} (will try again)`);
  }

  private warn(message: string): void {
    if (message === this.lastWarning) return;
    this.lastWarning = message;
    this.options.onEvent?.({ type: 'warning', message });
  }

  private folderOf(row: FileRow): Folder {
    return this.byId.get(row.folder_id)!;
  }

  private pathOf(row: FileRow): string {
    return join(this.folderOf(row).root, row.rel_path);
  }

  /**
   * Journals changes to a row (and applies them in memory). A row first journaled here (its
   * `hashed` fields were kept in memory only) is written whole.
   */
  private save(row: FileRow, changes: Partial<FileRow>): void {
    if (changes.state !== undefined && changes.state !== row.state) this.countState(row.state, changes.state);
    Object.assign(row, changes, { updated_at: Date.now() });
    const remembered = this.unsaved.get(row.id);
    this.unsaved.delete(row.id);
    this.journal.queue(row, [...Object.keys(changes), ...(remembered ?? []), 'updated_at']);
  }

  /** Waits until every journal write so far is committed: called before each side effect. */
  private durable(): Promise<void> {
    return this.journal.flushed();
  }

  /** A change kept in memory only (it is journaled with the row's next write). */
  private remember(row: FileRow, changes: Partial<FileRow>): void {
    if (changes.state !== undefined && changes.state !== row.state) this.countState(row.state, changes.state);
    Object.assign(row, changes);
    let columns = this.unsaved.get(row.id);
    if (!columns) this.unsaved.set(row.id, (columns = new Set()));
    for (const c of Object.keys(changes)) columns.add(c);
  }

  private countState(from: FileState | undefined, to: FileState | undefined): void {
    if (from) this.stateCounts[from]--;
    if (to) this.stateCounts[to]++;
  }

  /** Back to settling: the file changed after it was taken. */
  private resettle(row: FileRow, size: number, mtimeMs: number): void {
    this.unindexContent(row);
    this.save(row, { state: 'seen', size, mtime_ms: mtimeMs, sha256: null, details: null, sidecar: null });
    const now = Date.now();
    this.settling.set(row.id, { stableSince: now, checkAt: now + this.stableMs });
  }

  private vanish(row: FileRow): void {
    this.journal.remove(row.id);
    this.untrack(row);
  }

  // Taking a file: hash, metadata, upload, schedule ---------------------------------------

  /** One file from settled to scheduled, in one task (so a small file's bytes are read once). */
  private async take(row: FileRow): Promise<void> {
    if (row.state === 'created') return this.ensureJob(row);
    let bytes: Buffer | undefined;
    if (row.state === 'seen') {
      const hashed = await this.hash(row);
      if (!hashed) return;
      bytes = hashed.bytes;
    }
    if (row.state === 'hashed') await this.upload(row, bytes);
  }

  /**
   * Hashes a settled file and looks up its metadata; the row becomes `hashed` (in memory: the
   * journal learns the hash with the `uploading` record, written before anything is sent).
   * Returns the bytes of a small file, which are then uploaded as they were hashed.
   */
  private async hash(row: FileRow): Promise<{ bytes: Buffer | undefined } | undefined> {
    const path = this.pathOf(row);
    if (row.size === 0) {
      this.fail(row, 'invalid_value', 'The file is empty (0 bytes): there is nothing to issue');
      return undefined;
    }
    let hashed: { sha256: string; bytes: Buffer | undefined; after: EntryInfo | undefined };
    try {
      hashed = await hashFile(path, row.size);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') this.vanish(row);
      else this.fail(row, 'no_file_on_payload', `The file cannot be read (${code})`);
      return undefined;
    }
    const after = hashed.after ?? (await statEntry(path));
    if (after.kind === 'gone') {
      this.vanish(row);
      return undefined;
    }
    if (after.kind !== 'file' || after.size !== row.size || after.mtimeMs !== row.mtime_ms || (hashed.bytes && hashed.bytes.length !== row.size)) {
      this.resettle(row, after.kind === 'file' ? after.size : -1, after.kind === 'file' ? after.mtimeMs : -1);
      return undefined;
    }
    const folder = this.folderOf(row);
    const lookup = await this.metadataSource.lookup(folder.root, row.rel_path, Date.now());
    if (lookup.kind === 'wait') {
      const now = Date.now();
      this.settling.set(row.id, { stableSince: now - this.stableMs, checkAt: now + this.stableMs });
      return undefined;
    }
    if (lookup.kind === 'fail') {
      this.remember(row, { sidecar: lookup.sidecar });
      this.fail(row, lookup.error.id, lookup.error.message);
      return undefined;
    }
    try {
      const details = this.details(folder, row, hashed.sha256, lookup.fields);
      this.remember(row, { state: 'hashed', sha256: hashed.sha256, details: JSON.stringify(details), sidecar: lookup.sidecar });
      this.indexContent(row);
    } catch (error) {
      if (!(error instanceof MetadataError)) throw error;
      this.remember(row, { sidecar: lookup.sidecar });
      this.fail(row, error.id, error.message);
      return undefined;
    }
    return { bytes: hashed.bytes };
  }

  private details(folder: Folder, row: FileRow, sha256: string, fields: FileFields): CredentialDetails {
    const tags = [...folder.tags, ...(fields.tags ?? []).filter((t) => !folder.tags.includes(t))];
    try {
      validateTags(tags, 'tags');
    } catch (error) {
      throw new MetadataError('invalid_tag', `the folder's and the file's tags together: ${(error as Error).message}`);
    }
    const details: CredentialDetails = {
      title: fields.title ?? row.rel_path.slice(row.rel_path.lastIndexOf('/') + 1),
      metadata: { ...folder.metadata, ...fields.metadata, [INGEST_METADATA_KEY]: { sha256, path: row.rel_path } },
      tags,
    };
    if (fields.expiry_date) details.expiry_date = fields.expiry_date;
    if (fields.credentials?.length) details.credentials = fields.credentials;
    return details;
  }

  // Uploading and scheduling ----------------------------------------------------------------

  /**
   * Sends a hashed file: duplicates are filed instead, and the `uploading` record is written
   * before the request goes out. Small files go as the bytes that were hashed; large ones are
   * streamed from disk, and the service's hash of them is compared with ours afterwards.
   */
  private async upload(row: FileRow, hashedBytes: Buffer | undefined): Promise<void> {
    const folder = this.folderOf(row);
    const path = this.pathOf(row);
    let bytes = hashedBytes;
    if (!bytes) {
      // Back from waiting: look again that it is what was hashed.
      const info = await statEntry(path);
      if (info.kind === 'gone') return this.vanish(row);
      if (info.kind !== 'file' || info.size !== row.size || info.mtimeMs !== row.mtime_ms) {
        return this.resettle(row, info.kind === 'file' ? info.size : -1, info.kind === 'file' ? info.mtimeMs : -1);
      }
      if (row.size <= SMALL_FILE) {
        bytes = await readFile(path);
        if (createHash('sha256').update(bytes).digest('hex') !== row.sha256) return this.resettle(row, info.size, info.mtimeMs);
      }
    }
    if (!folder.allowDuplicates) {
      const same = this.sameContent(row);
      const original = same.find((r) => r.state !== 'hashed' && r.state !== 'uploading');
      if (original) return this.duplicate(row, original.id, this.describeOriginal(original));
      // An identical file is being sent, or is ahead of this one: wait for its outcome.
      if (same.some((r) => r.state === 'uploading' || r.id < row.id)) {
        this.save(row, {});
        this.retryAt.set(row.id, Date.now() + Math.max(100, this.stableMs / 2));
        return;
      }
    }
    this.save(row, { state: 'uploading', attempt_at: Date.now() });
    await this.durable();
    ingestFaultPoint('after-uploading');
    let credential: Credential;
    try {
      credential = await this.service.createAndScheduleCredential(folder.engine, {
        file: bytes ? { data: bytes, name: row.rel_path.slice(row.rel_path.lastIndexOf('/') + 1) } : { path },
        credential_details: { ...(JSON.parse(row.details!) as CredentialDetails), ignore_duplicate: folder.allowDuplicates ? 'true' : 'false' },
      });
    } catch (error) {
      if (isRefusal(error)) {
        // A refused request changed nothing (the service's rule): the outcome is known.
        if (error.id === 'file_already_exists') {
          const original = this.sameContent(row).find((r) => r.state !== 'hashed' && r.state !== 'uploading');
          return this.duplicate(row, original?.id ?? null, original ? this.describeOriginal(original) : `The service already holds this content (${error.message})`);
        }
        if (error.id === 'no_file_on_payload' && (await statEntry(path)).kind === 'gone') return this.vanish(row);
        return this.fail(row, error.id, error.message);
      }
      // Unknown outcome: the credential may exist. Look for it before sending again.
      this.retryLater(row, error);
      return;
    }
    ingestFaultPoint('after-create');
    await this.created(row, credential);
  }

  /**
   * Other rows with the same content and target, in a live state (not failed or duplicate):
   * open ones as they are in memory (ahead of the journal's batched writes), the others as the
   * journal has them.
   */
  private sameContent(row: FileRow): Pick<FileRow, 'id' | 'state' | 'credential_uid' | 'folder_id' | 'rel_path' | 'final_path' | 'proof_path'>[] {
    const found = new Map<number, Pick<FileRow, 'id' | 'state' | 'credential_uid' | 'folder_id' | 'rel_path' | 'final_path' | 'proof_path'>>();
    // Rows not open here (closed, or of folders this process does not watch) count once they
    // hold a credential: one left `uploading` by a folder no longer watched must not hold this up.
    for (const r of this.journal.sameContent(row.sha256!, row.target, row.id)) {
      if (!this.rows.has(r.id) && r.state !== 'hashed' && r.state !== 'uploading') found.set(r.id, r);
    }
    for (const id of this.byContent.get(this.contentKey(row)) ?? []) {
      const r = this.rows.get(id);
      if (r && id !== row.id && r.state !== 'failed' && r.state !== 'duplicate' && r.state !== 'seen') found.set(id, r);
    }
    return [...found.values()].sort((a, b) => a.id - b.id);
  }

  private describeOriginal(original: Pick<FileRow, 'state' | 'credential_uid' | 'folder_id' | 'rel_path' | 'final_path'>): string {
    const where = original.final_path ?? join(this.journal.folderPath(original.folder_id) ?? '', original.rel_path);
    const what = original.state === 'moved' ? 'was issued' : 'is being issued';
    return `Identical content ${what} as ${where}${original.credential_uid ? ` (credential ${original.credential_uid})` : ''}`;
  }

  /**
   * A credential exists for the row (made by create-and-schedule, so it is scheduled too):
   * checks it carries the bytes that were hashed and journals its uid. Which job it is in is
   * learned in bulk when a job finishes or fails (pollJobs), not asked per file.
   */
  private async created(row: FileRow, credential: Credential): Promise<void> {
    const hash = credential.files[0]?.file_hash;
    if (hash !== undefined && hash !== row.sha256) {
      // The file changed while it was streamed: take the credential back and settle again.
      try {
        const result = await this.service.unscheduleCredential(credential.uid, row.engine);
        if (result.credential_deleted) {
          this.warn(`${row.rel_path} changed while it was uploaded; it will be taken again once it is stable`);
          this.unindexContent(row);
          this.save(row, { state: 'seen', credential_uid: null, sha256: null, details: null });
          const now = Date.now();
          this.settling.set(row.id, { stableSince: now, checkAt: now });
          return;
        }
      } catch (error) {
        this.warn(`${row.rel_path} changed while it was uploaded, and its credential could not be withdrawn: ${(error as Error).message}`);
      }
    }
    this.save(row, { state: 'scheduled', credential_uid: credential.uid });
  }

  /** The job (not failed) the credential is in on the engine, if any. */
  private async activeJob(credentialUid: string, engine: string): Promise<Job | undefined> {
    const jobs = await this.service.listJobs({ uid: credentialUid, per_page: 100 });
    return jobs.items.find((j) => j.status !== 'failed' && j.chain === engine);
  }

  /**
   * For a credential that may be in no job (its job failed, or it was taken out): finds the job
   * it is in, or schedules it again, and journals it.
   */
  private async ensureJob(row: FileRow): Promise<void> {
    const uid = row.credential_uid!;
    const active = await this.activeJob(uid, row.engine);
    if (active) {
      this.save(row, { state: 'scheduled', job_uid: active.uid });
      return;
    }
    this.save(row, { attempt_at: Date.now() });
    await this.durable();
    try {
      const job = await this.service.scheduleCredentials({ engine: row.engine, credentials: [uid] });
      this.save(row, { state: 'scheduled', job_uid: job.uid });
    } catch (error) {
      if (isServiceError(error) && error.id === 'missing_credential') {
        // Withdrawn by someone else: nothing was issued, so it is created again.
        this.save(row, { state: 'hashed', credential_uid: null, job_uid: null });
        return;
      }
      throw error;
    }
  }

  /**
   * Rows whose request was sent but whose answer was never journaled (a crash, a lost answer):
   * each one's credential is looked for by the content hash and path in its metadata, among
   * the credentials made since the request. Found: journaled as created. Not found: the request
   * never took effect, and it is sent again.
   */
  private async recoverUploads(rows: FileRow[]): Promise<void> {
    const since = Math.min(...rows.map((r) => r.attempt_at ?? r.seen_at)) - RECOVERY_SKEW_MS;
    const byKey = new Map<string, Credential[]>();
    for (let page = 1; ; page++) {
      const result = await this.service.listCredentials({ upload_date_from: new Date(since).toISOString(), per_page: 500, page });
      for (const credential of result.items) {
        const ingest = credential.metadata[INGEST_METADATA_KEY] as { sha256?: unknown; path?: unknown } | undefined;
        if (typeof ingest?.sha256 !== 'string' || typeof ingest.path !== 'string') continue;
        const key = `${ingest.sha256}\0${ingest.path}`;
        const list = byKey.get(key);
        if (list) list.push(credential);
        else byKey.set(key, [credential]);
      }
      if (page >= result.total_pages || result.items.length === 0) break;
    }
    let found = 0;
    let resent = 0;
    for (const row of rows) {
      if (row.state !== 'uploading') continue;
      const candidates = (byKey.get(`${row.sha256}\0${row.rel_path}`) ?? []).filter(
        (c) => Date.parse(c.upload_date) >= (row.attempt_at ?? 0) - RECOVERY_SKEW_MS && !this.journal.credentialClaimed(c.uid),
      );
      const match = candidates.find((c) => c.files[0]?.file_hash === row.sha256) ?? candidates[0];
      if (match) {
        found++;
        await this.created(row, match);
      } else {
        resent++;
        this.save(row, { state: 'hashed' });
      }
    }
    this.options.onEvent?.({ type: 'recovered', found, resent });
  }

  // Jobs and proofs -------------------------------------------------------------------------

  private pollJobs(): Promise<void> {
    this.pollRunning ??= this.pollRound()
      .catch((error) => this.warn(`following jobs: ${(error as Error).message}`))
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
  private async pollRound(): Promise<void> {
    const waiting = new Map<string, FileRow>();
    let since = Infinity;
    for (const row of this.rows.values()) {
      if (row.state !== 'scheduled' || this.busy.has(row.id) || this.queues.finish.queued.has(row.id)) continue;
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
        const jobs = await this.service.listJobs({ status, start_date_from: new Date(since).toISOString(), sort_by: 'start_date', per_page: 100, page });
        for (const job of jobs.items) {
          if (this.stopping) return;
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
        this.queues.finish.push(row.id);
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
    this.pump();
    for (const [jobUid, rows] of failed) await this.reschedule(jobUid, rows);
    await this.checkOverdue(waiting);
  }

  /** A finished job's credential uid → certificate uid; a failed job's credential uids. */
  private async jobContents(jobUid: string, status: 'finished' | 'failed'): Promise<Map<string, string>> {
    const contents = new Map<string, string>();
    for (let page = 1; ; page++) {
      if (status === 'finished') {
        const result = await this.service.listJobCertificates(jobUid, { per_page: 1000, page });
        for (const c of result.items) contents.set(c.certificate.credential.uid, c.certificate.uid);
        if (page >= result.total_pages || result.items.length === 0) break;
      } else {
        const result = await this.service.listJobCredentials(jobUid, { per_page: 1000, page });
        for (const c of result.items) contents.set(c.uid, '');
        if (page >= result.total_pages || result.items.length === 0) break;
      }
    }
    return contents;
  }

  /**
   * A safety net for credentials taken out of their job by someone else. Jobs start in order,
   * so once a job on the engine that started well after a file was scheduled has finished, the
   * file's own job should have finished too; a file still waiting then is overdue and is asked
   * about on its own (a few per round, each at most every ten minutes).
   */
  private async checkOverdue(waiting: Map<string, FileRow>): Promise<void> {
    const now = Date.now();
    let checked = 0;
    for (const row of waiting.values()) {
      if (checked >= 20 || this.stopping) return;
      const scheduled = row.attempt_at ?? row.updated_at;
      if (scheduled + RECOVERY_SKEW_MS >= (this.latestFinishedStart.get(row.engine) ?? 0)) continue;
      if (now - (this.lastAsked.get(row.id) ?? 0) < OVERDUE_ASK_MS) continue;
      this.lastAsked.set(row.id, now);
      checked++;
      const job = await this.activeJob(row.credential_uid!, row.engine);
      if (!job) {
        this.save(row, { state: 'created', job_uid: null });
        this.route(row);
      } else if (row.job_uid !== job.uid) this.save(row, { job_uid: job.uid });
    }
    this.pump();
  }

  /** A failed job released its credentials: they go into the next job. */
  private async reschedule(jobUid: string, rows: FileRow[]): Promise<void> {
    this.options.onEvent?.({ type: 'job-failed', job_uid: jobUid, credentials: rows.length });
    const byEngine = new Map<string, FileRow[]>();
    for (const row of rows) {
      const list = byEngine.get(row.engine);
      if (list) list.push(row);
      else byEngine.set(row.engine, [row]);
    }
    for (const [engine, group] of byEngine) {
      const at = Date.now();
      for (const row of group) this.save(row, { attempt_at: at, job_failures: row.job_failures + 1 });
      await this.durable();
      try {
        const job = await this.service.scheduleCredentials({ engine, credentials: group.map((r) => r.credential_uid!) });
        for (const row of group) this.save(row, { job_uid: job.uid });
      } catch {
        // Some are scheduled already (or gone): each finds its own way.
        for (const row of group) {
          this.save(row, { state: 'created', job_uid: null });
          this.route(row);
        }
        this.pump();
      }
    }
  }

  /** Where the original and its proof go: `done/<rel>` and `<out>/<rel>.proof.json`, numbered on a clash. */
  private chooseDonePaths(row: FileRow): { final: string; proof: string } {
    const folder = this.folderOf(row);
    const [final, proof] = firstFree(
      (n) => {
        const rel = numbered(row.rel_path, n);
        return [join(folder.root, DONE_DIR, rel), join(folder.outDir, `${rel}.proof.json`)];
      },
      this.reserved,
    );
    return { final: final!, proof: proof! };
  }

  private async finish(row: FileRow): Promise<void> {
    if (row.state === 'scheduled') {
      const credentialUid = row.credential_uid!;
      let certificateUid = this.certificateOf.get(credentialUid);
      if (!certificateUid) {
        const page = await this.service.listCertificates({ credential_uid: credentialUid, per_page: 100 });
        certificateUid = page.items.find((c) => c.certificate.credential.uid === credentialUid)?.certificate.uid;
      }
      if (!certificateUid) {
        // Not in the job after all: find where it is.
        this.save(row, { state: 'created', job_uid: null });
        return;
      }
      if (!row.final_path || !row.proof_path) {
        const { final, proof } = this.chooseDonePaths(row);
        this.save(row, { final_path: final, proof_path: proof });
        this.reserved.add(final);
        this.reserved.add(proof);
        // Where the proof goes is journaled before it is written: a restart writes the same file.
        await this.durable();
      }
      const proofText = await this.service.downloadCertificate(certificateUid);
      await writeAtomic(row.proof_path!, proofText);
      this.save(row, { state: 'issued' });
      this.certificateOf.delete(credentialUid);
      await this.durable();
      ingestFaultPoint('after-issued');
    }
    if (row.state !== 'issued') return;
    // Moved, never issued again: the journal says issued.
    const moved = (await moveFile(this.pathOf(row), row.final_path!)) || existsSync(row.final_path!);
    await this.moveSidecar(row);
    if (!moved) this.warn(`${row.rel_path} was issued but had gone from the folder before it could be moved to ${DONE_DIR}/`);
    this.save(row, { state: 'moved', closed_at: Date.now() });
    this.counts.issued++;
    this.options.onEvent?.({ type: 'issued', folder: this.folderOf(row).root, path: row.rel_path, proof: row.proof_path!, credential_uid: row.credential_uid! });
  }

  private async moveSidecar(row: FileRow): Promise<void> {
    if (!row.sidecar || !row.final_path) return;
    await moveFile(join(this.folderOf(row).root, row.sidecar), `${row.final_path}.json`);
  }

  // Failed and duplicate files ---------------------------------------------------------------

  private fail(row: FileRow, id: string, message: string): void {
    const folder = this.folderOf(row);
    const [final] = firstFree((n) => [join(folder.root, FAILED_DIR, numbered(row.rel_path, n))], this.reserved);
    this.reserved.add(final!);
    this.save(row, { state: 'failed', error_id: id, error_message: message, final_path: final! });
    this.counts.failed++;
    this.options.onEvent?.({ type: 'failed', folder: folder.root, path: row.rel_path, id, message });
  }

  private duplicate(row: FileRow, of: number | null, message: string): void {
    const folder = this.folderOf(row);
    const [final] = firstFree((n) => [join(folder.root, DUPLICATE_DIR, numbered(row.rel_path, n))], this.reserved);
    this.reserved.add(final!);
    this.save(row, { state: 'duplicate', duplicate_of: of, error_message: message, final_path: final! });
    this.counts.duplicates++;
    this.options.onEvent?.({ type: 'duplicate', folder: folder.root, path: row.rel_path, message });
  }

  /** Writes the note beside where the file goes, then moves it (and its sidecar) there. */
  private async fileAway(row: FileRow): Promise<void> {
    if (row.state === 'moved') {
      this.save(row, { closed_at: row.closed_at ?? Date.now() });
      return;
    }
    if (row.state !== 'failed' && row.state !== 'duplicate') return;
    await this.durable();
    const when = new Date(row.updated_at).toISOString();
    if (row.state === 'failed') {
      await writeAtomic(`${row.final_path}.error.json`, `${JSON.stringify({ id: row.error_id, message: row.error_message, when, file: row.rel_path, sha256: row.sha256 }, null, 2)}\n`);
    } else {
      let original: Record<string, unknown> | null = null;
      if (row.duplicate_of !== null) {
        const of = this.sameContent(row).find((r) => r.id === row.duplicate_of);
        if (of) original = { path: of.rel_path, moved_to: of.final_path, proof: of.proof_path, credential_uid: of.credential_uid };
      }
      await writeAtomic(
        `${row.final_path}.duplicate.json`,
        `${JSON.stringify({ id: 'duplicate', message: row.error_message, when, file: row.rel_path, sha256: row.sha256, duplicate_of: original }, null, 2)}\n`,
      );
    }
    await moveFile(this.pathOf(row), row.final_path!);
    await this.moveSidecar(row);
    this.save(row, { closed_at: Date.now() });
  }
}

type EntryInfo = { kind: 'file'; size: number; mtimeMs: number } | { kind: 'gone' } | { kind: 'other'; reason: string };

/** What is at a path: a regular file (size, mtime), nothing, or something that cannot be issued. */
async function statEntry(path: string): Promise<EntryInfo> {
  try {
    const info = await stat(path);
    if (info.isFile()) return { kind: 'file', size: info.size, mtimeMs: info.mtimeMs };
    return { kind: 'other', reason: `Not a regular file (${kindOf(info)}): there is nothing to read` };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') {
      // A link to nothing is still there; a file deleted is not.
      const link = await lstat(path).catch(() => undefined);
      return link ? { kind: 'other', reason: 'The file cannot be read (a link to a file that does not exist)' } : { kind: 'gone' };
    }
    return { kind: 'other', reason: `The file cannot be read (${code})` };
  }
}

/**
 * SHA-256 of a file, lowercase hex. A small file is read whole and its bytes returned (they are
 * uploaded as they were hashed); a tiny one synchronously, with its size and modification time
 * read from the same descriptor after the read — cheaper for the event loop than four
 * fs/promises round trips. A large file is streamed.
 */
async function hashFile(path: string, size: number): Promise<{ sha256: string; bytes: Buffer | undefined; after: EntryInfo | undefined }> {
  const hash = createHash('sha256');
  if (size <= TINY_FILE) {
    const fd = openSync(path, 'r');
    try {
      const bytes = readFileSync(fd);
      const info = fstatSync(fd);
      return { sha256: hash.update(bytes).digest('hex'), bytes, after: { kind: 'file', size: info.size, mtimeMs: info.mtimeMs } };
    } finally {
      closeSync(fd);
    }
  }
  if (size <= SMALL_FILE) {
    const bytes = await readFile(path);
    return { sha256: hash.update(bytes).digest('hex'), bytes, after: undefined };
  }
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex'), bytes: undefined, after: undefined };
}

/** Runs `fn` over items with at most `limit` at a time; results in order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
