/**
 * The few things the engine asks its database that SQLite and PostgreSQL answer differently,
 * each a function named for what it asks. Everything else is the common SQL of the Db seam.
 */
import Database from 'better-sqlite3';
import type { SqliteDb } from '../database.js';
import type { Db, Statement } from './db.js';
import { cached } from '../list-query.js';
import { MIGRATIONS, storedUid } from '../migrations.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';
import { PostgresDb } from './postgres-db.js';

/** The database as better-sqlite3's own Database, or undefined when it is not SQLite. */
export function sqliteOf(db: Db): SqliteDb | undefined {
  return db instanceof Database ? db : undefined;
}

/** The database as a PostgresDb, or undefined when it is not PostgreSQL. */
export function postgresOf(db: Db): PostgresDb | undefined {
  return db instanceof PostgresDb ? db : undefined;
}

/** The schema version the database's migrations have reached. */
export function schemaVersion(db: Db): number {
  const sqlite = sqliteOf(db);
  if (sqlite) return sqlite.pragma('user_version', { simple: true }) as number;
  return postgresOf(db)!.schemaVersion();
}

/**
 * A subquery of the row ids in a JSON array bound as its one parameter: how the engine passes
 * a list of ids to one statement. `id IN (${jsonIdList(db)})`.
 */
export function jsonIdList(db: Db): string {
  return sqliteOf(db) ? 'SELECT value FROM json_each(?)' : 'SELECT CAST(value AS bigint) FROM jsonb_array_elements_text(CAST(? AS jsonb))';
}

/**
 * The rows of `select` (a SELECT up to its WHERE) whose `idColumn` is one of `ids`, in the order
 * of `ids`; an id without a row is left out.
 */
