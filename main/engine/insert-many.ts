import type { Db } from './database.js';
import { cached } from './list-query.js';

/** Rows per multi-row INSERT, largest first (a few statement texts, each prepared once). */
const CHUNKS = [50, 10, 1];

/**
 * Inserts rows many per statement (`into`: the table and its columns; `row`: one row's
 * placeholders). Far cheaper on SQLite than a statement per row: the work each statement costs
 * whatever its rows (its start, binding, its end) is
 * paid once per chunk rather than once per row.
 */
export function insertMany(db: Db, into: string, row: string, rows: readonly unknown[][]): void {
  let at = 0;
  for (const size of CHUNKS) {
    if (rows.length - at < size) continue;
    const statement = cached(db, `INSERT INTO ${into} VALUES ${Array<string>(size).fill(row).join(', ')}`);
    for (; rows.length - at >= size; at += size) statement.run(...rows.slice(at, at + size).flat());
  }
}
