import type { Db } from './database.js';
import { cached } from './list-query.js';
import { jsonIdList, sqliteOf } from './store/dialect.js';

/**
 * Adds new credentials (row ids) to the search index, inside the transaction that inserts them:
 * a credential is found by a word search as soon as its create commits. On SQLite one statement
 * for the whole call writes credentials_fts (migration 3's columns, the words of the title and of
 * every metadata value); a trigger per row costs a statement's overhead per credential, about a
 * third of the index's work. On PostgreSQL the words are a generated column: nothing to do.
 */
export function indexNewCredentials(db: Db, ids: readonly number[]): void {
  if (ids.length === 0 || !sqliteOf(db)) return;
  cached(
    db,
    `INSERT INTO credentials_fts (rowid, partner, title, meta)
     SELECT id, 'p' || hex(partner_id), title, (SELECT group_concat(value, ' ') FROM json_tree(credentials.metadata) WHERE type NOT IN ('object', 'array'))
     FROM credentials WHERE id IN (${jsonIdList(db)})`,
  ).run(JSON.stringify(ids));
}
