/**
 * Reading ahead while a file settles: a small file waiting out its stable time (or, settled,
 * waiting for its turn to be taken) is read and hashed then (the CPU is idle while the files of a
 * drop settle), so that once it is taken only its upload, credential and scheduling remain.
 * What was read is used only if the file is exactly as it was read at the moment it is
 * described (exactSignature: same file, one name, same size, modification and change times to
 * the nanosecond); anything else throws the read away, and the file is described as if there
 * had been none (describe.ts). The proof stage hashes the file again before its credential is
 * issued, whatever happened here.
 *
 * Bounded: only files up to READ_AHEAD_MAX are read ahead, their bytes are held in the
 * uploader's ByteGate (taken only when there is room, never waited for), and each file is read
 * ahead at most once — a file still being written costs one read that is thrown away, never more.
 */
import { closeSync, fstatSync, lstatSync, type BigIntStats } from 'node:fs';
import type { FolderIntakeCore } from './folder-intake-core.js';
import { exactSignature, mtimeMsOf, openContained, readSized } from './entries.js';
import type { FileRow } from './journal.js';
import { sha256Hex } from '../files/hash-file.js';

/** Files larger than this are not read ahead (they are read, or streamed, once stable). */
export const READ_AHEAD_MAX = 1024 * 1024;

/**
 * How long after a file's last change it may be read ahead. A change made right after the read
 * could get the same timestamp as the one before it (file systems keep time in ticks of a few
 * ms) and go unseen by the signature; a read begun a tick or more after the change time cannot
 * be followed by a change with that time. A time of whole seconds says the file system keeps
 * seconds (FAT, HFS+): such a file is not read ahead before it is stable (2 s).
 */
export const SETTLED_TICK_MS = 50;
const COARSE_TICK_MS = 2_000;

/** Files read ahead per turn of the event loop (watcher events and settle rounds go in between). */
const PER_TURN = 64;
/**
 * Bytes read ahead per turn at most: the reads are synchronous (small files, from the page cache
 * mostly), so a turn of large files must not hold the main thread (the app's IPC) for long.
 */
const BYTES_PER_TURN = 4 * 1024 * 1024;

/** A file read ahead: its hash and bytes, and its exact state when read. */
export interface ReadAhead {
  sha256: string;
  bytes: Buffer;
  signature: string;
  /** Bytes taken from the gate for it (released by whoever takes it, or by forget). */
  held: number;
}

export class ReadAheadStage {
  private readonly done = new Map<number, ReadAhead>();
  /** Rows read ahead once already (or being looked at): never read ahead again. */
  private readonly tried = new Set<number>();
  private pending: number[] = [];
  private deferred: number[] = [];
  private turn: NodeJS.Immediate | undefined;
  private later: NodeJS.Timeout | undefined;
  /** Bytes held in the gate by reads ahead not yet taken. */
  private heldBytes = 0;
  /** Reads ahead made, used, and thrown away (the file changed, or the room was needed) — for tests and figures. */
  readonly counts = { read: 0, used: 0, discarded: 0, late: 0, deferred: 0 };

  constructor(private readonly core: FolderIntakeCore) {}

  /** Whether reading ahead is on: not for polled folders (network shares, whose times come from another clock). */
  get enabled(): boolean {
    return this.core.options.usePolling !== true && this.core.options.readAhead !== false;
  }

  /** A small file began to settle: read it ahead soon, once. */
  consider(row: FileRow): void {
    if (!this.enabled || row.size <= 0 || row.size > READ_AHEAD_MAX || this.tried.has(row.id)) return;
    this.pending.push(row.id);
    this.schedule();
  }

  /** Goes on reading ahead (after a settle round: room in the gate may have come free). */
  resume(): void {
    if (this.pending.length > 0) this.schedule();
  }

  private schedule(): void {
    if (this.turn || !this.core.running) return;
    this.turn = setImmediate(() => {
      this.turn = undefined;
      if (!this.core.running) return;
      if (this.readPending(PER_TURN, BYTES_PER_TURN)) this.schedule();
    });
    this.turn.unref();
  }

  /**
   * Reads ahead up to `most` of the files waiting, or until `mostBytes` are read. Returns whether
   * more wait and can be read now (false when none are left, or the gate has no room: the next
   * settle round resumes).
   */
  readPending(most = Infinity, mostBytes = Infinity): boolean {
    let n = 0;
    let bytes = 0;
    while (this.pending.length > 0 && n < most && bytes < mostBytes) {
      if (this.core.stopping) return false;
      const id = this.pending[0]!;
      const row = this.core.rows.get(id);
      // Settling, or settled and still waiting for its turn to be taken (a drop's later files
      // wait for the batches before them): read ahead all the same, while the main thread waits.
      const waiting = row !== undefined && row.state === 'seen' && (this.core.settler.isSettling(id) || this.core.waitsToBeTaken(id));
      if (!waiting || this.tried.has(id)) {
        if (row?.state === 'seen' && !this.tried.has(id)) this.counts.late++; // taken before its turn came
        this.pending.shift();
        continue;
      }
      const size = row.size;
      if (!this.core.uploader.held.tryAcquire(size)) return false;
      this.pending.shift();
      n++;
      bytes += size;
      const read = this.readOne(row);
      if (read === 'later') {
        this.core.uploader.held.release(size);
        this.defer(id);
      } else if (read === undefined) this.core.uploader.held.release(size);
      else {
        this.tried.add(id);
        this.done.set(id, { ...read, held: size });
        this.heldBytes += size;
      }
    }
    return this.pending.length > 0;
  }

