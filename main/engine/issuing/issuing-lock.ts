/**
 * The data directory's issuing lock (`DATA/issuing.lock`, the holder's pid): an advisory lock so
 * that two processes on one data directory never both issue. The process running the scheduler
 * (the app, `serve`, `watch`, `issue`) holds it; another process sharing the directory (a second
 * `serve`, a one-shot command) leaves signing and sending to the holder while it lives.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../chain/index.js';

/** The lock files this process holds: a second engine in the same process must not take one. */
const heldLocks = new Set<string>();

export class IssuingLock {
  readonly file: string;
  private held = false;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'issuing.lock');
  }

  /** Takes the lock; false when a live process (or another engine of this one) holds it. */
  acquire(): boolean {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.file, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        this.held = true;
        heldLocks.add(this.file);
        return true;
      } catch {
        const holder = this.holder();
        const heldByUs = holder === process.pid && heldLocks.has(this.file);
        if (heldByUs || (holder !== undefined && holder !== process.pid && isProcessAlive(holder))) return false;
        rmSync(this.file, { force: true }); // left by a process that is gone
      }
    }
    return false;
  }

  /** The pid of another live process holding the lock, or undefined (free, ours, or left by a dead process). */
  heldElsewhere(): number | undefined {
    if (this.held) return undefined;
    const holder = this.holder();
    return holder !== undefined && holder !== process.pid && isProcessAlive(holder) ? holder : undefined;
  }

  /** Whether this holds the lock. */
  get heldHere(): boolean {
    return this.held;
  }

  /** Releases the lock if this holds it. */
  release(): void {
    if (!this.held) return;
    rmSync(this.file, { force: true });
    heldLocks.delete(this.file);
    this.held = false;
  }

  private holder(): number | undefined {
    try {
      const pid = Number(readFileSync(this.file, { encoding: 'utf8', flag: 'r' }).trim());
      return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }
}
