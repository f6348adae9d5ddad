/**
 * The records table's reads: the ids and total of one window of a filter (totals and tag counts
 * kept until anything is written), and the rows of those ids.
 */
import { metadataColumnValues, type RecordFile, type RecordFilter, type RecordRow, type RecordSort, type RecordState, type TagSuggestion } from '../../../common/records.js';
import { formatDate } from '../../../common/validate.js';
import type { Db } from '../database.js';
import { cached, type Conditions } from '../list-query.js';
import type { PartnerScope } from '../scope.js';
import { bytewise, jsonIdList, jsonPathText, sqliteOf, writeMark } from '../store/dialect.js';
import { recordQuery, type RecordQuery } from './record-filter.js';

/**
 * The column a sort orders by: upload date order is creation order (the row id), as GET
 * /credentials sorts it; titles sort byte by byte on both stores.
 */
function sortColumn(db: Db, by: RecordSort['by']): string {
  return by === 'upload_date' ? 'c.id' : bytewise(db, 'c.title');
}

/**
 * The total and the row ids of one window. A filter made of tags alone is counted and paged
 * over the tag index only (as the engine's listings do), and on SQLite a search alone over the
 * search index only: neither touches credentials rows unless sorting by title. On PostgreSQL a
 * search with few matches is paged from its matches (pageIdsOfMatches).
 */
export function windowIds(db: Db, query: RecordQuery, sort: RecordSort, offset: number, limit: number): { total: number; ids: number[] } {
  const { where, soleSearch } = query;
  const direction = sort.order === 'desc' ? 'DESC' : 'ASC';
  const column = sortColumn(db, sort.by);
  if (soleSearch !== undefined) {
    const total = countOnce(db, 'SELECT count(*) FROM credentials_fts WHERE credentials_fts MATCH ?', [soleSearch]);
    if (column === 'c.id') {
      const sql = `SELECT rowid FROM credentials_fts WHERE credentials_fts MATCH ? ORDER BY rowid ${direction} LIMIT ? OFFSET ?`;
      return { total, ids: cached(db, sql).pluck().all(soleSearch, limit, offset) as number[] };
    }
    return { total, ids: pageIds(db, where, `${column} ${direction}, c.id ${direction}`, limit, offset) };
  }
  const driver = where.soleDriver();
  if (driver) {
    const total = countOnce(db, `SELECT count(*) FROM (${driver.sql}) AS matched`, driver.params);
    if (column === 'c.id') {
      return { total, ids: cached(db, `${driver.sql} ORDER BY 1 ${direction} LIMIT ? OFFSET ?`).pluck().all(...driver.params, limit, offset) as number[] };
    }
    return { total, ids: pageIds(db, where, `${column} ${direction}, c.id ${direction}`, limit, offset) };
  }
  const clause = where.where('c.id');
  const countSql = `SELECT count(*) FROM credentials c ${clause.sql}`;
  const order = column === 'c.id' ? `c.id ${direction}` : `${column} ${direction}, c.id ${direction}`;
  if (query.searched && !sqliteOf(db)) {
    // Inside a transaction a total may count writes that are later rolled back: never kept.
    const version = db.inTransaction ? undefined : writeMark(db);
    const known = version === undefined ? undefined : keptTotal(db, countSql, clause.params, version);
    if (known === undefined || known <= FEW_MATCHES) {
      const page = pageOfMatches(db, where, order, limit, offset);
      // A window past the end has no row to carry the total: counted apart.
      if (page.total === undefined) return { total: countOnce(db, countSql, clause.params), ids: [] };
      if (version !== undefined) keepTotal(db, countSql, clause.params, version, page.total);
      return { total: page.total, ids: page.ids };
    }
  }
  const total = countOnce(db, countSql, clause.params);
  return { total, ids: pageIds(db, where, order, limit, offset) };
}

/**
 * Up to this many matches of a word search, PostgreSQL pages them as pageOfMatches does, and
 * so it finds a search's first window (whose total is not known yet). Its planner cannot tell
 * how many rows a prefix matches, and guesses a few percent: it then walks the sort's index and
 * tests every row, which for a rare word reads them all. Above this many, the walk meets a
 * window's rows soon.
 */
const FEW_MATCHES = 10_000;

/**
 * A window of a search's matches on PostgreSQL, with their number: every match found once
 * through the search's GIN index (the MATERIALIZED fence keeps the planner from walking another
 * index instead), counted and sorted; the cost follows the number of matches, not of the
 * Partner's credentials. The total is undefined when the window holds no row.
 */
