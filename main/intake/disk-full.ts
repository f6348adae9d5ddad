/**
 * A full disk is "try again later" (docs/intake.md): the files wait where they are and resume
 * when space comes back. This tells a full disk from other errors, and tells the user once per
 * disk, with the path that is full and how much is needed, not once per file and try.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { isDiskFull } from '../../common/disk-full.js';
import { formatBytes, freeBytes } from '../durable/free-space.js';

/** How often at most the same full disk is reported again while files wait for it. */
export const DISK_FULL_REPORT_MS = 60_000;
/** How long a file waits before it tries again on a full disk (not counted as a failed try). */
export const DISK_FULL_RETRY_MS = 2_000;

export { isDiskFull };

/** Below this much free space, SQLite's "disk I/O error" on opening (it could not make its WAL files) is a full disk. */
const LOW_SPACE = 1024 * 1024;

/**
 * Whether an error met while opening or writing in `dir` is a full disk: isDiskFull, or SQLite's
 * I/O error (SQLITE_IOERR_*, what opening a database in WAL mode gives on a full disk) when
 * the disk holding `dir` has almost no space left.
 */
export function isDiskFullAt(error: unknown, dir: string): boolean {
  if (isDiskFull(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_IOERR')) return false;
  const free = freeBytes(dir);
  return free !== undefined && free < LOW_SPACE;
}

/** Which disk a path is on (its device), so that a disk is told once whichever of its paths filled. */
function diskOf(path: string): string {
  for (let p = path; ; p = dirname(p)) {
    try {
      return `dev:${statSync(p).dev}`;
    } catch {
      if (dirname(p) === p) return path;
    }
  }
}

/** Which path is full: the one an fs error names (its folder), else the data directory. */
export function fullPath(error: unknown, dataDir: string): string {
  const path = (error as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? dirname(path) : dataDir;
}

/**
 * Reports full disks: one message per disk when it fills (again at most every
 * DISK_FULL_REPORT_MS while it stays full), and one when it has room again (check(), called
 * on every settling round, looks at the free space of the disks told full).
 */
export class DiskFullReporter {
  /** Disk → the path it was told by, when, and how much was needed. */
  private readonly full = new Map<string, { at: number; path: string; needed: number }>();

  constructor(private readonly tell: (message: string) => void) {}

  /** Work found `path` full; it needs about `needed` bytes. */
  report(path: string, needed: number, now = Date.now()): void {
    const disk = diskOf(path);
    const last = this.full.get(disk);
    if (last) {
      last.needed = Math.max(last.needed, needed);
      if (now - last.at < DISK_FULL_REPORT_MS) return;
      last.at = now;
    } else this.full.set(disk, { at: now, path, needed });
    const free = freeBytes(path);
    this.tell(
      `The disk holding ${path} is full (${free === undefined ? 'free space unknown' : `${formatBytes(free)} free`}; about ${formatBytes(Math.max(needed, 1))} more is needed). ` +
        'Files wait where they are and go on by themselves once space is freed; nothing is moved to failed/ for it.',
    );
  }

  /**
   * Before a write to `path`: while its disk is known full and still short of what was needed,
   * fails at once (ENOSPC) instead of trying, so no temporary file comes and goes meanwhile.
   */
  assertRoom(path: string): void {
    if (this.full.size === 0) return;
    const entry = this.full.get(diskOf(path));
    if (!entry) return;
    const free = freeBytes(path);
    if (free !== undefined && free < entry.needed) throw Object.assign(new Error(`No space left on the disk holding ${path}`), { code: 'ENOSPC', path });
  }

  /** Tells the disks that have room again (as much as was needed, and a margin). */
  check(): void {
    for (const [disk, { path, needed }] of this.full) {
      const free = freeBytes(path);
      if (free === undefined || free < needed) continue;
      this.full.delete(disk);
      this.tell(`There is space on the disk holding ${path} again: the files that waited go on.`);
    }
  }

  /** Whether a disk is known to be full (work waiting for it). */
  get any(): boolean {
    return this.full.size > 0;
  }
}
