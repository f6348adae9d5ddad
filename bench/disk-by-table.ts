/**
 * Where a SQLite database's bytes go: each table with its indexes (an FTS5 table with its
 * shadow tables), from SQLite's dbstat virtual table, and the free pages apart.
 */
import type Database from 'better-sqlite3';

export interface TableBytes {
  /** A table's name, or `free pages`. */
  table: string;
  bytes: number;
}

/** The FTS5 shadow tables, counted with their virtual table. */
const FTS5_SHADOW = /^(.+)_(data|idx|docsize|config|content)$/;

/** Bytes on disk per table, its indexes included, largest first; the free pages last. */
export function diskByTable(db: Database.Database): TableBytes[] {
  const rows = db
    .prepare('SELECT s.tbl_name AS name, sum(d.pgsize) AS bytes FROM dbstat d JOIN sqlite_schema s ON s.name = d.name GROUP BY s.tbl_name')
    .all() as { name: string; bytes: number }[];
  const virtual = new Set(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").pluck().all() as string[]);
  const byTable = new Map<string, number>();
  for (const { name, bytes } of rows) {
    const shadowOf = FTS5_SHADOW.exec(name)?.[1];
    const table = shadowOf !== undefined && virtual.has(shadowOf) ? shadowOf : name;
    byTable.set(table, (byTable.get(table) ?? 0) + bytes);
  }
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const free = (db.pragma('freelist_count', { simple: true }) as number) * pageSize;
  return [...[...byTable].map(([table, bytes]) => ({ table, bytes })).sort((a, b) => b.bytes - a.bytes), { table: 'free pages', bytes: free }];
}

/** The largest `top` tables and the free pages as "name bytes-per-unit", for a bench row's notes. */
export function describeDiskByTable(tables: readonly TableBytes[], per: number, top = 6): string {
  const free = tables.find((t) => t.table === 'free pages');
  const largest = tables.filter((t) => t.table !== 'free pages').slice(0, top);
  return [...largest, ...(free ? [free] : [])].map((t) => `${t.table} ${(t.bytes / per).toFixed(0)}`).join(', ');
}
