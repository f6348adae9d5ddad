/**
 * The `local` engine on PostgreSQL belongs to one data directory, the home of the database's local
 * dev chain: the first to use it (to issue on it). Two engines on one database with data
 * directories of their own (two machines). Opening them, adding a Partner and creating
 * credentials claim nothing: both offer `local`. A job scheduled on `local` through one is issued
 * by the other, the lease holder, which so becomes the home; the first then no longer offers
 * `local`, refuses it with wrong_blockchain_engine naming the home, and as issuing lease holder
 * leaves the home's `local` jobs alone (never starting a chain of its own for them), which the
 * home finishes with one transaction each once it holds the lease again; proofs of them
 * downloaded on the other node are the home's, byte for byte. A second engine on the home's data
 * directory offers `local`. "Issue now" claims `local` for the node that issues, not for the one
 * that scheduled the job.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../main/engine/clock.js';
import { readInstallation } from '../../main/engine/proofs/chain-identity.js';
import { SECOND_ENGINE } from '../support/engine-fixture.js';
import {
  addIssuingPartner,
  createAndSchedule,
  createCredentials,
  errorOf,
  expectOk,
  openIssuingEngine,
  removeTempDirs,
  tickUntil,
  type IssuingFixture,
  type IssuingPartner,
} from '../support/issuing-fixture.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';

describe('the local engine on PostgreSQL: one data directory is its home', () => {
  let database: TestDatabase;
  /** The engines' clock, ahead of the wall clock by `ahead` ms (a job comes due without waiting for it). */
  let ahead = 0;
  const clock: Clock = { now: () => Date.now() + ahead };
  let home: IssuingFixture;
  let away: IssuingFixture;
  let partner: IssuingPartner;
  const opened: IssuingFixture[] = [];

  const open = (options: Parameters<typeof openIssuingEngine>[0]): IssuingFixture => {
    const fixture = openIssuingEngine({ engines: [SECOND_ENGINE], clock, databaseUrl: database.url, ...options });
    opened.push(fixture);
    return fixture;
  };
  const jobRow = (uid: string) =>
    home.engine.issuing.ctx.db.prepare('SELECT id, status, waiting, failure, issue_tx FROM jobs WHERE uid = ?').get(uid) as {
      id: number;
      status: string;
      waiting: string | null;
      failure: string | null;
      issue_tx: number | null;
    };
  const awayService = () => away.engine.serviceFor(partner.id);

  const homeRows = () => home.engine.issuing.ctx.db.prepare('SELECT installation_id, node, data_dir FROM local_chain_home').all();

  beforeAll(async () => {
    database = createTestDatabase();
    // The node that is not to be the home opens the database first and adds the Partner.
    away = open({ issuing: { nodeName: 'node-away' } });
    partner = await addIssuingPartner(away.engine, 'Uni Heim', 1);
    home = open({ secrets: away.secrets, issuing: { nodeName: 'node-home' } });
    partner = { ...partner, service: home.engine.serviceFor(partner.id) };
  });

  afterAll(async () => {
    for (const fixture of opened.reverse()) await fixture.close();
    database?.drop();
    removeTempDirs();
  });

  it('opening engines, adding a Partner, creating credentials and listing engines claim nothing: every data directory offers local', async () => {
    await createCredentials(awayService(), 2, 'Unclaimed');
    expect((await awayService().listEngines()).map((e) => e.id)).toEqual(['local', SECOND_ENGINE.id]);
    expect((await partner.service.listEngines()).map((e) => e.id)).toEqual(['local', SECOND_ENGINE.id]);
    expect(homeRows()).toEqual([]);
    expect(readInstallation(away.dataDir)!.installation_id).not.toBe(readInstallation(home.dataDir)!.installation_id);
  });

  it('a job scheduled on local through one node before the claim is issued by the lease holder, which claims local for its data directory; the other node then refuses local naming it', async () => {
    const { job } = await createAndSchedule(awayService(), 'local', 3, 'Scheduled away');
    expect(job.status).toBe('scheduled');
    expect(homeRows()).toEqual([]);
    ahead += 5_000;

    const finished = await tickUntil(home.engine, partner.service, job.uid, 'finished');
    expect(home.engine.issuing.ctx.lease.heldHere).toBe(true);
    const homeId = readInstallation(home.dataDir)!.installation_id;
    expect(homeRows()).toEqual([{ installation_id: homeId, node: 'node-home', data_dir: home.dataDir }]);
    const issueTxs = home.engine.issuing.ctx.db.prepare("SELECT hash FROM chain_txs WHERE engine = 'local' AND purpose = 'issue' ORDER BY id").pluck().all();
    expect(issueTxs).toEqual([finished.transaction!.hash]);
    expect((await awayService().getJob(job.uid)).status).toBe('finished');
    expect(existsSync(join(home.dataDir, 'chain', 'local'))).toBe(true);
    expect(existsSync(join(away.dataDir, 'chain'))).toBe(false);

    // The node that scheduled it learns of the claim at its next use of local.
    expect((await awayService().listEngines()).map((e) => e.id)).toEqual([SECOND_ENGINE.id]);
    expect((await partner.service.listEngines()).map((e) => e.id)).toEqual(['local', SECOND_ENGINE.id]);
    const service = awayService();
    const [credential] = await createCredentials(service, 1, 'Away');
    const refusals = [
      await errorOf(service.scheduleCredentials({ engine: 'local', credentials: [credential!.uid] })),
      await errorOf(service.createAndScheduleCredential('local', { credential_details: { title: 'Away too', metadata: {} } })),
      await errorOf(service.issueJobNow({ engine: 'local' })),
      await errorOf(service.getEngine('local')),
    ];
    for (const error of refusals) {
      expect(error).toMatchObject({ id: 'wrong_blockchain_engine', status: 422 });
      expect(error.message).toContain(`This database's local dev chain is in another data directory (installation ${homeId}, ${home.dataDir} on node-home)`);
      expect(error.message).toContain('to issue from several machines, configure a chain as an engine');
    }
    expect((await service.listJobs({})).items.map((j) => j.uid)).toEqual([job.uid]);
    expect((await service.listCredentials({ per_page: 0 })).items.map((c) => c.title).filter((t) => t.startsWith('Away'))).toEqual(['Away 1']);
  });

  it("a lease holder without local leaves the home's local jobs alone; the home, once it holds the lease, finishes each with one transaction", async () => {
    // A job under way (started, nothing signed yet) and a scheduled one that is due.
    const { job: started } = await createAndSchedule(partner.service, 'local', 4, 'Started');
    home.engine.issuing.issuer.start(jobRow(started.uid).id);
    const { job: due } = await createAndSchedule(partner.service, 'local', 3, 'Due');
    ahead += 5_000;

    home.engine.issuing.ctx.lease.release();
    for (let i = 0; i < 3; i++) await away.engine.issuing.tick();
    expect(away.engine.issuing.ctx.lease.heldHere).toBe(true);
    expect(jobRow(started.uid)).toMatchObject({ status: 'started', waiting: null, failure: null, issue_tx: null });
    expect(jobRow(due.uid)).toMatchObject({ status: 'scheduled', waiting: null, failure: null });
    // The away node never started a local chain of its own for them.
    expect(existsSync(join(away.dataDir, 'chain'))).toBe(false);

    away.engine.issuing.ctx.lease.release();
    const finishedStarted = await tickUntil(home.engine, partner.service, started.uid, 'finished');
    const finishedDue = await tickUntil(home.engine, partner.service, due.uid, 'finished');
    const issueTxs = home.engine.issuing.ctx.db.prepare("SELECT hash FROM chain_txs WHERE engine = 'local' AND purpose = 'issue' ORDER BY id").pluck().all();
    expect(issueTxs.slice(-2)).toEqual([finishedStarted.transaction!.hash, finishedDue.transaction!.hash]);

    // Proofs of them are the same file on either node; the home's chain verifies them, the other node says it does not have it.
    const [certificate] = (await partner.service.listJobCertificates(due.uid, { per_page: 1 })).items;
    const uid = certificate!.certificate.uid;
    const atHome = await partner.service.downloadCertificate(uid);
    expect(await awayService().downloadCertificate(uid)).toBe(atHome);
    expect(JSON.parse(atHome)).toMatchObject({ chain: { engine: 'local', installation_id: readInstallation(home.dataDir)!.installation_id, genesis_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
    expectOk(await partner.service.verifyCertificate(uid), 'at home');
    expect((await awayService().verifyCertificate(uid)).result.status).toBe('pending');

    // Revoking it or unscheduling from the home's job needs the home's chain too: refused, nothing written.
    const { credentials: scheduled } = await createAndSchedule(partner.service, 'local', 1, 'Open');
    for (const refusal of [
      await errorOf(awayService().revokeCertificate(uid)),
      await errorOf(awayService().revokeCredential(certificate!.certificate.credential.uid, 'local')),
      await errorOf(awayService().unscheduleCredential(scheduled[0]!.uid, 'local')),
    ]) {
      expect(refusal).toMatchObject({ id: 'wrong_blockchain_engine', status: 422, message: expect.stringContaining("local dev chain is in another data directory") });
    }
    expect(home.engine.issuing.ctx.db.prepare('SELECT revoked_by, revoke_tx FROM certificates WHERE uid = ?').get(uid)).toEqual({ revoked_by: null, revoke_tx: null });
    const stillScheduled = 'SELECT count(*) FROM job_credentials jc JOIN credentials c ON c.id = jc.credential_id WHERE c.uid = ? AND jc.active = 1';
    expect(Number(home.engine.issuing.ctx.db.prepare(stillScheduled).pluck().get(scheduled[0]!.uid))).toBe(1);
  });

  it("a second engine on the home's data directory (another process on that machine) offers local", async () => {
    const beside = open({ dataDir: home.dataDir, keepDir: true, secrets: home.secrets, issuing: { nodeName: 'node-home' } });
    const service = beside.engine.serviceFor(partner.id);
    expect((await service.listEngines()).map((e) => e.id)).toEqual(['local', SECOND_ENGINE.id]);
    const { job } = await createAndSchedule(service, 'local', 2, 'Beside');
    expect(job.status).toBe('scheduled');
  });
});

describe('"issue now" on local claims it for the data directory that issues, not for the one that scheduled', () => {
  let database: TestDatabase | undefined;
  const opened: IssuingFixture[] = [];

  afterAll(async () => {
    for (const fixture of opened.reverse()) await fixture.close();
    database?.drop();
    removeTempDirs();
  });

  it('the node issuing now becomes the home; the node that scheduled the job then refuses local', async () => {
    database = createTestDatabase();
    const scheduling = openIssuingEngine({ databaseUrl: database.url, issuing: { nodeName: 'node-a' } });
    opened.push(scheduling);
    const partner = await addIssuingPartner(scheduling.engine, 'Uni Jetzt');
    const issuing = openIssuingEngine({ databaseUrl: database.url, secrets: scheduling.secrets, issuing: { nodeName: 'node-b' } });
    opened.push(issuing);
    const rows = () => scheduling.engine.issuing.ctx.db.prepare('SELECT installation_id, node FROM local_chain_home').all();

    await createAndSchedule(partner.service, 'local', 2, 'Now');
    expect(rows()).toEqual([]);
    const service = issuing.engine.serviceFor(partner.id);
    const job = await service.issueJobNow({ engine: 'local' });
    await tickUntil(issuing.engine, service, job.uid, 'finished');
    expect(rows()).toEqual([{ installation_id: readInstallation(issuing.dataDir)!.installation_id, node: 'node-b' }]);

    expect((await partner.service.listEngines()).map((e) => e.id)).toEqual([]);
    expect(await errorOf(partner.service.issueJobNow({ engine: 'local' }))).toMatchObject({
      id: 'wrong_blockchain_engine',
      status: 422,
      message: expect.stringContaining(`in another data directory (installation ${readInstallation(issuing.dataDir)!.installation_id}, ${issuing.dataDir} on node-b)`),
    });
    expect(existsSync(join(scheduling.dataDir, 'chain'))).toBe(false);
  });
});
