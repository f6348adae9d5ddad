/**
 * The engine's two stores, for suites that run on both (describe.each(STORES)): a fresh
 * database of each kind, opened as the engine opens it, and further connections to the same
 * database standing for other processes or `serve` nodes sharing it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../main/engine/database.js';
import { openPostgresDatabase } from '../../main/engine/store/open-postgres.js';
import { createTestDatabase } from './postgres-database.js';

export const STORES = ['sqlite', 'postgres'] as const;
export type StoreKind = (typeof STORES)[number];

export interface EngineStore {
  readonly kind: StoreKind;
  /** Where another process opens it: the data directory on SQLite, the database URL on PostgreSQL. */
  readonly location: string;
  /** Opens another connection to the same database (another process, another node). */
  connect(): Db;
  /** Closes every connection it opened and deletes the database. */
  remove(): void;
}

/** Opens the engine's database of `kind` at `location` (EngineStore.location), as a process of its own does. */
export function connectEngineStore(kind: StoreKind, location: string): Db {
  return kind === 'sqlite' ? openDatabase(location) : openPostgresDatabase(location);
}

/**
 * A fresh, migrated engine database on `kind`; on PostgreSQL with `icuLocale`, one whose text
 * sorts by that locale by default (postgres-database.ts).
 */
export function createEngineStore(kind: StoreKind, options: { icuLocale?: string } = {}): EngineStore {
  const opened: Db[] = [];
  const track = (db: Db) => (opened.push(db), db);
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'proofdesk-store-'));
    return {
      kind,
      location: dir,
      connect: () => track(openDatabase(dir)),
      remove() {
        for (const db of opened) if (db.open) db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = createTestDatabase(options);
  return {
    kind,
    location: database.url,
    connect: () => track(openPostgresDatabase(database.url)),
    remove() {
      for (const db of opened) if (db.open) db.close();
      database.drop();
    },
  };
}
