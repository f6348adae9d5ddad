/**
 * The behaviour suites against the embedded engine with its database on PostgreSQL (a fresh
 * database of the test cluster per context): the same behaviour as on SQLite, part 1 (files,
 * credentials, tags, scheduling, jobs) and part 2 (issuing on the local chain, certificates,
 * verification, revocation).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DATABASE_FILE } from '../../main/engine/database.js';
import { PostgresDb } from '../../main/engine/store/postgres-db.js';
import { embeddedLifecycleContext } from '../remote/lifecycle-contexts.js';
import { embeddedContext } from '../support/engine-fixture.js';
import { describeIssuingLifecycle } from './issuing-lifecycle.suite.js';
import { describeIssuingService } from './issuing-service.suite.js';

describeIssuingService('embedded engine on PostgreSQL', () => embeddedContext({ store: 'postgres' }));
describeIssuingLifecycle('embedded engine on PostgreSQL', () => embeddedLifecycleContext('postgres'));

it('the engine of this suite keeps its records in the PostgreSQL database, not in a SQLite file of the data directory', async () => {
  const ctx = await embeddedContext({ store: 'postgres' });
  try {
    const made = await ctx.serviceA.createCredential({ title: 'Where am I', metadata: { a: 1 } });
    const db = PostgresDb.connect(ctx.fixture.databaseUrl!);
    try {
      expect(db.prepare('SELECT title FROM credentials WHERE uid = ?').all(made.uid)).toEqual([{ title: 'Where am I' }]);
    } finally {
      db.close();
    }
    expect(existsSync(join(ctx.fixture.dataDir, DATABASE_FILE))).toBe(false);
  } finally {
    await ctx.close();
  }
});
