import type { Db, Statement } from './database.js';
import { pageWindow, type PageRequest } from '../../common/pagination.js';

/**
 * The filters of one listing. The owner condition (partner_id) is the base; tag filters
 * become a "driver": a compound SELECT over the tag table's (partner_id, tag, owner_id) key
 * that yields matching ids in ascending id order, so counting and paging by creation order
 * need no look-up in the owner table at all (what keeps a filtered page of 100,000 fast).
 */
export class Conditions {
  private readonly clauses: string[];
  readonly params: unknown[];
  private driver: { sql: string; params: unknown[] } | undefined;

  constructor(base: string, ...params: unknown[]) {
    this.clauses = [base];
    this.params = params;
  }

  add(sql: string, ...params: unknown[]): this {
    this.clauses.push(sql);
    this.params.push(...params);
    return this;
  }

  /** A range filter on a date column (inclusive bounds, epoch ms). */
  range(column: string, from: number | undefined, to: number | undefined): this {
    if (from !== undefined) this.add(`${column} >= ?`, from);
    if (to !== undefined) this.add(`${column} <= ?`, to);
    return this;
  }

  /** The spec's and_tags (all of them) and or_tags (at least one) over the owner's tag table, as the driver. */
  tags(table: string, ownerColumn: string, partnerId: string, andTags: string[], orTags: string[]): this {
    this.driver = tagMatches(table, ownerColumn, partnerId, andTags, orTags);
    return this;
  }

  /** The same filter over another table's tags, as a condition on `column` (e.g. a certificate's job). */
  tagsOn(column: string, table: string, ownerColumn: string, partnerId: string, andTags: string[], orTags: string[]): this {
    const matches = tagMatches(table, ownerColumn, partnerId, andTags, orTags);
    if (matches) this.add(`${column} IN (${matches.sql})`, ...matches.params);
    return this;
  }

  /** The WHERE clause for `idColumn`, the driver included as an IN condition. */
  where(idColumn: string): { sql: string; params: unknown[] } {
    const clauses = this.driver ? [...this.clauses, `${idColumn} IN (${this.driver.sql})`] : this.clauses;
    return { sql: `WHERE ${clauses.join(' AND ')}`, params: this.driver ? [...this.params, ...this.driver.params] : this.params };
  }

  /** The tag driver, when it alone decides membership (no condition beyond the owner). */
  soleDriver(): { sql: string; params: unknown[] } | undefined {
    return this.clauses.length === 1 ? this.driver : undefined;
  }
}

/**
 * A compound SELECT of the owner ids carrying the tags, in ascending id order: an INTERSECT of
 * one index range per and-tag, a UNION for or-tags. Undefined when there is no tag filter.
 */
function tagMatches(table: string, ownerColumn: string, partnerId: string, andTags: string[], orTags: string[]): { sql: string; params: unknown[] } | undefined {
  const one = `SELECT ${ownerColumn} FROM ${table} WHERE partner_id = ? AND tag = ?`;
  const parts: { sql: string; params: unknown[] }[] = [];
  if (orTags.length > 0) parts.push({ sql: orTags.map(() => one).join(' UNION '), params: orTags.flatMap((t) => [partnerId, t]) });
  if (andTags.length > 0) parts.push({ sql: andTags.map(() => one).join(' INTERSECT '), params: andTags.flatMap((t) => [partnerId, t]) });
  if (parts.length === 0) return undefined;
  // A UNION on the left of an INTERSECT must be wrapped, or it would bind the wrong way.
  return {
    sql: parts.length === 1 ? parts[0]!.sql : `SELECT * FROM (${parts[0]!.sql}) AS either INTERSECT ${parts[1]!.sql}`,
    params: [...parts[0]!.params, ...(parts[1]?.params ?? [])],
  };
}

/**
 * Runs one page of a listing: the total count and the ids of the page, in order.
 *
 * @param from the FROM clause (with alias), e.g. `credentials c`
 * @param sortColumns sort_by value → SQL column; the id column means creation order
 * @param idColumn the row id, also the tie-break so pages never overlap
 */
export function selectPage(
  db: Db,
  from: string,
  idColumn: string,
  conditions: Conditions,
  sortColumns: Record<string, string>,
  page: PageRequest,
): { total: number; ids: number[] } {
  const direction = page.order === 'desc' ? 'DESC' : 'ASC';
  const sortColumn = sortColumns[page.sortBy] ?? idColumn;
  const { limit, offset } = pageWindow(page);
  const driver = conditions.soleDriver();
  if (driver) {
    const total = cached(db, `SELECT count(*) FROM (${driver.sql}) AS matched`).pluck().get(...driver.params) as number;
    if (sortColumn === idColumn) {
      const ids = cached(db, `${driver.sql} ORDER BY 1 ${direction} LIMIT ? OFFSET ?`).pluck().all(...driver.params, limit, offset) as number[];
      return { total, ids };
    }
    return { total, ids: pageIds(db, from, idColumn, conditions, `${sortColumn} ${direction}, ${idColumn} ${direction}`, limit, offset) };
  }
  const where = conditions.where(idColumn);
  const total = cached(db, `SELECT count(*) FROM ${from} ${where.sql}`).pluck().get(...where.params) as number;
  const order = sortColumn === idColumn ? `${idColumn} ${direction}` : `${sortColumn} ${direction}, ${idColumn} ${direction}`;
  return { total, ids: pageIds(db, from, idColumn, conditions, order, limit, offset) };
}

function pageIds(db: Db, from: string, idColumn: string, conditions: Conditions, order: string, limit: number, offset: number): number[] {
  const where = conditions.where(idColumn);
  return cached(db, `SELECT ${idColumn} FROM ${from} ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`).pluck().all(...where.params, limit, offset) as number[];
}

const statementCache = new WeakMap<Db, Map<string, Statement<unknown[]>>>();

/** A prepared statement, prepared once per database and SQL text. */
export function cached(db: Db, sql: string): Statement<unknown[]> {
  let byText = statementCache.get(db);
  if (!byText) statementCache.set(db, (byText = new Map()));
  let statement = byText.get(sql);
  if (!statement) byText.set(sql, (statement = db.prepare(sql)));
  return statement;
}