function pageOfMatches(db: Db, where: Conditions, order: string, limit: number, offset: number): { total: number | undefined; ids: number[] } {
  const clause = where.where('c.id');
  const sql = `WITH matched AS MATERIALIZED (SELECT c.id, c.title FROM credentials c ${clause.sql})
    SELECT c.id, (SELECT count(*) FROM matched) AS total FROM matched c ORDER BY ${order} LIMIT ? OFFSET ?`;
  const rows = cached(db, sql).all(...clause.params, limit, offset) as { id: number; total: number }[];
  return { total: rows[0]?.total, ids: rows.map((r) => r.id) };
}

/** What a read gave, per database and key, as of a database version (dialect.ts's writeMark). */
export type KeptReads<T> = WeakMap<Db, Map<string, { version: string; value: T }>>;

/**
 * What `read` gives, or gave last for `key` when nothing was written since, by this connection or
 * another. Never kept inside a transaction: its writes may yet be rolled back.
 */
export function untilWritten<T>(kept: KeptReads<T>, db: Db, key: string, read: () => T): T {
  if (db.inTransaction) return read();
  const version = writeMark(db);
  let byKey = kept.get(db);
  if (!byKey) kept.set(db, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit && hit.version === version) return hit.value;
  const value = read();
  byKey.set(key, { version, value });
  return value;
}

/** Totals kept per database: a scrolled table asks for window after window of one filter. */
const totals = new WeakMap<Db, Map<string, { version: string; total: number }>>();
const KEEP_TOTALS = 32;

/** Runs a count, or answers it from the last identical count when nothing was written since. */
function countOnce(db: Db, sql: string, params: unknown[]): number {
  // Inside a transaction the count may see writes that are later rolled back: not kept.
  if (db.inTransaction) return cached(db, sql).pluck().get(...params) as number;
  const version = writeMark(db);
  const kept = keptTotal(db, sql, params, version);
  if (kept !== undefined) return kept;
  const total = cached(db, sql).pluck().get(...params) as number;
  keepTotal(db, sql, params, version, total);
  return total;
}

/** The total of this count kept at `version` (read before anything the count reads), if any. */
function keptTotal(db: Db, sql: string, params: unknown[], version: string): number | undefined {
  const hit = totals.get(db)?.get(`${sql}\u0000${JSON.stringify(params)}`);
  return hit && hit.version === version ? hit.total : undefined;
}

/** Keeps the total of this count, as of `version`, until anything is written. */
function keepTotal(db: Db, sql: string, params: unknown[], version: string, total: number): void {
  const key = `${sql}\u0000${JSON.stringify(params)}`;
  let byKey = totals.get(db);
  if (!byKey) totals.set(db, (byKey = new Map()));
  byKey.delete(key);
  byKey.set(key, { version, total });
  if (byKey.size > KEEP_TOTALS) byKey.delete(byKey.keys().next().value!);
}

function pageIds(db: Db, where: Conditions, order: string, limit: number, offset: number): number[] {
  const clause = where.where('c.id');
  return cached(db, `SELECT c.id FROM credentials c ${clause.sql} ORDER BY ${order} LIMIT ? OFFSET ?`).pluck().all(...clause.params, limit, offset) as number[];
}

interface CredentialRow {
  id: number;
  uid: string;
  title: string;
  tags: string;
  upload_date: number;
  expiry_date: number | null;
  ingest_sha256: string | null;
  ingest_path: string | null;
  linked_from: number;
  metadata: string;
}

/**
 * Reads the rows of the records table for the given ids, in their order: four set-based
 * queries per window whatever its size (credentials, files, links, states), never one per row.
 */
