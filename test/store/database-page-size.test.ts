/**
 * The page size of the engine's SQLite file: a new data directory gets PAGE_SIZE (fewer bytes
 * per credential on disk); a database made with another page size opens with its pages and
 * rows as they were, since WAL fixes the page size once the file exists.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, PAGE_SIZE, openDatabase } from '../../main/engine/database.js';
import { MIGRATIONS } from '../../main/engine/migrations.js';
import { makeTempDir } from '../support/engine-fixture.js';

const dirs: string[] = [];

function tempDir(): string {
  const dir = makeTempDir('proofdesk-page-size-');
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the engine database page size', () => {
  it('is PAGE_SIZE for a new data directory, and stays so when it is opened again', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    expect(PAGE_SIZE).toBe(8192);
    expect(db.pragma('page_size', { simple: true })).toBe(PAGE_SIZE);
    db.close();
    const again = openDatabase(dir);
    expect(again.pragma('page_size', { simple: true })).toBe(PAGE_SIZE);
    expect(again.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    again.close();
  });

  it('is kept for a database made with 4 KiB pages, whose rows read back unchanged', () => {
    const dir = tempDir();
    const old = new Database(join(dir, DATABASE_FILE));
    old.pragma('page_size = 4096');
    old.pragma('journal_mode = WAL');
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old.prepare("INSERT INTO partners (id, name, client_id, secret_hash, issuing_interval_s, created_date) VALUES ('p1', 'Old University', 'c1', 'h', 60, 1)").run();
    old.close();

    const db = openDatabase(dir);
    expect(db.pragma('page_size', { simple: true })).toBe(4096);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT name FROM partners').pluck().all()).toEqual(['Old University']);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
});
