/**
 * The word-search index kept off the path that creates credentials, on real SQLite files: a
 * create only queues its credentials, a search indexes whatever waits before it reads, and a
 * long-running engine indexes the queue in the background while no job issues (a real job on
 * the local anvil). Deletions, two processes on one data directory, an upgrade, and processes
 * killed before and while indexing.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RECORD_SORT } from '../../common/records.js';
import type { JobStatus } from '../../common/wire-types.js';
import { BackgroundIndexer, type IndexerPause } from '../../main/engine/background-indexer.js';
import { DATABASE_FILE } from '../../main/engine/database.js';
import { Engine } from '../../main/engine/index.js';
import { MIGRATIONS } from '../../main/engine/migrations.js';
import { compressPayload } from '../../main/engine/proofs/payload-codec.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { indexPendingCredentials } from '../../main/engine/search-index.js';
import { recordWindow } from '../../main/workspace/record-query.js';
import { makeTempDir, openEngine, openEngineWithPartner, type EngineFixture } from '../support/engine-fixture.js';
import { addIssuingPartner, createAndSchedule, createCredentials, jsonLines, openIssuingEngine, removeTempDirs, runTsChild, setAutomine, tickUntil } from '../support/issuing-fixture.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  removeTempDirs();
});

/** How many of the Partner's credentials a word search finds (the records view's total). */
const found = (scope: PartnerScope, search: string) => recordWindow(scope, { filter: { search }, sort: DEFAULT_RECORD_SORT, offset: 0, limit: 10 }).total;

/** How many credentials wait for the search index. */
const waiting = (scope: PartnerScope) => scope.db.prepare('SELECT count(*) FROM credentials_unindexed').pluck().get() as number;

/** Resolves at the indexer's next pause for `why`. */
function nextPause(indexer: BackgroundIndexer, why: IndexerPause): Promise<void> {
  return new Promise((resolve) => {
    const stop = indexer.onPause((pause) => {
      if (pause !== why) return;
      stop();
      resolve();
    });
  });
}

/** How many credentials the indexer's chunks indexed, from now on. */
function countChunks(indexer: BackgroundIndexer): { indexed: number; chunks: number } {
  const tally = { indexed: 0, chunks: 0 };
  indexer.onChunk((indexed) => {
    tally.indexed += indexed;
    tally.chunks++;
  });
  return tally;
}

function openWithPartner(): { fixture: EngineFixture; scope: PartnerScope; service: ReturnType<Engine['serviceFor']> } {
  const { fixture, partner, scope } = openEngineWithPartner();
  cleanups.push(() => fixture.close());
  return { fixture, scope, service: partner.service };
}

