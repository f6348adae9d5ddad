/**
 * The activity log kept compactly (the Partner by its number, uids as 16 bytes): a database
 * written by the schema before, on each store, holds its entries after the migration, every one
 * read back through the listing as it was written (uids the engine would not make too), with the
 * listing's filters, orders and the Partner's scope; new entries follow them, and the log still refuses to be edited.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../common/activity.js';
import { formatDate } from '../../common/validate.js';
import { listActivity, recordPartnerActivity } from '../../main/engine/activity.js';
import { ManualClock } from '../../main/engine/clock.js';
import { DATABASE_FILE, openDatabase, type Db } from '../../main/engine/database.js';
import { EngineCatalog } from '../../main/engine/engine-catalog.js';
import { MIGRATIONS } from '../../main/engine/migrations.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import { compressPayload } from '../../main/engine/proofs/payload-codec.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { migratePostgres, openPostgresDatabase } from '../../main/engine/store/open-postgres.js';
import { PostgresDb } from '../../main/engine/store/postgres-db.js';
import { POSTGRES_MIGRATIONS } from '../../main/engine/store/postgres-migrations.js';
import { STORES, type StoreKind } from '../support/engine-stores.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';

const DAY = Date.UTC(2026, 4, 4, 9);
const MINUTE = 60_000;
const UNI = { id: '6f1c2a3b-4d5e-4f60-8a71-b2c3d4e5f607', name: 'Old University' };
const OTHER = { id: '0a0b0c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d', name: 'Other College' };
const CREDENTIAL = ['0190a000-0000-7000-8000-00000000000a', '0190a000-0000-7000-8000-00000000000b'] as const;
const JOB = '0190a000-0000-7000-8000-0000000000c1';
const CERTIFICATE = '0190a000-0000-7000-8000-0000000000d1';
const TX = `0x${'ab'.repeat(32)}`;

/** An entry as the schema before stored it, and so as the listing must give it back. */
type Written = Omit<ActivityEntry, 'id' | 'date'> & { partner: string; date: number };

const entry = (partner: string, minutes: number, kind: ActivityEntry['kind'], fields: Partial<Written> = {}): Written => ({
  partner,
  date: DAY + minutes * MINUTE,
  kind,
  actor: 'registrar',
  engine: null,
  credential_uid: null,
  // No credentials are written: no entry has a title to show.
  credential_title: null,
  job_uid: null,
  certificate_uid: null,
  detail: null,
  ...fields,
});

// Dates out of id order (an issued entry has its block's time), so the date order is its own.
const WRITTEN: Written[] = [
  entry(UNI.id, 0, 'created', { credential_uid: CREDENTIAL[0] }),
  entry(UNI.id, 0, 'created', { credential_uid: CREDENTIAL[1] }),
  entry(OTHER.id, 1, 'keys_exported'),
  entry(UNI.id, 2, 'tagged', { credential_uid: CREDENTIAL[0], detail: { tags: ['cs2026'], added: ['cs2026'], removed: [] } }),
  entry(UNI.id, 3, 'scheduled', { engine: 'local', credential_uid: CREDENTIAL[0], job_uid: JOB }),
  entry(UNI.id, 3, 'scheduled', { engine: 'local', credential_uid: CREDENTIAL[1], job_uid: JOB }),
  entry(UNI.id, 9, 'issued', { actor: 'scheduler', engine: 'local', credential_uid: CREDENTIAL[0], job_uid: JOB, certificate_uid: CERTIFICATE, detail: { transaction: TX } }),
  entry(UNI.id, 8, 'unscheduled', { engine: 'local', credential_uid: CREDENTIAL[1], job_uid: JOB, detail: { credential_deleted: false } }),
  entry(UNI.id, 10, 'exported', { engine: 'local', credential_uid: CREDENTIAL[0], job_uid: JOB, certificate_uid: CERTIFICATE, detail: { format: 'proof' } }),
  // Uids the engine would not make (another tool's rows) are kept as the text they are.
  entry(UNI.id, 11, 'revoked', { engine: 'local', credential_uid: CREDENTIAL[0].toUpperCase(), job_uid: 'job 7', certificate_uid: `${CERTIFICATE}-x`, detail: { transaction: TX } }),
];

