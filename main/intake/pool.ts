/** Bounded concurrency for file intake: at most `limit` items at work, results in input order. */

/**
 * Maps `fn` over `items` (any iterable, read lazily) with at most `limit` calls under way and at
 * most `limit` results waiting to be taken, yielding results in input order. Memory stays bounded
 * whatever the number of items: the list is streamed, never held.
 *
 * @example for await (const read of mapOrdered(paths, 16, readForIntake)) send(read)
 */
export async function* mapOrdered<T, R>(items: Iterable<T> | AsyncIterable<T>, limit: number, fn: (item: T, index: number) => Promise<R>): AsyncGenerator<R> {
  const iterator = Symbol.asyncIterator in items ? (items as AsyncIterable<T>)[Symbol.asyncIterator]() : toAsync((items as Iterable<T>)[Symbol.iterator]());
  const window: Promise<{ value: R } | { error: unknown }>[] = [];
  let index = 0;
  let exhausted = false;
  const fill = async () => {
    while (!exhausted && window.length < limit) {
      const next = await iterator.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      const i = index++;
      // Settled into a value or an error, so a rejection waits its turn instead of going unhandled.
      window.push(fn(next.value, i).then((value) => ({ value }), (error: unknown) => ({ error })));
    }
  };
  try {
    await fill();
    while (window.length > 0) {
      const settled = await window.shift()!;
      if ('error' in settled) throw settled.error;
      await fill();
      yield settled.value;
    }
  } finally {
    // Stopped early (an error, or the consumer broke off): let what is under way end quietly.
    await Promise.allSettled(window);
    if (!exhausted) await iterator.return?.();
  }
}

function toAsync<T>(iterator: Iterator<T>): AsyncIterator<T> {
  return { next: async () => iterator.next(), return: async () => iterator.return?.() ?? { done: true, value: undefined } };
}

/** Splits a stream of items into arrays of at most `size`. */
export async function* chunks<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let chunk: T[] = [];
  for await (const item of items) {
    chunk.push(item);
    if (chunk.length >= size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * A budget of bytes held in memory that waits for room: `acquire` resolves once `size` more
 * bytes fit (first come, first served), `release` gives them back. A size larger than the
 * whole budget gets in alone, when nothing else is held, so no request waits forever.
 */
export class ByteGate {
  private held = 0;
  private readonly waiting: { size: number; enter: () => void }[] = [];

  constructor(readonly limit: number) {}

  /** Bytes held now. */
  get used(): number {
    return this.held;
  }

  acquire(size: number): Promise<void> {
    if (this.waiting.length === 0 && this.fits(size)) {
      this.held += size;
      return Promise.resolve();
    }
    return new Promise((enter) => this.waiting.push({ size, enter }));
  }

  /** Takes `size` bytes now if they fit and nothing waits ahead; false leaves the budget as it was. */
  tryAcquire(size: number): boolean {
    if (this.waiting.length > 0 || this.held + size > this.limit) return false;
    this.held += size;
    return true;
  }

  release(size: number): void {
    this.held = Math.max(0, this.held - size);
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.size)) {
      const next = this.waiting.shift()!;
      this.held += next.size;
      next.enter();
    }
  }

  private fits(size: number): boolean {
    return this.held === 0 || this.held + size <= this.limit;
  }
}