describe('the search index on SQLite, kept off the create path', () => {
  it('a create only queues its credentials, and the search right after finds every one and empties the queue', async () => {
    const { scope, service } = openWithPartner();
    await service.createCredential({ title: 'Single', metadata: { animal: 'Wallaby' } });
    await service.createCredentials([1, 2, 3].map((n) => ({ title: `Bulk ${n}`, metadata: { animal: { name: 'wallaby' } } })));
    expect(waiting(scope)).toBe(4);
    expect(found(scope, 'wallab')).toBe(4);
    expect(waiting(scope)).toBe(0);
    expect(found(scope, 'bulk')).toBe(3);
  });

  it('indexes a queue longer than a chunk, chunk after chunk, and with nothing queued indexes nothing', async () => {
    const { scope, service } = openWithPartner();
    await createCredentials(service, 250, 'Bandicoot');
    expect(indexPendingCredentials(scope.db, 100)).toBe(250);
    expect(waiting(scope)).toBe(0);
    expect(indexPendingCredentials(scope.db, 100)).toBe(0);
    expect(found(scope, 'bandicoot')).toBe(250);
  });

  it('a credential deleted while it waits is neither indexed nor found; the next one, given its id, is found by its own words', async () => {
    const { scope, service } = openWithPartner();
    await service.createCredential({ title: 'Kept', metadata: { n: 1 } });
    const gone = await service.createCredential({ title: 'Numbat', metadata: { n: 2 } });
    const idOf = (uid: string) => scope.db.prepare('SELECT id FROM credentials WHERE uid = ?').pluck().get(uid) as number;
    const goneId = idOf(gone.uid);
    await service.scheduleCredentials({ engine: 'local', credentials: [gone.uid] });
    // Unscheduling a credential nothing else holds deletes it.
    await service.unscheduleCredential(gone.uid, 'local');
    expect(scope.db.prepare('SELECT id FROM credentials_unindexed').pluck().all()).not.toContain(goneId);
    const next = await service.createCredential({ title: 'Bilby', metadata: { n: 3 } });
    // Row ids have no AUTOINCREMENT: the largest one comes back after a delete.
    expect(idOf(next.uid)).toBe(goneId);
    expect(found(scope, 'numbat')).toBe(0);
    expect(found(scope, 'bilby')).toBe(1);
    expect(found(scope, 'kept')).toBe(1);
  });

  it('two engines on one data directory, indexing at once, index each credential once', async () => {
    const { fixture, scope, service } = openWithPartner();
    await createCredentials(service, 3_000, 'Quokka');
    const other = Engine.open({ dataDir: fixture.dataDir, sweepIntervalMs: false });
    cleanups.push(() => other.close());
    const otherScope = other.scopeFor(scope.partner.id);
    // Small chunks, at once: the two connections' write transactions take turns.
    const indexers = [new BackgroundIndexer(scope.db, fixture.engine.events, { chunk: 250, settleMs: 0 }), new BackgroundIndexer(otherScope.db, other.events, { chunk: 250, settleMs: 0 })];
    for (const indexer of indexers) cleanups.push(() => indexer.stop());
    const tallies = indexers.map(countChunks);
    await Promise.all(indexers.map((indexer) => nextPause(indexer, 'done')));
    expect(tallies[0]!.chunks).toBeGreaterThan(0);
    expect(tallies[1]!.chunks).toBeGreaterThan(0);
    expect(tallies[0]!.indexed + tallies[1]!.indexed).toBe(3_000);
    expect(waiting(scope)).toBe(0);
    expect(found(scope, 'quokka')).toBe(3_000);
    expect(found(otherScope, 'holder')).toBe(3_000);
  });

  it('after the upgrade from the schema before, finds what was indexed before and what is created after, each once', async () => {
    const dataDir = makeTempDir();
    const before = MIGRATIONS.length - 1;
    const old = new Database(join(dataDir, DATABASE_FILE));
    old.function('proofdesk_compress_payload', { deterministic: true }, (text, dictionary) => compressPayload(text as string, dictionary as Buffer));
    for (const migration of MIGRATIONS.slice(0, before)) old.exec(migration);
    old.pragma(`user_version = ${before}`);
    old.prepare("INSERT INTO partners (id, name, client_id, secret_hash, issuing_interval_s, created_date, number) VALUES ('p1', 'Old', 'cid', 'hash', 3600, 0, 1)").run();
    // As a create wrote it before: the row and its words in the index, in one transaction.
    old.transaction(() => {
      const id = old.prepare(`INSERT INTO credentials (uid, partner_id, title, metadata, upload_date, tags) VALUES ('0190a000-0000-7000-8000-000000000001', 'p1', 'Old diploma', '{"student":"Ada Lovelace"}', 0, '[]')`).run().lastInsertRowid;
      old.prepare("INSERT INTO credentials_fts (rowid, partner, title, meta) VALUES (?, 'p' || hex('p1'), 'Old diploma', 'Ada Lovelace')").run(id);
    })();
    old.close();
    const fixture = openEngine({ dataDir });
    cleanups.push(() => fixture.close());
    const scope = fixture.engine.scopeFor('p1');
    expect(waiting(scope)).toBe(0);
    const service = fixture.engine.serviceFor('p1');
    await service.createCredentials([{ title: 'New diploma', metadata: { student: 'Grace Hopper' } }]);
    expect(waiting(scope)).toBe(1);
    expect(found(scope, 'lovelace')).toBe(1);
    expect(found(scope, 'hopper')).toBe(1);
    expect(found(scope, 'diploma')).toBe(2);
    expect(waiting(scope)).toBe(0);
  });

  /** A child process creates 40 credentials and is killed with SIGKILL at `when`; the scope of its Partner, reopened here. */
  async function afterKill(when: 'created' | 'indexing'): Promise<PartnerScope> {
    const dataDir = makeTempDir();
    const child = await runTsChild('test/workspace/fixtures/create-then-killed.ts', [dataDir, '40', when], process.env);
    expect(child.signal).toBe('SIGKILL');
    const partnerId = jsonLines<{ partner_id: string }>(child.stdout)[0]?.partner_id;
    const fixture = openEngine({ dataDir });
    cleanups.push(() => fixture.close());
    return fixture.engine.scopeFor(partnerId!);
  }

  it('a process killed after its create commits leaves the credentials waiting, and the next search finds them', async () => {
    const scope = await afterKill('created');
    expect(waiting(scope)).toBe(40);
    expect(found(scope, 'kangaroo')).toBe(40);
    expect(waiting(scope)).toBe(0);
  });

  it('a process killed in the middle of a chunk leaves none of it indexed, and the next search indexes each credential once', async () => {
    const scope = await afterKill('indexing');
    expect(waiting(scope)).toBe(40);
    expect(scope.db.prepare("SELECT count(*) FROM credentials_fts WHERE credentials_fts MATCH 'kangaroo'").pluck().get()).toBe(0);
    expect(found(scope, 'kangaroo')).toBe(40);
  });
});