/** The SQLite migration (its number) that made the log compact: the database is written at the schema before it. */
const COMPACT_LOG_MIGRATION = 14;

const INSERT_BEFORE =
  'INSERT INTO activity (partner_id, date, kind, actor, engine, credential_uid, job_uid, certificate_uid, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';

/** Writes the two Partners and the entries into `db`, at the schema before; returns the entries' ids in order. */
function writeBefore(db: Db): number[] {
  for (const [i, p] of [UNI, OTHER].entries()) {
    db.prepare('INSERT INTO partners (id, name, client_id, secret_hash, issuing_interval_s, created_date) VALUES (?, ?, ?, ?, ?, ?)').run(p.id, p.name, `client-${i}`, 'hash', 60, DAY);
  }
  for (const e of WRITTEN) {
    db.prepare(INSERT_BEFORE).run(e.partner, e.date, e.kind, e.actor, e.engine, e.credential_uid, e.job_uid, e.certificate_uid, e.detail && JSON.stringify(e.detail));
  }
  return db.prepare('SELECT id FROM activity ORDER BY id').pluck().all() as number[];
}

/** A database of `kind` at the schema before this one with the entries written; opened after as the engine opens it. */
interface OldDatabase {
  ids: number[];
  open(): Db;
  remove(): void;
}

function oldDatabase(kind: StoreKind): OldDatabase {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'proofdesk-activity-migration-'));
    const old = new Database(join(dir, DATABASE_FILE));
    old.function('proofdesk_compress_payload', { deterministic: true }, (text, dictionary) => compressPayload(text as string, dictionary as Buffer));
    for (const migration of MIGRATIONS.slice(0, COMPACT_LOG_MIGRATION - 1)) old.exec(migration);
    old.pragma(`user_version = ${COMPACT_LOG_MIGRATION - 1}`);
    const ids = writeBefore(old);
    old.close();
    return { ids, open: () => openDatabase(dir), remove: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const database: TestDatabase = createTestDatabase();
  const old = PostgresDb.connect(database.url);
  migratePostgres(old, POSTGRES_MIGRATIONS.slice(0, -1));
  const ids = writeBefore(old);
  old.close();
  return { ids, open: () => openPostgresDatabase(database.url), remove: () => database.drop() };
}

function scopeOf(db: Db, partner: { id: string; name: string }, clock = new ManualClock(DAY + 60 * MINUTE)): PartnerScope {
  return { db, partner, clock, actor: 'registrar', catalog: new EngineCatalog() } as unknown as PartnerScope;
}

