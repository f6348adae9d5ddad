/**
 * The engine's Db on PostgreSQL, over pg-native's synchronous libpq calls, so the engine's
 * synchronous transactions run unchanged: `?` placeholders become `$n` once per prepared
 * statement, nested transactions are savepoints, the write lock is an advisory lock held to
 * the end of the transaction, and values come back typed as SQLite gives them (integers as
 * numbers, booleans as 0/1, bytea as Buffer).
 */
import { createRequire } from 'node:module';
import type Client from 'pg-native';
import type { TypeParsers } from 'pg-native';
import { ServiceError } from '../../../common/errors.js';
import type { Db, RunResult, Statement, Transaction } from './db.js';

/** The advisory lock key of the engine's write lock (inWriteLock): "proofdesk" in ASCII, folded into a bigint. */
export const WRITE_LOCK_KEY = 0x70726f6f66646573n;

/** A PostgreSQL error, with the server's SQLSTATE as `code` (23505 a unique violation, 08xxx a lost connection). */
export class PostgresError extends Error {
  override readonly name = 'PostgresError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** SQLSTATE of a unique violation. */
export const UNIQUE_VIOLATION = '23505';

/** The type oids of int2, int4, int8, oid, float4, float8 and numeric. */
const NUMBER_TYPES = new Set([21, 23, 20, 26, 700, 701, 1700]);
const BOOL = 16;
const BYTEA = 17;

/** Column values as SQLite gives them: numbers, 0/1, Buffers; everything else as its text. */
const SQLITE_LIKE_TYPES: TypeParsers = {
  getTypeParser(oid: number) {
    if (NUMBER_TYPES.has(oid)) return Number;
    if (oid === BOOL) return (value: string) => (value === 't' ? 1 : 0);
    // bytea_output is hex by default: \x0a1b...
    if (oid === BYTEA) return (value: string) => Buffer.from(value.slice(2), 'hex');
    return (value: string) => value;
  },
};

/** A parameter as libpq's text format wants it: bytes as bytea hex, booleans as 1/0. */
function toParameter(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  throw new TypeError(`A ${typeof value} cannot be bound to a SQL parameter`);
}

/**
 * Rewrites SQLite's `?` placeholders to PostgreSQL's `$1, $2, ...`, leaving string literals,
 * quoted names and comments alone. Returns the text and the number of parameters.
 */
export function numberPlaceholders(sql: string): { text: string; count: number } {
  let text = '';
  let count = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      text += sql.slice(i, stop);
      i = stop;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      text += sql.slice(i, stop);
      i = stop;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      text += sql.slice(i, stop);
      i = stop;
    } else if (c === '?') {
      text += `$${++count}`;
      i++;
    } else {
      text += c;
      i++;
    }
  }
  return { text, count };
}

type LibpqClient = InstanceType<typeof Client>;

/**
 * The driver, loaded on first use so that SQLite users never load libpq. It is an optional
 * dependency (built against libpq's headers at install), so the desktop app installs without it.
 */
function newClient(): LibpqClient {
  const require = createRequire(import.meta.url);
  let Driver: typeof Client;
  try {
    Driver = require('pg-native') as typeof Client;
  } catch (error) {
    throw new PostgresError(`The PostgreSQL driver (pg-native) is not installed: install libpq's headers (Debian: libpq-dev) and run npm ci (${oneLine((error as Error).message)})`, undefined);
  }
  return new Driver({ types: SQLITE_LIKE_TYPES });
}

class PostgresStatement implements Statement {
  private plucking = false;

  constructor(
    private readonly db: PostgresDb,
    private readonly text: string,
    private readonly count: number,
  ) {}

  pluck(toggleState = true): this {
    this.plucking = toggleState;
    return this;
  }

  private execute(params: unknown[]): Record<string, unknown>[] {
    if (params.length !== this.count) throw new RangeError(`Expected ${this.count} SQL parameters, got ${params.length}`);
    return this.db.executeNamed(this.db.prepareNamed(this.text, this.count), params.map(toParameter));
  }

  private shape(row: Record<string, unknown>): unknown {
    if (!this.plucking) return row;
    for (const key in row) return row[key];
    return undefined;
  }

  run(...params: unknown[]): RunResult {
    this.execute(params);
    const changes = this.db.changes();
    // Outside a transaction the statement committed on its own.
    if (changes > 0 && !this.db.inTransaction) this.db.committed();
    const db = this.db;
    const text = this.text;
    let rowid: number | undefined;
    return {
      changes,
      // Asked only when read (right after the insert, as with SQLite): the id this session drew last for the table.
      get lastInsertRowid() {
        return (rowid ??= db.lastInsertedId(text));
      },
    };
  }

