/** The ingester's small concurrency tools: a first-in-first-out work queue and a bounded map. */
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

/** Runs `fn` over items with at most `limit` at a time; results in order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
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
