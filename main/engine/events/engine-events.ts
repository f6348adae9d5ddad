/**
 * What the engine says changed, for whoever shows it (the app's views, a long-running command):
 * typed events delivered after the write that made them is committed. Listeners never learn of
 * changes by reading the engine's tables.
 */
import type { JobStatus } from '../../../common/wire-types.js';
import type { Db } from '../database.js';
import { cached } from '../list-query.js';

/** A change in one Partner's data. */
export type EngineEvent =
  /** A job was created (`from` null) or moved from one status to another. */
  | { type: 'job-state'; partnerId: string; jobUid: string; engine: string; from: JobStatus | null; to: JobStatus }
  /** The Partner's counts of jobs (one was created or removed) or of credentials (and their tags, states) may have changed. */
  | { type: 'counts'; partnerId: string; of: 'jobs' | 'credentials' }
  /** A certificate's revocation was mined. */
  | { type: 'certificate-revoked'; partnerId: string; certificateUid: string; engine: string }
  /** Credentials were created, retagged or scheduled (`count` of them). */
  | { type: 'credentials'; partnerId: string; change: 'created' | 'tagged' | 'scheduled'; count: number };

export type EngineEventListener = (event: EngineEvent) => void;

interface Queued {
  event: EngineEvent;
  /** Queued inside an explicit transaction, which may still roll back. */
  inTransaction: boolean;
}

/**
 * The engine's event channel over one database connection. Writers queue events as they write;
 * the queue is delivered once the connection is out of its transaction (better-sqlite3 has no
 * commit hook, and a listener may read the database, which it cannot do mid-statement).
 */
export class EngineEvents {
  readonly #listeners = new Set<EngineEventListener>();
  readonly #taps = new Set<EngineEventListener>();
  readonly #onSubscribers = new Set<(count: number) => void>();
  #queue: Queued[] = [];
  #flushing = false;

  constructor(private readonly db: Db) {}

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: EngineEventListener): () => void {
    this.#listeners.add(listener);
    this.#announce();
    return () => {
      if (this.#listeners.delete(listener)) this.#announce();
    };
  }

  /** Sees every event like a listener but keeps no watch running (the engine's own bookkeeping). */
  tap(listener: EngineEventListener): () => void {
    this.#taps.add(listener);
    return () => this.#taps.delete(listener);
  }

  get size(): number {
    return this.#listeners.size;
  }

  /** Hears the number of listeners whenever it changes (the watch for other processes runs only while someone listens). */
  onListeners(hook: (count: number) => void): () => void {
    this.#onSubscribers.add(hook);
    return () => this.#onSubscribers.delete(hook);
  }

  /** Queues an event of a write on this connection; it is delivered after the write is committed. */
  emit(event: EngineEvent): void {
    // Nobody listens: nothing to keep (a watch that starts later reads what is there).
    if (this.#listeners.size === 0) return;
    this.#queue.push({ event, inTransaction: this.db.open && this.db.inTransaction });
    if (this.#flushing) return;
    this.#flushing = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    if (this.db.open && this.db.inTransaction) {
      setImmediate(() => this.#flush());
      return;
    }
    this.#flushing = false;
    const queued = this.#queue;
    this.#queue = [];
    for (const event of this.#committed(queued)) this.deliver(event);
  }

  /** Sends an event to every listener now; a failing listener never stops the others. */
  deliver(event: EngineEvent): void {
    for (const listener of [...this.#taps, ...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error('engine event listener failed:', error);
      }
    }
  }

  /**
   * The queued events whose writes were committed. A job's moves queued inside a transaction
   * stand when the job is now where its last move took it; otherwise that transaction rolled
   * back and they are dropped.
   */
  #committed(queued: Queued[]): EngineEvent[] {
    if (!this.db.open) return [];
    const lastMove = new Map<string, JobStatus>();
    for (const { event } of queued) if (event.type === 'job-state') lastMove.set(event.jobUid, event.to);
    const undone = new Set<string>();
    for (const [uid, to] of lastMove) {
      const now = cached(this.db, 'SELECT status FROM jobs WHERE uid = ?').pluck().get(uid) as JobStatus | undefined;
      if (now !== to) undone.add(uid);
    }
    return queued.filter((q) => !(q.inTransaction && q.event.type === 'job-state' && undone.has(q.event.jobUid))).map((q) => q.event);
  }

  #announce(): void {
    for (const hook of this.#onSubscribers) hook(this.#listeners.size);
  }
}

const channels = new WeakMap<Db, EngineEvents>();

/** The event channel of a connection (made on first use). */
export function engineEventsOf(db: Db): EngineEvents {
  let channel = channels.get(db);
  if (!channel) channels.set(db, (channel = new EngineEvents(db)));
  return channel;
}

/** Queues an event of a write on this connection (see EngineEvents.emit). */
export function emitEngineEvent(db: Db, event: EngineEvent): void {
  engineEventsOf(db).emit(event);
}

/** Hears when one of a Partner's jobs ends (finished or failed), as the intake needs to hand out proofs; returns the function that stops. */
export function onJobEnds(events: EngineEvents, partnerId: string, listener: () => void): () => void {
  return events.subscribe((event) => {
    if (event.type === 'job-state' && event.partnerId === partnerId && (event.to === 'finished' || event.to === 'failed')) listener();
  });
}
