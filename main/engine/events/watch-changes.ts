/**
 * Where the engine's change events come from on each store: on SQLite, temporary triggers for
 * this connection's writes (change-triggers.ts) and a poll for other processes' (other-writers.ts);
 * on PostgreSQL, the change log every node's writes go to (change-log.ts).
 */
import type { Db } from '../database.js';
import { postgresOf, sqliteOf } from '../store/dialect.js';
import { readChangeLog } from './change-log.js';
import { announceChanges } from './change-triggers.js';
import type { EngineEvents } from './engine-events.js';
import { watchOtherWriters } from './other-writers.js';

/** Announces the database's changes on `events` (polling every `everyMs` while someone listens); returns the function that stops the poll. */
export function watchChanges(db: Db, events: EngineEvents, everyMs?: number): () => void {
  const sqlite = sqliteOf(db);
  if (!sqlite) return readChangeLog(postgresOf(db)!, events, everyMs);
  announceChanges(sqlite, events);
  return watchOtherWriters(sqlite, events, everyMs);
}