export function rowsInOrder<Row extends { id: number }>(db: Db, select: string, idColumn: string, ids: readonly number[]): Row[] {
  const rows = cached(db, `${select} WHERE ${idColumn} IN (${jsonIdList(db)})`).all(JSON.stringify(ids)) as Row[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The elements of a JSON array bound as its one parameter, as a table `alias` with columns
 * `value` (the element, JSON: `alias.value->>0` reads an array element's first item) and `key`
 * (its position, for ORDER BY).
 */
export function jsonEntries(db: Db, alias: string): string {
  return sqliteOf(db) ? `json_each(?) AS ${alias}` : `jsonb_array_elements(CAST(? AS jsonb)) WITH ORDINALITY AS ${alias}(value, key)`;
}

/**
 * The elements of a JSON array of strings, as a table `alias` with a text column `value` and
 * `key` (its position, for ORDER BY): `json` is `?` (a bound JSON text) or a column holding one
 * (a row's tags).
 */
export function jsonTexts(db: Db, json: string, alias: string): string {
  return sqliteOf(db) ? `json_each(${json}) AS ${alias}` : `jsonb_array_elements_text(CAST(${json} AS jsonb)) WITH ORDINALITY AS ${alias}(value, key)`;
}

/** The number of elements of the JSON array `json` (a column or `?`). */
export function jsonArrayLength(db: Db, json: string): string {
  return sqliteOf(db) ? `json_array_length(${json})` : `jsonb_array_length(CAST(${json} AS jsonb))`;
}

/** The JSON array text `array` with the string `value` appended (both SQL expressions). */
export function jsonAppend(db: Db, array: string, value: string): string {
  return sqliteOf(db) ? `json_insert(${array}, '$[#]', ${value})` : `CAST(CAST(${array} AS jsonb) || jsonb_build_array(CAST(${value} AS text)) AS text)`;
}

/**
 * The smallest of the SQL expressions `values` (SQLite's scalar min, PostgreSQL's least). Give
 * it no NULL: SQLite answers NULL for one, PostgreSQL leaves it out.
 */
export function leastOf(db: Db, ...values: string[]): string {
  return `${sqliteOf(db) ? 'min' : 'least'}(${values.join(', ')})`;
}

/** The largest of the SQL expressions `values` (SQLite's scalar max, PostgreSQL's greatest); no NULLs, as leastOf. */
export function greatestOf(db: Db, ...values: string[]): string {
  return `${sqliteOf(db) ? 'max' : 'greatest'}(${values.join(', ')})`;
}

/**
 * The value at `keys` (object keys, outermost first) in the JSON text `json` (a column), or
 * NULL where there is none: text on PostgreSQL, the JSON value's own type on SQLite.
 */
export function jsonPathText(db: Db, json: string, keys: readonly string[]): string {
  return sqliteOf(db) ? `json_extract(${json}, '$.${keys.join('.')}')` : `CAST(${json} AS jsonb) #>> '{${keys.join(',')}}'`;
}

/**
 * A text expression that compares and sorts byte by byte, as SQLite's default (BINARY)
 * collation does, whatever the PostgreSQL database's locale: the same order on both stores.
 */
export function bytewise(db: Db, expression: string): string {
  return sqliteOf(db) ? expression : `${expression} COLLATE "C"`;
}

/**
 * A column as a value SQLite's planner will not look up by index (a unary plus), where another
 * index is the better way in; PostgreSQL's planner chooses by its statistics and needs no hint.
 */
export function unindexed(db: Db, column: string): string {
  return sqliteOf(db) ? `+${column}` : column;
}

/**
 * `count` new ids for rows of `table` inserted with their ids given, ascending; call it in the
 * write transaction that inserts them. SQLite: the ids it would choose itself (the largest + 1
 * onward, no AUTOINCREMENT); PostgreSQL: drawn from the identity column's sequence, which
 * later inserts without an id draw from too.
 */
export function newRowIds(db: Db, table: string, count: number): number[] {
  if (sqliteOf(db)) {
    const largest = cached(db, `SELECT coalesce(max(id), 0) FROM ${table}`).pluck().get() as number;
    return Array.from({ length: count }, (_, i) => largest + 1 + i);
  }
  const ids = cached(db, `SELECT nextval(pg_get_serial_sequence('${table}', 'id')) FROM generate_series(1, CAST(? AS integer))`).pluck().all(count) as number[];
  return ids.sort((a, b) => a - b);
}

/**
 * The join keyword that makes SQLite join in the order written, the left table the outer loop
 * (its CROSS JOIN); PostgreSQL, whose CROSS JOIN takes no ON, orders joins by its statistics.
 */
export function joinInOrder(db: Db): string {
  return sqliteOf(db) ? 'CROSS JOIN' : 'JOIN';
}

/**
 * The clause that keeps the rows a SELECT read from being changed by others until this
 * transaction ends: PostgreSQL's FOR SHARE. None on SQLite, where a transaction that has written
 * holds the database's one write lock, so nothing it read can change under it.
 */
export function forShare(db: Db): string {
  return sqliteOf(db) ? '' : ' FOR SHARE';
}

/** The schema version this Proofdesk's migrations reach for the database's store. */
export function knownSchemaVersion(db: Db): number {
  return sqliteOf(db) ? MIGRATIONS.length : POSTGRES_MIGRATIONS.length;
}

/**
 * A mark that moves whenever another connection commits a write: SQLite's `data_version`; on
 * PostgreSQL the cluster's current snapshot as text (its xmin, xmax and the transactions in
 * progress), which moves with every writing transaction, this connection's too (a harmless
 * extra look), when it starts writing and again when it ends: the next transaction id alone
 * would miss a commit of a transaction already under way at the last look.
 */
export function othersCommitMark(db: Db): number | string {
  const sqlite = sqliteOf(db);
  if (sqlite) return sqlite.pragma('data_version', { simple: true }) as number;
  return cached(db, 'SELECT CAST(pg_current_snapshot() AS text)').pluck().get() as string;
}

/** Marks handed out inside PostgreSQL transactions, each one new. */
let uncachedMarks = 0;

/**
 * A mark that changes whenever anything is written, by this connection or another: what a
 * cached count is checked against. SQLite: `data_version` with `total_changes()`; PostgreSQL:
 * the next transaction id, read outside of this connection's own open transaction.
 */
export function writeMark(db: Db): string {
  const sqlite = sqliteOf(db);
  if (sqlite) return `${sqlite.pragma('data_version', { simple: true }) as number}:${cached(sqlite, 'SELECT total_changes()').pluck().get() as number}`;
  // Inside a transaction this connection's own uncommitted writes do not move the mark: no caching then.
  if (db.inTransaction) return `uncached:${++uncachedMarks}`;
  return String(othersCommitMark(db));
}

/**
 * Values as one PostgreSQL array parameter (`CAST(? AS text[])`, `CAST(? AS bigint[])`) in the
 * text form libpq sends: each string quoted with `"` and `\` escaped, null as NULL.
 */
export function arrayParameter(values: readonly (string | number | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;
}

/**
 * "`expression` is one of `values`" as SQL and its parameters: `IN (?, ?, …)` on SQLite; on
 * PostgreSQL `= ANY(…)` with the values as one array parameter of `type`, so that lists of every
 * length share one statement (an IN list's text, prepared and kept by the connection, is new for
 * each length). Give it at least one value.
 */
export function isOneOf(db: Db, expression: string, values: readonly (string | number)[], type: 'text' | 'bigint'): { sql: string; params: (string | number)[] } {
  if (sqliteOf(db)) return { sql: `${expression} IN (${values.map(() => '?').join(',')})`, params: [...values] };
  return { sql: `${expression} = ANY(CAST(? AS ${type}[]))`, params: [arrayParameter(values)] };
}

/** Rows per statement where the engine writes or reads many on PostgreSQL, each a round trip. */
const POSTGRES_ROWS_PER_STATEMENT = 2_000;

/** `items` in runs of up to POSTGRES_ROWS_PER_STATEMENT. */
export function postgresChunks<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let from = 0; from < items.length; from += POSTGRES_ROWS_PER_STATEMENT) chunks.push(items.slice(from, from + POSTGRES_ROWS_PER_STATEMENT));
  return chunks;
}

/**
 * Runs a PostgreSQL statement over `rows` a chunk at a time (postgresChunks): the parameters
 * `leading`, then each column of the chunk as one array parameter (arrayParameter), as an
 * `unnest(CAST(? AS bigint[]), CAST(? AS text[]), …)` of the statement reads them.
 */
export function runByColumns(statement: Statement, leading: readonly unknown[], rows: readonly (readonly (string | number | null)[])[]): void {
  for (const chunk of postgresChunks(rows)) statement.run(...leading, ...chunk[0]!.map((_, column) => arrayParameter(chunk.map((row) => row[column] ?? null))));
}

/**
 * The uid `uid` (a column; evaluated more than once) as the activity log stores it: on SQLite a
 * canonical uid as its 16 bytes (storedUid), less than half the room of its text in the table
 * and in each index holding it; on PostgreSQL as text.
 */
export function activityUid(db: Db, uid: string): string {
  return sqliteOf(db) ? storedUid(uid) : uid;
}

/** A uid the activity log stores (activityUid, the column `column`) as its text again, as it was written; NULL stays NULL. */
export function activityUidText(db: Db, column: string): string {
  if (!sqliteOf(db)) return column;
  const hex = `lower(hex(${column}))`;
  const groups = [[1, 8], [9, 4], [13, 4], [17, 4], [21, 12]].map(([from, length]) => `substr(${hex}, ${from}, ${length})`);
  return `CASE WHEN typeof(${column}) = 'blob' THEN ${groups.join(" || '-' || ")} ELSE ${column} END`;
}