describe('the search index on SQLite, indexed in the background of a long-running engine', () => {
  it('takes up the queue a one-shot process left, as the engine opens', async () => {
    const { fixture, scope, service } = openWithPartner();
    await createCredentials(service, 120, 'Echidna');
    const app = Engine.open({ dataDir: fixture.dataDir, sweepIntervalMs: false, indexInBackground: true });
    cleanups.push(() => app.close());
    const indexer = app.backgroundIndexer!;
    const tally = countChunks(indexer);
    await nextPause(indexer, 'done');
    expect(tally.indexed).toBe(120);
    expect(waiting(scope)).toBe(0);
    expect(found(app.scopeFor(scope.partner.id), 'echidna')).toBe(120);
  });

  it('waits while a job issues on the local chain, and indexes the queue once it is finished', async () => {
    const fx = openIssuingEngine({ indexInBackground: true });
    cleanups.push(() => fx.close());
    const { engine } = fx;
    const indexer = engine.backgroundIndexer!;
    const partner = await addIssuingPartner(engine, 'Platypus University');
    const scope = engine.scopeFor(partner.id);
    const chain = await engine.issuing.ctx.chains.client('local');
    // A first job deploys the Partner's registry; the second one then waits, started, for its block.
    const first = await createAndSchedule(partner.service, 'local', 20, 'Platypus');
    await tickUntil(engine, partner.service, (await partner.service.issueJobNow({ engine: 'local' })).uid, 'finished');
    await setAutomine(chain.rpcUrl, false);
    // Each chunk with the status of the job issuing when it ran.
    let status: JobStatus | undefined;
    const chunksAt: (JobStatus | undefined)[] = [];
    const second = await createAndSchedule(partner.service, 'local', 20, 'Koala');
    const started = new Promise<void>((resolve) => {
      cleanups.push(
        engine.events.subscribe((event) => {
          if (event.type !== 'job-state' || event.jobUid !== second.job.uid) return;
          status = event.to;
          if (event.to === 'started') resolve();
        }),
      );
    });
    indexer.onChunk(() => chunksAt.push(status));
    await partner.service.issueJobNow({ engine: 'local' });
    await started;
    expect(indexer.paused).toBe(true);
    const issuing = nextPause(indexer, 'issuing');
    await createCredentials(partner.service, 300, 'Wombat');
    await issuing;
    expect(waiting(scope)).toBeGreaterThanOrEqual(300);
    const done = nextPause(indexer, 'done');
    await setAutomine(chain.rpcUrl, true);
    await chain.mine();
    await tickUntil(engine, partner.service, second.job.uid, 'finished');
    await done;
    expect(chunksAt.filter((at) => at === 'started' || at === 'unconfirmed')).toEqual([]);
    expect(chunksAt).toContain('finished');
    expect(waiting(scope)).toBe(0);
    expect(found(scope, 'wombat')).toBe(300);
    expect(found(scope, 'koala')).toBe(20);
    expect(found(scope, 'platypus')).toBe(first.credentials.length);
  });
});
