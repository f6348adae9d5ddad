/**
 * The file-system watcher of a watched folder: one native watch per folder (not per file), and
 * every event is a hint about the one name it carries, looked at once (an lstat, never
 * following a link). A change costs the same whatever the folder holds.
 *
 * Not chokidar 4: it re-reads the whole directory (an lstat per entry) after each change to it
 * and keeps a watch per file; with thousands of files in the folder, moving out to done/ one by
 * one, that re-reading would be most of the work (docs/desktop-app.md). The watcher is only a
 * hint anyway (docs/intake.md): the full scans at start and every 30 s find what it misses.
 * Not @parcel/watcher either: on Linux it never watches the folders inside a folder that arrives
 * whole (docs/intake.md says why that matters here).
 *
 * Which folders are watched is decided by the caller: `addDir` is called for each folder the
 * scan walks into (so a folder is watched before it is read, and nothing arriving meanwhile is
 * missed), and for a folder an event reports as new.
 */
import { lstatSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { join, sep } from 'node:path';
import { errorCode } from './entries.js';

export interface FolderWatcherHooks {
  /** Whether a path is never looked at (own folders, hidden and temporary names, the output folder, depth). */
  ignored(path: string): boolean;
  /** Something happened at `path`: a file or another entry (its lstat), or nothing any more (undefined). */
  onEntry(path: string, stats: Stats | undefined): void;
  /** A folder appeared (created or moved in): the caller walks it, calling addDir for it and its folders. */
  onDir(path: string): void;
  onError(message: string): void;
}

/** Looks per turn of the event loop after a burst of events. */
const LOOKS_PER_TURN = 500;

export class FolderWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  /** Paths heard of and not looked at yet (a burst of events on one name is looked at once). */
  private readonly pending = new Set<string>();
  private looking: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly hooks: FolderWatcherHooks) {}

  /** Watches a folder's own entries (idempotent). Links are never passed here: a folder reached through one is not watched. */
  addDir(dir: string): void {
    if (this.closed || this.watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: true, encoding: 'utf8' }, (_event, name) => {
        // No name (some platforms, an overflow): the folder is walked again.
        if (name === null || name === undefined) this.hooks.onDir(dir);
        else this.hint(join(dir, name));
      });
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOSPC' || code === 'EMFILE') {
        this.hooks.onError(`${dir} cannot be watched live: the system's limit of watched folders is reached (${code}; on Linux raise fs.inotify.max_user_watches). Its files are found by the scan every 30 seconds instead.`);
      } else if (code !== 'ENOENT' && code !== 'ENOTDIR') this.hooks.onError(`${dir} cannot be watched live (${code}); its files are found by the scan every 30 seconds instead.`);
      return;
    }
    watcher.on('error', (error) => {
      this.removeDir(dir);
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'EPERM') this.hooks.onError(`${dir} is no longer watched live (${code}); its files are found by the scan every 30 seconds instead.`);
    });
    this.watchers.set(dir, watcher);
  }

  /** Stops watching a folder and every folder below it (it is gone, or was replaced). */
  private removeDir(dir: string): void {
    for (const [path, watcher] of this.watchers) {
      if (path === dir || path.startsWith(dir + sep)) {
        watcher.close();
        this.watchers.delete(path);
      }
    }
  }

  /** How many folders are watched (for tests and the status of a large tree). */
  get watchedDirs(): number {
    return this.watchers.size;
  }

  private hint(path: string): void {
    if (this.closed || this.hooks.ignored(path)) return;
    this.pending.add(path);
    // Looked at on the next turn of the event loop: the events of a burst come together.
    this.looking ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.look());
  }

  private async look(): Promise<void> {
    try {
      while (this.pending.size > 0 && !this.closed) {
        let n = 0;
        for (const path of this.pending) {
          this.pending.delete(path);
          this.lookAt(path);
          if (++n === LOOKS_PER_TURN || this.closed) break;
        }
        // The rest on the next turn: the process stays responsive during a burst.
        if (this.pending.size > 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      // Whatever happened, the next hint starts a new look (a look that failed must not stop them all).
      this.looking = undefined;
    }
  }

  /**
   * One look at an entry an event named. Synchronous, as the intake's other looks at a file
   * of the folder: one call on a local disk, and it never waits behind the thread pool's other
   * work (10,000 promises of lstat queued there after a drop).
   */
  private lookAt(path: string): void {
    let stats: Stats | undefined;
    try {
      stats = lstatSync(path);
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.hooks.onError(`${path} could not be looked at (${code}); it is looked at again by the next scan.`);
    }
    try {
      if (stats?.isDirectory()) {
        if (!this.watchers.has(path)) this.hooks.onDir(path);
        return;
      }
      // Gone, or no longer a folder (a link put in its place is never watched into).
      if (this.watchers.has(path)) this.removeDir(path);
      this.hooks.onEntry(path, stats);
    } catch (error) {
      this.hooks.onError(`${path}: ${(error as Error).message}; it is looked at again by the next scan.`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.pending.clear();
    await this.looking;
  }
}
