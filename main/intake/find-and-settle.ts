/**
 * Stage 1, find and settle: the watcher's hints and the rescans find paths; each is journaled
 * as `seen` and looked at until its size and modification time stay unchanged for the stable
 * time, then it goes to be described.
 */
import type { Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { readdir } from 'node:fs/promises';
import type { ErrorId } from '../../common/errors.js';
import type { Folder, FolderIntakeCore } from './folder-intake-core.js';
import { FolderWatcher } from './folder-watcher.js';
import { errorCode, signatureOf, statEntry, toPosix, type EntryInfo } from './entries.js';
import { newFileRow, type FileRow } from './journal.js';
import { pathKey } from './row-store.js';
import { DONE_DIR, DUPLICATE_DIR, FAILED_DIR, isCandidateName, isIgnoredName } from './names.js';
import pMap from 'p-map';

const HEARTBEAT_MS = 5_000;

/** In-memory state of a row still settling (not journaled: a restart settles again). */
interface Settling {
  stableSince: number;
  checkAt: number;
  /** The last stat error (an entry that keeps failing to stat is failed once it is stable). */
  error?: string;
}

/** A path heard of and not journaled yet, with the watcher's stat of it when it gave one. */
interface Heard {
  folder: Folder;
  rel: string;
  info?: EntryInfo;
}

export class Settler {
  settleRunning: Promise<void> | undefined;
  rescanRunning: Promise<void> | undefined;
  private lastBeat = 0;
  private dueTimer: NodeJS.Timeout | undefined;
  private dueAt = 0;
  private readonly reportedNames = new Set<string>();
  /** The rows settling, by id. */
  private readonly settling = new Map<number, Settling>();
  /** Paths heard of and not journaled yet, by path key. */
  private readonly discovered = new Map<string, Heard>();
  /** How often the settling round runs: a quarter of the stable time, within 20–250 ms. */
  readonly tickMs: number;

  constructor(private readonly core: FolderIntakeCore) {
    this.tickMs = Math.max(20, Math.min(250, Math.floor(core.stableMs / 4)));
  }

  /** Whether the row is settling (waiting out its stable time). */
  isSettling(id: number): boolean {
    return this.settling.has(id);
  }

  /** Puts a row (back) to settle: stable since `stableSince`, looked at again at `checkAt`. */
  settleFrom(id: number, stableSince: number, checkAt: number): void {
    this.settling.set(id, { stableSince, checkAt });
  }

  /** Lets a row go from settling (closed, gone or taken). */
  forget(id: number): void {
    this.settling.delete(id);
  }

  /** A path to look at on the next settle round (unless a row has it already by then). */
  hear(folder: Folder, rel: string, info?: EntryInfo): void {
    this.discovered.set(pathKey(folder.id, rel), { folder, rel, info });
  }

  /** Paths heard of and not journaled yet. */
  get heardCount(): number {
    return this.discovered.size;
  }

  /** When the settling row is looked at next (undefined: it is not settling). */
  checkAt(id: number): number | undefined {
    return this.settling.get(id)?.checkAt;
  }

  /** Whether a path inside the folder is never to be looked at (own folders, hidden or temporary names, the output folder). */
  ignoredRel(folder: Folder, rel: string, abs: string): boolean {
    if (rel === '' || rel.startsWith('..')) return rel !== '';
    const parts = rel.split('/');
    if (parts.some((p) => isIgnoredName(p))) return true;
    if (parts[0] === DONE_DIR || parts[0] === FAILED_DIR || parts[0] === DUPLICATE_DIR) return true;
    if (abs === folder.outDir || abs.startsWith(folder.outDir + sep)) return true;
    if (!folder.recursive && parts.length > 1) return true;
    return false;
  }

  /**
   * Starts the folder's watcher (folder-watcher.ts: one native watch per folder, each event
   * looked at once). Its folders are added as the scans walk into them; a folder that appears
   * is walked (and so watched) at once. With `usePolling` (network shares, where native events
   * do not come) there is no watcher: the folder is scanned every second instead.
   */
  startWatcher(folder: Folder): Promise<void> {
    if (this.core.options.usePolling) return Promise.resolve();
    const watcher = new FolderWatcher({
      ignored: (path) => this.ignoredRel(folder, toPosix(relative(folder.root, path)), path) || this.pastCaring(folder, path),
      onEntry: (path, stats) => this.notice(folder, path, stats === undefined, stats),
      onDir: (path) => {
        if (path !== folder.root && !folder.recursive) return;
        void this.walk(folder, path).catch((error) => this.core.problem('scanning', error));
      },
      onError: (message) => this.core.warn(message),
    });
    folder.watcher = watcher;
    watcher.addDir(folder.root);
    return Promise.resolve();
  }

  /**
   * Whether an event at `path` can be passed over without a look: its file is taken and past
   * the point where a change matters to the watcher (only a file settling, or one waiting for
   * its job, is looked at again on a hint; the others are checked before their next step
   * anyway). Most events of a busy folder are the intake's own moves to done/.
   */
  private pastCaring(folder: Folder, path: string): boolean {
    const id = this.core.rows.idAt(pathKey(folder.id, toPosix(relative(folder.root, path))));
    if (id === undefined || this.settling.has(id)) return false;
    const state = this.core.rows.get(id)?.state;
    return state !== undefined && state !== 'scheduled';
  }

  /** A hint that something happened at `path`: it is looked at on the next settle round. */
  notice(folder: Folder, path: string, gone = false, stats?: Stats): void {
    if (this.core.stopping) return;
    const rel = toPosix(relative(folder.root, path));
    if (this.ignoredRel(folder, rel, path)) return;
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (!isCandidateName(name)) return;
    const id = this.core.rows.idAt(pathKey(folder.id, rel));
    if (id !== undefined) {
      const s = this.settling.get(id);
      if (s) s.checkAt = Math.min(s.checkAt, this.core.clock.now());
      // Changed after it was taken: looked at before its credential is issued.
      else if (!gone) this.core.collector.suspect(id);
      return;
    }
    if (gone) return;
    // The watcher's look, just taken: the file's stable time counts from it.
    const info: EntryInfo | undefined = stats?.isFile() ? { kind: 'file', size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino, at: this.core.clock.now() } : undefined;
    this.hear(folder, rel, info);
  }

  /** Walks every folder for files no event told about (and those that came while nothing ran). */
  rescan(): Promise<void> {
    this.rescanRunning ??= (async () => {
      for (const folder of this.core.folders) await this.walk(folder, folder.root);
    })()
      .catch((error) => this.core.problem('scanning', error))
      .finally(() => (this.rescanRunning = undefined));
    return this.rescanRunning;
  }

  /**
   * A name that is not valid UTF-8 cannot be carried as a credential's title or path: it is
   * reported as failed once (and counted), and left where it is.
   */
  private badName(folder: Folder, dir: string, raw: Buffer, shown: string): void {
    const key = `${folder.id}\0${dir}\0${raw.toString('hex')}`;
    if (this.reportedNames.has(key)) return;
    this.reportedNames.add(key);
    const rel = toPosix(relative(folder.root, join(dir, shown)));
    const message = `The name is not valid UTF-8 (bytes ${raw.toString('hex')}): it cannot be issued under its name and is left where it is; rename it to take it`;
    this.core.reportFailure(folder, rel, 'invalid_value', message);
  }

  async walk(folder: Folder, dir: string): Promise<void> {
    // Watched before it is read: nothing that arrives meanwhile is missed.
    folder.watcher?.addDir(dir);
    let entries;
    try {
      // Names as bytes: a name that is not valid UTF-8 would otherwise be read as another name.
      entries = await readdir(dir, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      if (dir === folder.root) this.core.warn(`cannot read ${dir}: ${errorCode(error)}`);
      return;
    }
    for (const entry of entries) {
      if (this.core.stopping) return;
      const name = entry.name.toString('utf8');
      if (!Buffer.from(name, 'utf8').equals(entry.name)) {
        this.badName(folder, dir, entry.name, name);
        continue;
      }
      const abs = join(dir, name);
      const rel = toPosix(relative(folder.root, abs));
      if (this.ignoredRel(folder, rel, abs)) continue;
      if (entry.isDirectory()) {
        if (folder.recursive) await this.walk(folder, abs);
        continue;
      }
      if (!isCandidateName(name)) continue;
      if (this.core.rows.idAt(pathKey(folder.id, rel)) === undefined) this.hear(folder, rel);
    }
  }

  /** One round: stat new and settling files, take the stable ones, retry what is due. */
  settle(): Promise<void> {
    this.settleRunning ??= this.settleRound()
      .catch((error) => this.core.problem('settling', error))
      .then(() => this.core.roundDone())
      .finally(() => (this.settleRunning = undefined));
    return this.settleRunning;
  }

  async settleRound(): Promise<void> {
    const now = this.core.clock.now();
    if (now - this.lastBeat >= HEARTBEAT_MS) {
      this.lastBeat = now;
      this.core.journal.heartbeat(this.core.token, now);
      this.core.claims?.heartbeat(this.core.token, now);
    }
    // New paths: a journal row each, in one transaction.
    const fresh = [...this.discovered.entries()];
    this.discovered.clear();
    const found = await pMap(fresh, async ([key, { folder, rel, info }]) => ({ key, folder, rel, info: info ?? (await statEntry(join(folder.root, rel))) }), { concurrency: 64 });
    const due = [...this.settling.entries()].filter(([, s]) => s.checkAt <= now).map(([id]) => this.core.rows.get(id)!);
    const checked = await pMap(due, async (row) => ({ row, info: await statEntry(this.core.pathOf(row)) }), { concurrency: 64 });
    if (this.core.stopping) return;
    const after = this.core.clock.now();
    const ready: FileRow[] = [];
    const failed: { row: FileRow; id: ErrorId; message: string }[] = [];
    // What is journaled in this round is kept in memory only once it is committed: a write
    // that fails (a full disk) leaves nothing behind that the journal does not know.
    const inserted: { row: FileRow; info: Exclude<EntryInfo, { kind: 'gone' }> }[] = [];
    const gone: FileRow[] = [];
    try {
      // Queued writes first: a path closed a moment ago (moved to done/) may be taken again now.
      this.core.journal.flush();
      this.core.journal.transaction(() => {
        for (const { key, folder, rel, info } of found) {
          if (info.kind === 'gone' || this.core.rows.idAt(key) !== undefined) continue;
          // An entry refused and left in place before (a link), unchanged since, is not reported again.
          if (this.core.stillRefused(key, () => info.signature ?? signatureOf(join(folder.root, rel)))) continue;
          const row = this.core.journal.insert(
            newFileRow(
              {
                folder_id: folder.id,
                rel_path: rel,
                state: 'seen',
                target: folder.target,
                size: info.kind === 'file' ? info.size : -1,
                mtime_ms: info.kind === 'file' ? info.mtimeMs : -1,
                engine: folder.engine,
              },
              after,
            ),
          );
          inserted.push({ row, info });
        }
        for (const { row, info } of checked) {
          if (info.kind !== 'gone' || !this.settling.has(row.id) || row.state !== 'seen') continue;
          // Deleted before it was taken: it leaves no trace.
          this.core.journal.remove(row.id);
          gone.push(row);
        }
      });
    } catch (error) {
      // Nothing of this round was journaled: what was heard of is looked at again next round.
      for (const { key, folder, rel } of found) if (this.core.rows.idAt(key) === undefined) this.discovered.set(key, { folder, rel });
      throw error;
    }
    for (const { row, info } of inserted) {
      this.core.rows.add(row);
      this.core.count('seen');
      // Stable since the first look at it (the watcher's, when it gave one: up to a round ago).
      const since = info.kind === 'file' && info.at !== undefined && info.at <= after ? info.at : after;
      this.settling.set(row.id, { stableSince: since, checkAt: since + this.core.stableMs, error: info.kind === 'file' ? undefined : info.reason });
    }
    for (const row of gone) this.core.untrack(row);
    for (const { row, info } of checked) {
      const s = this.settling.get(row.id);
      if (!s || row.state !== 'seen' || info.kind === 'gone') continue;
      if (info.kind === 'other') {
        if (s.error === info.reason && after - s.stableSince >= this.core.stableMs) failed.push({ row, id: 'no_file_on_payload', message: info.reason });
        else if (s.error !== info.reason) Object.assign(s, { error: info.reason, stableSince: after, checkAt: after + this.core.stableMs });
        else s.checkAt = s.stableSince + this.core.stableMs;
        continue;
      }
      if (s.error !== undefined || info.size !== row.size || info.mtimeMs !== row.mtime_ms) {
        // Still being written.
        this.core.rows.save(row, { size: info.size, mtime_ms: info.mtimeMs });
        Object.assign(s, { error: undefined, stableSince: after, checkAt: after + this.core.stableMs });
        continue;
      }
      if (after - s.stableSince >= this.core.stableMs) {
        this.settling.delete(row.id);
        ready.push(row);
      } else s.checkAt = s.stableSince + this.core.stableMs;
    }
    for (const { row, id, message } of failed) {
      this.settling.delete(row.id);
      this.core.filer.fail(row, id, message);
      this.core.route(row);
    }
    this.core.take(ready);
    this.core.count('settled', ready.length);
    this.core.routeDue(after);
    this.core.pump();
    this.roundAtNextDue(after);
  }

  /**
   * The rounds come every tick; a file due between two is looked at when it is due, not up to a
   * tick later: one more round is set for the first file due before the next tick.
   */
  private roundAtNextDue(now: number): void {
    let due = Infinity;
    for (const s of this.settling.values()) if (s.checkAt < due) due = s.checkAt;
    if (due >= now + this.tickMs || (this.dueTimer && this.dueAt <= due)) return;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueAt = due;
    this.dueTimer = setTimeout(() => {
      this.dueTimer = undefined;
      if (this.core.running) void this.settle();
    }, Math.max(0, due - this.core.clock.now()) + 1);
    this.dueTimer.unref();
  }
}
