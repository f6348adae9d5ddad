import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { describeDiskByTable, diskByTable } from './disk-by-table.js';

describe('bytes on disk per table', () => {
  it('counts each table with its indexes and an FTS5 table with its shadow tables, largest first', () => {
    const db = new Database(':memory:');
    db.exec("CREATE TABLE big (id INTEGER PRIMARY KEY, body TEXT); CREATE INDEX big_by_body ON big (body); CREATE TABLE small (id INTEGER PRIMARY KEY); CREATE VIRTUAL TABLE words USING fts5(body, content = '')");
    const insert = db.prepare('INSERT INTO big (body) VALUES (?)');
    for (let i = 0; i < 500; i++) insert.run(`row ${i} `.repeat(20));
    db.exec('INSERT INTO words (rowid, body) SELECT id, body FROM big');
    const tables = diskByTable(db);
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pagesOf = (...names: string[]) => (db.prepare(`SELECT count(*) FROM dbstat WHERE name IN (${names.map(() => '?').join(', ')})`).pluck().get(...names) as number) * pageSize;
    expect(tables[0]).toEqual({ table: 'big', bytes: pagesOf('big', 'big_by_body') });
    expect(tables.find((t) => t.table === 'words')?.bytes).toBe(pagesOf('words_data', 'words_idx', 'words_docsize', 'words_config'));
    expect(tables.find((t) => t.table === 'small')?.bytes).toBe(pageSize);
    expect(tables.some((t) => t.table.startsWith('words_'))).toBe(false);
    expect(tables.at(-1)).toEqual({ table: 'free pages', bytes: 0 });
    expect(describeDiskByTable(tables, 500, 1)).toBe(`big ${(pagesOf('big', 'big_by_body') / 500).toFixed(0)}, free pages 0`);
    db.close();
  });
});