describe.each(STORES)('the activity log written before it was kept compactly, on %s', (kind) => {
  let old: OldDatabase;
  let db: Db;
  let expected: ActivityEntry[];

  beforeAll(() => {
    old = oldDatabase(kind);
    db = old.open();
    expected = WRITTEN.map(({ partner: _, date, ...rest }, i) => ({ id: old.ids[i]!, date: formatDate(date), ...rest }));
  });

  afterAll(() => {
    db?.close();
    old?.remove();
  });

  const mine = () => expected.filter((_, i) => WRITTEN[i]!.partner === UNI.id);

  it('lists every entry of each Partner as it was written, to its Partner only', () => {
    expect(listActivity(scopeOf(db, UNI), { per_page: 0 }).items).toEqual(mine());
    expect(listActivity(scopeOf(db, OTHER), { per_page: 0 }).items).toEqual(expected.filter((_, i) => WRITTEN[i]!.partner === OTHER.id));
    if (kind === 'sqlite') {
      // What makes them compact: a uid the engine made in 16 bytes, the Partner as a number.
      const stored = db.prepare("SELECT typeof(partner) AS partner, typeof(job_uid) AS job, length(job_uid) AS bytes FROM activity WHERE kind = 'scheduled'").all();
      expect(stored).toEqual([{ partner: 'integer', job: 'blob', bytes: 16 }, { partner: 'integer', job: 'blob', bytes: 16 }]);
    }
  });

  it('finds them by credential, job, kind and date, newest first and by date, a page at a time', () => {
    const uni = scopeOf(db, UNI);
    const ids = (page: { items: ActivityEntry[] }) => page.items.map((e) => e.id);
    const idsOf = (keep: (e: ActivityEntry) => boolean) => mine().filter(keep).map((e) => e.id);
    expect(ids(listActivity(uni, { credential_uid: CREDENTIAL[1].toUpperCase(), per_page: 0 }))).toEqual(idsOf((e) => e.credential_uid === CREDENTIAL[1]));
    expect(ids(listActivity(uni, { job_uid: JOB, per_page: 0 }))).toEqual(idsOf((e) => e.job_uid === JOB));
    expect(ids(listActivity(uni, { kind: 'issued,exported', per_page: 0 }))).toEqual(idsOf((e) => e.kind === 'issued' || e.kind === 'exported'));
    expect(ids(listActivity(uni, { date_from: formatDate(DAY + 3 * MINUTE), date_until: formatDate(DAY + 9 * MINUTE), per_page: 0 }))).toEqual(
      idsOf((e) => e.date >= formatDate(DAY + 3 * MINUTE) && e.date <= formatDate(DAY + 9 * MINUTE)),
    );
    expect(ids(listActivity(uni, { order: 'desc', per_page: 0 }))).toEqual(idsOf(() => true).reverse());
    const byDate = [...mine()].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id).map((e) => e.id);
    expect(ids(listActivity(uni, { sort_by: 'date', per_page: 0 }))).toEqual(byDate);
    expect(ids(listActivity(uni, { credential_uid: CREDENTIAL[0], sort_by: 'date', per_page: 0 }))).toEqual(
      byDate.filter((id) => mine().find((e) => e.id === id)!.credential_uid === CREDENTIAL[0]),
    );
    const second = listActivity(uni, { per_page: 3, page: 2 });
    expect({ total: second.total_items, ids: ids(second) }).toEqual({ total: mine().length, ids: idsOf(() => true).slice(3, 6) });
    expect(listActivity(scopeOf(db, OTHER), { credential_uid: CREDENTIAL[0], per_page: 0 }).items).toEqual([]);
  });

  it('logs new entries after them, a new Partner with its own, and refuses to change or delete any', () => {
    const added = new PartnerRegistry(db, new ManualClock(DAY)).add({ name: 'New Academy' });
    const newcomer = scopeOf(db, { id: added.partner_id, name: 'New Academy' });
    recordPartnerActivity(newcomer, 'keys_exported');
    recordPartnerActivity(scopeOf(db, UNI), 'keys_restored');
    const theirs = listActivity(newcomer, { per_page: 0 }).items;
    expect(theirs.map((e) => ({ kind: e.kind, actor: e.actor, credential_uid: e.credential_uid }))).toEqual([{ kind: 'keys_exported', actor: 'registrar', credential_uid: null }]);
    const ours = listActivity(scopeOf(db, UNI), { per_page: 0 }).items;
    expect(ours.slice(0, -1)).toEqual(mine());
    expect(ours.at(-1)!).toMatchObject({ kind: 'keys_restored' });
    expect(ours.at(-1)!.id).toBeGreaterThan(theirs[0]!.id);
    expect(() => db.prepare("UPDATE activity SET actor = 'someone else'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM activity').run()).toThrow(/append-only/);
    expect(listActivity(scopeOf(db, UNI), { per_page: 0 }).items).toEqual(ours);
  });
});
