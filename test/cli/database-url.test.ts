/**
 * `--database URL` / PROOFDESK_DATABASE_URL on the CLI: an unreachable database is one sentence
 * and exit 3, never a stack trace nor the password; a reachable PostgreSQL database is refused
 * the same way while the engine does not run on it in full, and nothing is written anywhere.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../main/engine/database.js';
import { PostgresDb } from '../../main/engine/store/postgres-db.js';
import { runTsChild } from '../support/issuing-fixture.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';

let dataDir: string;
let database: TestDatabase;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'proofdesk-database-url-'));
  database = createTestDatabase();
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  database?.drop();
});

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runTsChild('main/cli/index.ts', args, { ...process.env, PROOFDESK_DATABASE_URL: undefined, ...env });

describe('the CLI with a PostgreSQL database URL', () => {
  it('an unreachable database: one sentence naming it without its password, exit 3', async () => {
    const result = await cli(['partner', 'list', '--data', dataDir, '--database', 'postgres://proofdesk:sekrit@127.0.0.1:1/records']);
    expect(result.code).toBe(3);
    expect(result.stderr.trim()).toMatch(/^The database 127\.0\.0\.1:1\/records cannot be reached: .*refused.*\.$/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('sekrit');
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(false);
  });

  it('a reachable database through PROOFDESK_DATABASE_URL is refused in one sentence, exit 3, and left untouched', async () => {
    const result = await cli(['credential', 'list', '--data', dataDir], { PROOFDESK_DATABASE_URL: database.url });
    expect(result.code).toBe(3);
    expect(result.stderr.trim()).toMatch(/^The database 127\.0\.0\.1:\d+\/proofdesk_test_\w+ answers, but this Proofdesk does not yet offer its engine on PostgreSQL .*\.$/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(false);
    const db = PostgresDb.connect(database.url);
    try {
      expect(db.prepare("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('a URL that is not postgres:// is wrong usage, exit 2', async () => {
    const result = await cli(['partner', 'list', '--data', dataDir, '--database=mysql://127.0.0.1/records']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^The database URL must start with postgres:\/\//);
  });
});
