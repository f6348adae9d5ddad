/**
 * The word-search index of credentials on SQLite (credentials_fts, migration 3), kept off the
 * path that creates them: a create only records its credentials as waiting
 * (credentials_unindexed, migration 16), and they go into the index before any search reads it
 * (indexPendingCredentials) or, in a long-running process, in the background while no job
 * issues (background-indexer.ts). On PostgreSQL the words are a generated column: nothing waits.
 */
import { inWriteLock, type Db } from './database.js';
import { cached } from './list-query.js';
import { jsonIdList, sqliteOf } from './store/dialect.js';

/**
 * Most credentials indexed per write transaction: ~17 µs each of metadata's words, so a chunk
 * holds the write lock (and the thread) for a tenth of a second at most.
 */
export const INDEX_CHUNK = 5_000;

/**
 * Records new credentials (row ids) as waiting for the search index, inside the transaction
 * that inserts them: one statement for the whole call, a few per cent of what indexing their
 * words costs. A crash after the commit leaves them waiting, never lost to the index.
 */
export function markUnindexed(db: Db, ids: readonly number[]): void {
  if (ids.length === 0 || !sqliteOf(db)) return;
  cached(db, `INSERT INTO credentials_unindexed (id) ${jsonIdList(db)}`).run(JSON.stringify(ids));
}

/** Whether any credential waits for the search index: one lookup of the waiting table's first row. */
export function hasUnindexed(db: Db): boolean {
  return sqliteOf(db) !== undefined && cached(db, 'SELECT 1 FROM credentials_unindexed LIMIT 1').pluck().get() !== undefined;
}

/**
 * Indexes up to `limit` waiting credentials, lowest ids first, in one write transaction
 * (BEGIN IMMEDIATE; a savepoint inside the caller's transaction) and returns how many. The
 * chunk is chosen and taken off the waiting table under the write lock, so two processes on
 * one data directory never index a credential twice; a crash mid-chunk rolls all of it back.
 * One statement writes the chunk's words (the title and every metadata value), as a
 * trigger per row would cost a statement's overhead per credential.
 */
export function indexUnindexedChunk(db: Db, limit: number = INDEX_CHUNK): number {
  if (!sqliteOf(db)) return 0;
  return inWriteLock(db, () => {
    const last = cached(db, 'SELECT max(id) FROM (SELECT id FROM credentials_unindexed ORDER BY id LIMIT ?)').pluck().get(limit) as number | null;
    if (last === null) return 0;
    cached(
      db,
      `INSERT INTO credentials_fts (rowid, partner, title, meta)
       SELECT c.id, 'p' || hex(c.partner_id), c.title, (SELECT group_concat(value, ' ') FROM json_tree(c.metadata) WHERE type NOT IN ('object', 'array'))
       FROM credentials_unindexed u JOIN credentials c ON c.id = u.id WHERE u.id <= ? ORDER BY u.id`,
    ).run(last);
    return cached(db, 'DELETE FROM credentials_unindexed WHERE id <= ?').run(last).changes;
  });
}

/**
 * Indexes every credential waiting for the search index, a chunk per write transaction, so a
 * search that follows finds every credential whose create has returned. When none waits it
 * costs one indexed lookup and takes no lock. Returns how many were indexed.
 */
export function indexPendingCredentials(db: Db, limit: number = INDEX_CHUNK): number {
  if (!hasUnindexed(db)) return 0;
  let total = 0;
  for (;;) {
    const indexed = indexUnindexedChunk(db, limit);
    total += indexed;
    if (indexed < limit) return total;
  }
}
