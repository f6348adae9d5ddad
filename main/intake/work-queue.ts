/** The intake's work queues: first in, first out, with at most `limit` rows at work. */
import type { FileRow } from './journal.js';

/** Rows waiting for one kind of work, first in first out, with at most `limit` at work. */
export class WorkQueue {
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