  /** A file changed too recently to be read safely: looked at again a tick later. */
  private defer(id: number): void {
    this.counts.deferred++;
    this.deferred.push(id);
    this.later ??= setTimeout(() => {
      this.later = undefined;
      this.pending.push(...this.deferred);
      this.deferred = [];
      this.schedule();
    }, SETTLED_TICK_MS).unref();
  }

  /**
   * Reads one file the safe way (openContained: lstat, O_NOFOLLOW, one name, real path inside
   * the folder), if its last change is a tick old; its exact state before and after the read
   * must agree. Anything unusual (a link, an error, a change) leaves it to be described later.
   */
  private readOne(row: FileRow): { sha256: string; bytes: Buffer; signature: string } | 'later' | undefined {
    const path = this.core.pathOf(row);
    let before: BigIntStats;
    try {
      before = lstatSync(path, { bigint: true });
    } catch {
      return undefined;
    }
    if (!before.isFile() || before.nlink !== 1n || Number(before.size) !== row.size) return undefined;
    const tick = before.ctimeNs % 1_000_000_000n === 0n ? COARSE_TICK_MS : SETTLED_TICK_MS;
    if (this.core.clock.now() - Number(before.ctimeNs / 1_000_000n) < tick) return 'later';
    let fd: number;
    try {
      ({ fd } = openContained(path, this.core.folderOf(row).realRoot, { kind: 'file', size: row.size, mtimeMs: mtimeMsOf(before), ino: Number(before.ino) }));
    } catch {
      return undefined;
    }
    try {
      this.tried.add(row.id);
      this.counts.read++;
      const bytes = readSized(fd, row.size);
      const after = fstatSync(fd, { bigint: true });
      const signature = exactSignature(after);
      if (bytes.length !== row.size || signature !== exactSignature(before)) {
        this.counts.discarded++;
        return undefined;
      }
      return { sha256: sha256Hex(bytes), bytes, signature };
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The read ahead of a row, taken (its gate bytes go with it, for the caller to release), if
   * there is one; whether it still holds is checked by `stillExact`.
   */
  take(id: number): ReadAhead | undefined {
    const read = this.done.get(id);
    if (!read) return undefined;
    this.done.delete(id);
    this.heldBytes -= read.held;
    return read;
  }

  /**
   * A file not read ahead needs `size` bytes of the gate: reads ahead of files not taken yet give
   * their room back (the newest first) until, once the work under way has given back its own,
   * the file fits. Without this, files waiting for room could fill every place of the take queue
   * while the room they wait for is held by reads ahead of files queued behind them.
   */
  makeRoom(size: number): void {
    const limit = this.core.uploader.held.limit;
    if (this.heldBytes + size <= limit) return;
    for (const id of [...this.done.keys()].reverse()) {
      this.forget(id);
      if (this.heldBytes + size <= limit) return;
    }
  }

  /**
   * Whether the file at `path` is exactly as it was read ahead, by a look that does not follow a
   * link; with the look's size and modification time (as the settle rounds see them).
   */
  stillExact(path: string, read: ReadAhead): { size: number; mtimeMs: number } | undefined {
    let now: BigIntStats;
    try {
      now = lstatSync(path, { bigint: true });
    } catch {
      return undefined;
    }
    if (!now.isFile() || now.nlink !== 1n || exactSignature(now) !== read.signature) return undefined;
    return { size: Number(now.size), mtimeMs: mtimeMsOf(now) };
  }

  /** The file changed, or left: its read ahead (if any) is thrown away and its bytes given back. */
  forget(id: number): void {
    const read = this.done.get(id);
    if (!read) return;
    this.done.delete(id);
    this.heldBytes -= read.held;
    this.counts.discarded++;
    this.core.uploader.held.release(read.held);
  }

  /** The row is closed for good: nothing of it is kept. */
  drop(id: number): void {
    this.forget(id);
    this.tried.delete(id);
  }

  /** Stops reading ahead and gives back every byte held. */
  stop(): void {
    if (this.turn) clearImmediate(this.turn);
    if (this.later) clearTimeout(this.later);
    this.turn = this.later = undefined;
    this.pending = [];
    this.deferred = [];
    for (const id of [...this.done.keys()]) this.forget(id);
  }
}