  get(...params: unknown[]): unknown {
    const rows = this.execute(params);
    return rows.length === 0 ? undefined : this.shape(rows[0]!);
  }

  all(...params: unknown[]): unknown[] {
    return this.execute(params).map((row) => this.shape(row));
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.all(...params)[Symbol.iterator]();
  }
}

/** Clients being closed, kept from the garbage collector until libpq's binding is done with them. */
const closing = new Set<LibpqClient>();

/** Whether an error's SQLSTATE may mean the connection is gone (none: libpq's own; 08: connection; 57P: server shutting down). */
function mayBeLost(code: string | undefined): boolean {
  return code === undefined || code.startsWith('08') || code.startsWith('57P');
}

/** Connects a new client, or throws a PostgresError with libpq's reason. */
function connectClient(url: string): LibpqClient {
  const client = newClient();
  try {
    client.connectSync(url);
  } catch (error) {
    throw new PostgresError(`Cannot connect to PostgreSQL: ${oneLine((error as Error).message)}`, '08001');
  }
  // Notices (a savepoint's name reused, say) are not for the engine's output.
  client.querySync("SET client_min_messages = warning; SET bytea_output = 'hex'");
  return client;
}

/**
 * One connection to a PostgreSQL database, as the engine's Db. When the connection is lost
 * (the server restarted, a network cut), the call that finds out throws ServiceError
 * `try_again_later` (503) — its transaction is gone — and the next call connects again.
 */
export class PostgresDb implements Db {
  private client: LibpqClient | undefined;
  private depth = 0;
  /** Set when the connection was found lost: the next call connects again. */
  private lost = false;
  /** Counts connections: a transaction that began on an earlier one cannot commit on this one. */
  private generation = 0;
  /** The server-side prepared statements of this connection, by their text. */
  private readonly preparedNames = new Map<string, string>();
  /** Names given to prepared statements so far (never reused, across reconnections too). */
  private statementNames = 0;
  /** Who hears of this connection's commits (onCommit). */
  private readonly commitListeners = new Set<() => void>();

  private constructor(
    client: LibpqClient,
    private readonly url: string,
  ) {
    this.client = client;
  }

  /**
   * Connects to `url` (postgres://user:password@host:port/database, or any libpq connection
   * string). Throws a PostgresError with the server's or libpq's reason when it cannot.
   */
  static connect(url: string): PostgresDb {
    return new PostgresDb(connectClient(url), url);
  }

