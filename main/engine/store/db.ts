/**
 * The engine's database seam: the part of better-sqlite3's API the engine uses, which
 * better-sqlite3's Database satisfies as it is (no wrapper per statement on SQLite) and
 * PostgresDb (postgres-db.ts) implements over PostgreSQL. Everything dialect-specific (pragmas,
 * SQL functions, the schema version) goes through the small functions of dialect.ts.
 */

/** What running a writing statement changed. */
export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
  /** The key of the last row inserted (read it right after `run`). */
  lastInsertRowid: number | bigint;
}

/** A prepared statement; `?` placeholders, bound positionally. */
export interface Statement<BindParameters extends unknown[] = unknown[], Result = unknown> {
  run(...params: BindParameters): RunResult;
  get(...params: BindParameters): Result | undefined;
  all(...params: BindParameters): Result[];
  iterate(...params: BindParameters): IterableIterator<Result>;
  /** Rows as their first column's value. */
  pluck(toggleState?: boolean): this;
}

/**
 * A transaction runner: runs the function it is given in one transaction (nested: a
 * savepoint), all of its writes or none. The engine builds one per database (inTransaction).
 */
export interface Transaction {
  (work: () => unknown): unknown;
  /** The same, holding the database's write lock from the start. */
  immediate(work: () => unknown): unknown;
}

/** One connection to the engine's database. */
export interface Db {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(source: string): Statement;
  /** Runs SQL text of one or more statements, without parameters. */
  exec(source: string): this;
  transaction(runner: (work: () => unknown) => unknown): Transaction;
  close(): this;
}
