/**
 * Indexes the credentials waiting for the search index (search-index.ts) in the background of a
 * long-running process (the app, `serve`, `watch`), so the first search after a large create
 * finds the index done. It runs a chunk per write transaction and yields to the event loop between
 * chunks; it never runs while a job issues (a job `started` or `unconfirmed`, as the engine's own
 * events tell), and waits a moment after credentials are created, which are often scheduled and
 * issued right after. A search never waits for it: it indexes what still waits itself.
 */
import type { Db } from './database.js';
import type { EngineEvents } from './events/engine-events.js';
import { hasUnindexed, indexUnindexedChunk, INDEX_CHUNK } from './search-index.js';

export interface BackgroundIndexerOptions {
  /** Most credentials per write transaction. */
  chunk?: number;
  /** How long after credentials are created, or a job stops issuing, the indexer starts. */
  settleMs?: number;
}

/**
 * How long after the last create (or a job's end) the indexer starts: credentials are often
 * scheduled and issued right after they are created, and the job should not wait for a chunk.
 */
const SETTLE_MS = 500;

/** Why a run ended: nothing waits any more, a job is issuing, the indexer was stopped, or a chunk failed (it is tried again at the next wake). */
export type IndexerPause = 'done' | 'issuing' | 'stopped' | 'failed';

export class BackgroundIndexer {
  readonly #chunk: number;
  readonly #settleMs: number;
  /** Jobs this engine heard move into `started` or `unconfirmed`, and not out of them since. */
  readonly #issuing = new Set<string>();
  readonly #chunkListeners = new Set<(indexed: number) => void>();
  readonly #pauseListeners = new Set<(why: IndexerPause) => void>();
  #timer: NodeJS.Timeout | undefined;
  #next: NodeJS.Immediate | undefined;
  #stopped = false;
  readonly #unsubscribe: () => void;

  constructor(
    private readonly db: Db,
    events: EngineEvents,
    options: BackgroundIndexerOptions = {},
  ) {
    this.#chunk = options.chunk ?? INDEX_CHUNK;
    this.#settleMs = options.settleMs ?? SETTLE_MS;
    this.#unsubscribe = events.subscribe((event) => {
      if (event.type === 'job-state') {
        if (event.to === 'started' || event.to === 'unconfirmed') this.#issuing.add(event.jobUid);
        else if (this.#issuing.delete(event.jobUid) && this.#issuing.size === 0) this.#wake();
      } else if (event.type === 'credentials' && event.change === 'created') {
        this.#wake();
      }
    });
    // A backlog left by an earlier process (a one-shot command, a crash) is taken up at once.
    if (hasUnindexed(db)) this.#wake();
  }

  /** Whether a job is issuing now, so the indexer waits. */
  get paused(): boolean {
    return this.#issuing.size > 0;
  }

  /** Hears each chunk indexed (how many credentials); returns the function that stops. */
  onChunk(listener: (indexed: number) => void): () => void {
    this.#chunkListeners.add(listener);
    return () => this.#chunkListeners.delete(listener);
  }

  /** Hears each run's end and why; returns the function that stops. */
  onPause(listener: (why: IndexerPause) => void): () => void {
    this.#pauseListeners.add(listener);
    return () => this.#pauseListeners.delete(listener);
  }

  /** Stops for good: no chunk starts after this returns (a chunk is one synchronous transaction). */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#unsubscribe();
    clearTimeout(this.#timer);
    if (this.#next) clearImmediate(this.#next);
    this.#timer = this.#next = undefined;
    this.#pause('stopped');
  }

  /** (Re)starts the settle wait; a run in progress goes on. */
  #wake(): void {
    if (this.#stopped || this.#next) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#step();
    }, this.#settleMs);
    this.#timer.unref();
  }

  /** One chunk, then the next after the event loop has had its turn. */
  #step(): void {
    this.#next = undefined;
    if (this.#stopped) return;
    if (this.paused) return this.#pause('issuing');
    let indexed: number;
    try {
      indexed = indexUnindexedChunk(this.db, this.#chunk);
    } catch {
      // The database busy past its timeout, full or closing: the next create, job's end or search takes it up.
      return this.#pause('failed');
    }
    if (indexed > 0) for (const listener of this.#chunkListeners) listener(indexed);
    if (indexed < this.#chunk) return this.#pause('done');
    this.#next = setImmediate(() => this.#step());
    this.#next.unref();
  }

  #pause(why: IndexerPause): void {
    for (const listener of [...this.#pauseListeners]) listener(why);
  }
}