  get open(): boolean {
    return this.client !== undefined;
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  private connection(): LibpqClient {
    if (!this.client) throw new TypeError('The database connection is not open');
    if (this.lost) {
      let fresh: LibpqClient;
      try {
        fresh = connectClient(this.url);
      } catch (error) {
        throw new ServiceError('try_again_later', `The database does not answer: ${(error as Error).message}`, { cause: error });
      }
      release(this.client);
      this.client = fresh;
      this.preparedNames.clear();
      this.generation++;
      this.lost = false;
    }
    return this.client;
  }

  /**
   * Runs libpq work, turning its errors into PostgresErrors with their SQLSTATE, or into
   * `try_again_later` when the connection turns out to be gone.
   */
  private call<T>(work: (client: LibpqClient) => T): T {
    const client = this.connection();
    try {
      return work(client);
    } catch (error) {
      const failure = new PostgresError(oneLine((error as Error).message), client.pq.resultErrorFields()?.sqlState);
      if (mayBeLost(failure.code) && !answers(client)) {
        this.lost = true;
        this.depth = 0;
        throw new ServiceError('try_again_later', `The database does not answer: ${failure.message}`, { cause: failure });
      }
      throw failure;
    }
  }

  /** Runs SQL text without parameters and returns its rows (PostgresDb's own queries and the migrations). */
  query(sql: string, params?: unknown[]): Record<string, unknown>[] {
    return this.call((client) => client.querySync(sql, params?.map(toParameter)));
  }

  prepare(source: string): Statement {
    const { text, count } = numberPlaceholders(source);
    return new PostgresStatement(this, text, count);
  }

  /** Prepares `text` on the server once per connection, and gives its name. */
  prepareNamed(text: string, count: number): string {
    let name = this.preparedNames.get(text);
    if (name === undefined) {
      const fresh = `proofdesk_${++this.statementNames}`;
      this.call((client) => client.prepareSync(fresh, text, count));
      this.preparedNames.set(text, (name = fresh));
    }
    return name;
  }

  /** Runs a statement prepared by prepareNamed. */
  executeNamed(name: string, params: (string | null)[]): Record<string, unknown>[] {
    return this.call((client) => client.executeSync(name, params));
  }

  /** The rows the last command inserted, updated or deleted. */
  changes(): number {
    return Number(this.connection().pq.cmdTuples()) || 0;
  }

  /**
   * The id this session last drew for the table an INSERT statement's `text` writes to (its
   * identity column's sequence), or else the value it last drew from any sequence. Not simply
   * the latter: a trigger of the insert may draw from another table's sequence after it (the
   * change log's, on every new job).
   */
  lastInsertedId(text: string): number {
    const table = /^\s*INSERT\s+INTO\s+(\w+)/i.exec(text)?.[1];
    const id = table === undefined ? null : this.executeNamed(this.prepareNamed("SELECT currval(pg_get_serial_sequence($1, 'id')) AS id", 1), [table])[0]!.id;
    return Number(id ?? this.query('SELECT lastval() AS id')[0]!.id);
  }

  exec(source: string): this {
    this.query(source);
    return this;
  }

  transaction(runner: (work: () => unknown) => unknown): Transaction {
    const run = (work: () => unknown, lock: boolean) => this.inTransactionScope(() => runner(work), lock);
    return Object.assign((work: () => unknown) => run(work, false), { immediate: (work: () => unknown) => run(work, true) });
  }

  /**
   * Runs `body` in a transaction, or in a savepoint when one is open; with `lock`, the engine's
   * write lock is taken first and held until the outermost transaction ends.
   */
  private inTransactionScope<T>(body: () => T, lock: boolean): T {
    const outer = this.depth === 0;
    const savepoint = `proofdesk_${this.depth}`;
    this.exec(outer ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
    const generation = this.generation;
    this.depth++;
    let result: T;
    try {
      if (lock) this.query(`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`);
      result = body();
      if (result instanceof Promise) throw new TypeError('Transaction function cannot return a promise');
      if (this.lost || generation !== this.generation) throw new ServiceError('try_again_later', 'The database connection was lost during the transaction; nothing of it was kept');
    } catch (error) {
      // A lost connection took its transaction with it: nothing to roll back, the depth is reset.
      if (this.lost || generation !== this.generation) throw error;
      this.depth--;
      this.rollBack(outer ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}`);
      throw error;
    }
    this.depth--;
    if (outer) {
      try {
        this.exec('COMMIT');
      } catch (error) {
        this.rollBack('ROLLBACK');
        throw error;
      }
      this.committed();
    } else {
      this.exec(`RELEASE SAVEPOINT ${savepoint}`);
    }
    return result;
  }

  /**
   * Hears each commit of this connection that may have written: an outermost transaction's,
   * or a statement's that changed rows outside of one. The listener runs at once, inside the
   * caller's call, so it should only note that it has work (the event reader looks soon after).
   */
  onCommit(listener: () => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** Tells the commit listeners (onCommit) that this connection committed. */
  committed(): void {
    for (const listener of this.commitListeners) listener();
  }

  /** Undoes a failed transaction or savepoint; the first error is the one that counts. */
  private rollBack(sql: string): void {
    try {
      if (this.client) this.exec(sql);
    } catch {
      // A connection gone mid-transaction: the server has rolled it back already.
    }
  }

  /** The version the PostgreSQL migrations reached (0 on an empty database). */
  schemaVersion(): number {
    const table = this.query("SELECT to_regclass('proofdesk_schema') IS NOT NULL AS present")[0]!.present;
    if (!table) return 0;
    return Number(this.query('SELECT coalesce(max(version), 0) AS version FROM proofdesk_schema')[0]!.version);
  }

  close(): this {
    const client = this.client;
    this.client = undefined;
    if (client) release(client);
    return this;
  }
}

/**
 * Closes a client. libpq's binding closes its socket watcher asynchronously but lets the client
 * be collected at once; freed before the loop's close phase, it crashes the process. So the
 * client stays referenced until a turn of the loop after its close.
 */
function release(client: LibpqClient): void {
  closing.add(client);
  client.end(() => setTimeout(() => closing.delete(client), 0).unref());
}

/** Whether the connection still answers a trivial query (inside a failed transaction, it answers with an error of its own). */
function answers(client: LibpqClient): boolean {
  try {
    client.querySync('SELECT 1');
    return true;
  } catch {
    return client.pq.resultErrorFields()?.sqlState === '25P02';
  }
}

/** libpq's messages end in newlines and carry a "ERROR:  " prefix; one line is enough. */
function oneLine(message: string): string {
  return message.replace(/^(ERROR|FATAL):\s+/, '').replace(/\s+/g, ' ').trim();
}
