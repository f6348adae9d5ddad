/**
 * The behaviour suites against the embedded engine with its database on PostgreSQL (a fresh
 * database of the test cluster per context): the same behaviour as on SQLite, part 1 (files,
 * credentials, tags, scheduling, jobs) and part 2 (issuing on the local chain, certificates,
 * verification, revocation).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ServiceError } from '../../common/errors.js';
import type { CreateAndScheduleRequest } from '../../common/requests.js';
import type { Credential } from '../../common/wire-types.js';
import type { EmbeddedService } from '../../main/engine/index.js';
import { DATABASE_FILE } from '../../main/engine/database.js';
import { PostgresDb } from '../../main/engine/store/postgres-db.js';
import { embeddedLifecycleContext } from '../remote/lifecycle-contexts.js';
import { embeddedContext } from '../support/engine-fixture.js';
import type { StoreKind } from '../support/engine-stores.js';
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

/** What a batch of create-and-schedule requests answers, uids left out (random). */
async function bulkOutcomes(store: StoreKind): Promise<unknown[]> {
  const ctx = await embeddedContext({ store });
  try {
    const service = ctx.serviceA as EmbeddedService;
    const text = (t: string) => ({ data: new TextEncoder().encode(t), name: `${t}.txt` });
    const earlier = await service.createCredential({ title: 'Earlier', metadata: { n: 0 } });
    const requests: CreateAndScheduleRequest[] = [
      { file: text('one'), credential_details: { title: 'One', metadata: { n: 1 }, tags: ['bulk'] } },
      { file: text('one'), credential_details: { title: 'One again', metadata: {} } },
      { file: text('one'), credential_details: { title: 'One allowed', metadata: {}, ignore_duplicate: 'true' } },
      { credential_details: { title: 'Metadata only', metadata: { n: 2 }, tags: ['bulk', 'year-2026'], expiry_date: '2999-01-01' } },
      { file: text('two'), credential_details: { title: 'Links nobody', metadata: {}, credentials: ['01a2032a-4433-77f4-9fc2-3039f92839d7'] } },
      { file: text('two'), credential_details: { title: 'Two', metadata: {}, credentials: [earlier.uid] } },
      { credential_details: { title: 'Expired', metadata: { n: 3 }, expiry_date: '2001-01-01' } },
    ];
    const outcomes = await service.createAndScheduleCredentials('local', requests);
    const made = await service.createCredentials([
      { title: 'Bulk A', metadata: { n: 4 }, tags: ['desk'] },
      { title: 'Bulk B', metadata: { n: 5 }, credentials: [earlier.uid] },
    ]);
    const refused = await service.createCredentials([{ title: 'Bulk C', metadata: { n: 6 } }, { title: 'Bulk D', metadata: {} }]).catch((error: unknown) => error as ServiceError);
    const listed = await service.listCredentials({ per_page: 0 });
    const plain = (c: Credential) => ({ ...c, uid: 'u', credentials: c.credentials.map((l) => ({ ...l, uid: 'u' })) });
    return [
      ...outcomes.map((o) => (o.error ? { error: o.error.id, status: o.error.status, message: o.error.message } : plain(o.credential))),
      made.map(plain),
      refused instanceof Error ? { error: (refused as ServiceError).id } : 'not refused',
      listed.items.map((c) => c.title),
    ];
  } finally {
    await ctx.close();
  }
}

it('the bulk paths of the app and the intake (create-and-schedule many, create many) answer on PostgreSQL as on SQLite', async () => {
  const onSqlite = await bulkOutcomes('sqlite');
  expect(onSqlite.slice(0, 7).map((o) => (o as { error?: string }).error ?? 'created')).toEqual([
    'created',
    'file_already_exists',
    'created',
    'created',
    'missing_credential',
    'created',
    'invalid_expiry_date',
  ]);
  expect(onSqlite[8]).toEqual({ error: 'missing_file_and_metadata' });
  expect(await bulkOutcomes('postgres')).toEqual(onSqlite);
});
