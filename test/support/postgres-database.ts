/**
 * A fresh, empty PostgreSQL database for one test file, in the run's throwaway cluster
 * (postgres-cluster.ts): created at once, dropped by `drop()` (call it in afterAll).
 */
import { randomBytes } from 'node:crypto';
import { PostgresDb } from '../../main/engine/store/postgres-db.js';

export interface TestDatabase {
  /** The database's URL, for PostgresDb.connect or PROOFDESK_DATABASE_URL. */
  url: string;
  /** Drops the database, ending any connection still open to it. */
  drop(): void;
}

/** The cluster's superuser URL, set by the integration tests' globalSetup. */
export function testClusterUrl(): string {
  const url = process.env.PROOFDESK_TEST_DATABASE_URL;
  if (!url) throw new Error('PROOFDESK_TEST_DATABASE_URL is not set: PostgreSQL tests run in the integration project, whose globalSetup starts the cluster');
  return url;
}

/**
 * Creates an empty database of its own for the calling test file; with `icuLocale`, its default
 * collation is that ICU locale's (an operator's database sorts text by a real locale, not by bytes).
 */
export function createTestDatabase(options: { icuLocale?: string } = {}): TestDatabase {
  const clusterUrl = testClusterUrl();
  const name = `proofdesk_test_${randomBytes(6).toString('hex')}`;
  const admin = PostgresDb.connect(clusterUrl);
  try {
    const locale = options.icuLocale === undefined ? '' : ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale}'`;
    admin.exec(`CREATE DATABASE ${name}${locale}`);
  } finally {
    admin.close();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop() {
      const again = PostgresDb.connect(clusterUrl);
      try {
        again.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        again.close();
      }
    },
  };
}