export function readRecordRows(scope: PartnerScope, ids: readonly number[], engines: readonly string[]): RecordRow[] {
  if (ids.length === 0) return [];
  const { db } = scope;
  const list = JSON.stringify(ids);
  const credentials = cached(
    db,
    `SELECT c.id, c.uid, c.title, c.tags, c.upload_date, c.expiry_date, c.metadata,
       ${jsonPathText(db, 'c.metadata', ['ingest', 'sha256'])} AS ingest_sha256, ${jsonPathText(db, 'c.metadata', ['ingest', 'path'])} AS ingest_path,
       (SELECT count(*) FROM credential_links l WHERE l.linked_id = c.id) AS linked_from
     FROM credentials c WHERE c.id IN (${jsonIdList(db)})`,
  ).all(list) as CredentialRow[];
  const rows = new Map<number, RecordRow>();
  const ingestName = new Map<number, { sha256: string; name: string }>();
  for (const c of credentials) {
    const states: Record<string, RecordState> = {};
    for (const engine of engines) states[engine] = 'not_scheduled';
    rows.set(c.id, {
      uid: c.uid,
      title: c.title,
      tags: JSON.parse(c.tags) as string[],
      fileCount: 0,
      files: [],
      linkedUids: [],
      linkedFromCount: c.linked_from,
      uploadDate: formatDate(c.upload_date),
      expiryDate: formatDate(c.expiry_date),
      states,
      metadata: metadataColumnValues(JSON.parse(c.metadata)),
    });
    // The watch folder records the file's path in metadata: the one name the engine knows.
    if (c.ingest_sha256 && c.ingest_path) ingestName.set(c.id, { sha256: c.ingest_sha256, name: c.ingest_path.split('/').pop()! });
  }
  const files = cached(
    db,
    `SELECT cf.credential_id, f.file_hash, f.file_type FROM credential_files cf JOIN files f ON f.id = cf.file_id
     WHERE cf.credential_id IN (${jsonIdList(db)}) ORDER BY cf.credential_id, cf.position`,
  ).all(list) as { credential_id: number; file_hash: string; file_type: string | null }[];
  for (const f of files) {
    const row = rows.get(f.credential_id);
    if (!row) continue;
    const known = ingestName.get(f.credential_id);
    const file: RecordFile = { hash: f.file_hash, type: f.file_type, name: known?.sha256 === f.file_hash ? known.name : null };
    row.files.push(file);
    row.fileCount++;
  }
  const links = cached(
    db,
    `SELECT l.credential_id, t.uid FROM credential_links l JOIN credentials t ON t.id = l.linked_id
     WHERE l.credential_id IN (${jsonIdList(db)}) ORDER BY l.credential_id, l.position`,
  ).all(list) as { credential_id: number; uid: string }[];
  for (const l of links) rows.get(l.credential_id)?.linkedUids.push(l.uid);
  // One query for the state of every row on every engine.
  const states = cached(
    db,
    `SELECT jc.credential_id, jc.engine, j.status,
       EXISTS (SELECT 1 FROM certificates x WHERE x.credential_id = jc.credential_id AND x.engine = jc.engine AND x.revoked_date IS NOT NULL) AS revoked
     FROM job_credentials jc JOIN jobs j ON j.id = jc.job_id
     WHERE jc.credential_id IN (${jsonIdList(db)}) AND jc.active = 1`,
  ).all(list) as { credential_id: number; engine: string; status: string; revoked: number }[];
  for (const s of states) {
    const row = rows.get(s.credential_id);
    if (!row) continue;
    row.states[s.engine] = s.revoked
      ? 'revoked'
      : s.status === 'scheduled'
        ? 'scheduled'
        : s.status === 'finished'
          ? 'issued'
          : s.status === 'failed'
            ? 'not_scheduled'
            : 'issuing';
  }
  return ids.map((id) => rows.get(id)).filter((r): r is RecordRow => r !== undefined);
}

/** Per database and Partner: every tag with its count, as of one database version. */
const tagCounts: KeptReads<TagSuggestion[]> = new WeakMap();

/**
 * The Partner's credential tags with how many credentials carry each, most used first: one
 * scan of the tag index, then kept until anything is written, so each keystroke of the tag
 * filter is answered from memory.
 */
export function partnerTagCounts(scope: PartnerScope): TagSuggestion[] {
  const { db } = scope;
  return untilWritten(tagCounts, db, scope.partner.id, () =>
    cached(db, `SELECT tag, count(*) AS count FROM credential_tags WHERE partner_id = ? GROUP BY tag ORDER BY count DESC, ${bytewise(db, 'tag')}`).all(scope.partner.id) as TagSuggestion[],
  );
}

/** The total and the row ids of a window of a filter in a sort, for one Partner. */
export function filterWindowIds(scope: PartnerScope, filter: RecordFilter, sort: RecordSort, offset: number, limit: number): { total: number; ids: number[] } {
  return windowIds(scope.db, recordQuery(scope, filter), sort, offset, limit);
}
