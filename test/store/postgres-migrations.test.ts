/**
 * The engine's PostgreSQL schema: versioned migrations, applied once however many nodes start
 * at the same time, and refused when the database is newer than this Proofdesk.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkReadiness } from '../../main/engine/readiness.js';
import { migratePostgres, openPostgresDatabase } from '../../main/engine/store/open-postgres.js';
import { PostgresDb } from '../../main/engine/store/postgres-db.js';
import { POSTGRES_MIGRATIONS } from '../../main/engine/store/postgres-migrations.js';
import { runTsChild } from '../support/issuing-fixture.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';

const made: TestDatabase[] = [];
const fresh = () => {
  const database = createTestDatabase();
  made.push(database);
  return database;
};

afterEach(() => {
  for (const database of made.splice(0)) database.drop();
});

describe('PostgreSQL migrations', () => {
  it('bring an empty database to the current schema, and the engine reads it as current', () => {
    const db = openPostgresDatabase(fresh().url);
    try {
      expect(db.schemaVersion()).toBe(POSTGRES_MIGRATIONS.length);
      const tables = db.prepare("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename").pluck().all();
      expect(tables).toEqual(expect.arrayContaining(['activity', 'certificates', 'credentials', 'files', 'issuing_lease', 'jobs', 'partners', 'request_windows', 'token_keys']));
      expect(checkReadiness(db, () => ({ scheduler: 'here', leader: 'node-a' }))).toEqual({ ready: true, database: 'ok', migrations: 'current', scheduler: 'here', leader: 'node-a' });
    } finally {
      db.close();
    }
  });

  it('four nodes starting at once on an empty database migrate it once; the others wait and find it done', async () => {
    const { url } = fresh();
    const nodes = await Promise.all(Array.from({ length: 4 }, () => runTsChild('test/support/postgres-migrate-child.ts', [url], process.env)));
    for (const node of nodes) expect({ code: node.code, stdout: node.stdout, stderr: node.stderr }).toEqual({ code: 0, stdout: 'migrated\n', stderr: '' });
    const db = PostgresDb.connect(url);
    try {
      expect(db.prepare('SELECT version FROM proofdesk_schema ORDER BY version').pluck().all()).toEqual(POSTGRES_MIGRATIONS.map((_, i) => i + 1));
    } finally {
      db.close();
    }
  });

  it('a database written by a newer Proofdesk is refused with one sentence, and left as it is', () => {
    const { url } = fresh();
    const db = PostgresDb.connect(url);
    try {
      migratePostgres(db, [...POSTGRES_MIGRATIONS, 'CREATE TABLE from_the_future (id bigint)']);
      expect(() => openPostgresDatabase(url)).toThrow(
        `This database was written by a newer Proofdesk (schema ${POSTGRES_MIGRATIONS.length + 1}, this one knows ${POSTGRES_MIGRATIONS.length}). Upgrade Proofdesk.`,
      );
      expect(db.schemaVersion()).toBe(POSTGRES_MIGRATIONS.length + 1);
    } finally {
      db.close();
    }
  });

  it('a failing migration changes nothing: its version is not recorded and its tables are gone', () => {
    const { url } = fresh();
    const db = PostgresDb.connect(url);
    try {
      expect(() => migratePostgres(db, ['CREATE TABLE half (id bigint); SELECT no_such_function()'])).toThrow(/no_such_function/);
      expect(db.schemaVersion()).toBe(0);
      expect(db.prepare("SELECT to_regclass('half') IS NULL").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
