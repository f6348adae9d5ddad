/**
 * `--database URL` / PROOFDESK_DATABASE_URL on the CLI: an unreachable database is one sentence
 * and exit 3, never a stack trace nor the password, and nothing is written anywhere; a reachable
 * one holds the engine's data, whatever data directory the command names.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../main/engine/database.js';
import { PostgresDb } from '../../main/engine/store/postgres-db.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';
import { runCliChild } from './cli-child.js';

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

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCliChild(args, { PROOFDESK_DATABASE_URL: undefined, ...env });

describe('the CLI with a PostgreSQL database URL', () => {
  it('an unreachable database: one sentence naming it without its password, exit 3', async () => {
    const result = await cli(['partner', 'list', '--data', dataDir, '--database', 'postgres://proofdesk:sekrit@127.0.0.1:1/records']);
    expect(result.code).toBe(3);
    expect(result.err.trim()).toMatch(/^The database 127\.0\.0\.1:1\/records cannot be reached: .*refused.*\.$/);
    expect(result.err.trim().split('\n')).toHaveLength(1);
    expect(result.err).not.toContain('sekrit');
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(false);
  });

  it('a reachable database through PROOFDESK_DATABASE_URL holds the data: a Partner added there is listed by a second data directory on it, no SQLite file is made, and neither claims the local chain', async () => {
    const env = { PROOFDESK_DATABASE_URL: database.url, PROOFDESK_PASSPHRASE: 'correct horse battery staple' };
    const added = await cli(['partner', 'add', '--name', 'University A', '--data', dataDir], env);
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    const otherDir = mkdtempSync(join(tmpdir(), 'proofdesk-database-url-other-'));
    try {
      const listed = await cli(['partner', 'list', '--data', otherDir], env);
      expect(listed.code).toBe(0);
      expect(listed.out).toContain('University A');
      expect(existsSync(join(otherDir, DATABASE_FILE))).toBe(false);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(false);
    const db = PostgresDb.connect(database.url);
    try {
      expect(db.prepare('SELECT name FROM partners').pluck().all()).toEqual(['University A']);
      // The local engine's home is the first data directory to issue on it, not the first to open the database.
      expect(db.prepare('SELECT installation_id FROM local_chain_home').all()).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a URL that is not postgres:// is wrong usage, exit 2', async () => {
    const result = await cli(['partner', 'list', '--data', dataDir, '--database=mysql://127.0.0.1/records']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^The database URL must start with postgres:\/\//);
  });
});
