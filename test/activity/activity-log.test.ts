/**
 * The activity log after a scripted day through the real engine (SQLite, a real anvil): what
 * was created, tagged, scheduled, unscheduled, issued, revoked and exported, by whom and on
 * which chain — read back through `activity list` as a user would — and the log refuses to be
 * edited.
 */
import Database from 'better-sqlite3';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../common/activity.js';
import type { Page } from '../../common/wire-types.js';
import { cliInProcess as cli } from '../support/cli-in-process.js';
import { addIssuingPartner, createCredentials, issueNowAndFinish, openIssuingEngine, removeTempDirs, type IssuingFixture } from '../support/issuing-fixture.js';

const ME = userInfo().username;

describe('the activity log of a scripted day (real engine, real anvil)', () => {
  let fx: IssuingFixture;
  const day = {} as {
    uids: string[];
    titles: string[];
    jobUid: string;
    tx: string;
    revokeTx: string;
    certificates: Map<string, string>;
  };

  beforeAll(async () => {
    fx = openIssuingEngine({ keepDir: true });
    const partner = await addIssuingPartner(fx.engine, 'Activity University');
    const service = partner.service;
    const credentials = await createCredentials(service, 3, 'Diploma');
    day.uids = credentials.map((c) => c.uid);
    day.titles = credentials.map((c) => c.title);
    await service.addCredentialTags({ credentials: [{ credential_uid: day.uids[0]!, tags: ['cs2026'] }] });
    await service.scheduleCredentials({ engine: 'local', credentials: day.uids });
    await service.unscheduleCredential(day.uids[2]!, 'local');
    const job = await issueNowAndFinish(fx.engine, service, 'local');
    day.jobUid = job.uid;
    day.certificates = (await service.jobCertificateUids(job.uid))!;
    await service.revokeCredential(day.uids[0]!, 'local');
    await service.downloadCertificate(day.certificates.get(day.uids[1]!)!);
    const db = new Database(join(fx.dataDir, 'proofdesk.sqlite'), { readonly: true });
    try {
      day.tx = db.prepare("SELECT hash FROM chain_txs WHERE purpose = 'issue'").pluck().get() as string;
      day.revokeTx = db.prepare("SELECT hash FROM chain_txs WHERE purpose = 'revoke'").pluck().get() as string;
    } finally {
      db.close();
    }
    await fx.close();
  }, 120_000);

  afterAll(async () => {
    await fx?.close();
    removeTempDirs();
  });

  async function list(...args: string[]): Promise<Page<ActivityEntry>> {
    const run = await cli('activity', 'list', '--data', fx.dataDir, '--json', '--per-page', '0', ...args);
    expect(run.code, run.err).toBe(0);
    return JSON.parse(run.out) as Page<ActivityEntry>;
  }

  it('`activity list` gives what happened, in order, with who did it, the chain and the transactions', async () => {
    const [a, b, c] = day.uids as [string, string, string];
    const entries = (await list()).items.map(({ kind, actor, engine, credential_uid, job_uid, certificate_uid, detail }) => ({ kind, actor, engine, credential_uid, job_uid, certificate_uid, detail }));
    const none = { engine: null, job_uid: null, certificate_uid: null };
    expect(entries).toEqual([
      { kind: 'created', actor: ME, credential_uid: a, detail: null, ...none },
      { kind: 'created', actor: ME, credential_uid: b, detail: null, ...none },
      { kind: 'created', actor: ME, credential_uid: c, detail: null, ...none },
      { kind: 'tagged', actor: ME, credential_uid: a, detail: { tags: ['cs2026'], added: ['cs2026'], removed: [] }, ...none },
      ...[a, b, c].map((uid) => ({ kind: 'scheduled', actor: ME, engine: 'local', credential_uid: uid, job_uid: day.jobUid, certificate_uid: null, detail: null })),
      { kind: 'unscheduled', actor: ME, engine: 'local', credential_uid: c, job_uid: day.jobUid, certificate_uid: null, detail: { credential_deleted: true } },
      ...[a, b].map((uid) => ({ kind: 'issued', actor: ME, engine: 'local', credential_uid: uid, job_uid: day.jobUid, certificate_uid: day.certificates.get(uid), detail: { transaction: day.tx } })),
      { kind: 'revoked', actor: ME, engine: 'local', credential_uid: a, job_uid: day.jobUid, certificate_uid: day.certificates.get(a), detail: { transaction: day.revokeTx } },
      { kind: 'exported', actor: ME, engine: 'local', credential_uid: b, job_uid: day.jobUid, certificate_uid: day.certificates.get(b), detail: { format: 'proof' } },
    ]);
    expect(day.tx).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('answers "what did we issue, and who revoked this?" through the filters', async () => {
    const [a, b] = day.uids as [string, string];
    expect((await list('--kind', 'issued')).items.map((e) => e.credential_uid)).toEqual([a, b]);
    expect((await list('--kind', 'revoked', '--credential', a)).items.map((e) => [e.actor, e.detail?.transaction])).toEqual([[ME, day.revokeTx]]);
    expect((await list('--credential', a)).items.map((e) => e.kind)).toEqual(['created', 'tagged', 'scheduled', 'issued', 'revoked']);
    expect((await list('--job', day.jobUid, '--kind', 'scheduled,unscheduled')).items.map((e) => e.kind)).toEqual(['scheduled', 'scheduled', 'scheduled', 'unscheduled']);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list('--from', today)).total_items).toBe(12);
    expect((await list('--from', '2099-01-01')).total_items).toBe(0);
    expect((await list('--until', '2000-01-01')).total_items).toBe(0);
    const page = await cli('activity', 'list', '--data', fx.dataDir, '--json', '--per-page', '5', '--page', '3', '--desc');
    expect(JSON.parse(page.out)).toMatchObject({ page: 3, per_page: 5, total_items: 12, total_pages: 3, items: [{ kind: 'created' }, { kind: 'created' }] });
  });

  it('exports CSV with the transaction in a column of its own, and refuses bad filters with the spec id', async () => {
    const csv = await cli('activity', 'list', '--data', fx.dataDir, '--kind', 'issued', '--csv');
    expect(csv.code, csv.err).toBe(0);
    const lines = csv.out.split('\r\n');
    expect(lines[0]).toBe('date,kind,actor,engine,credential_uid,credential_title,job_uid,certificate_uid,transaction,detail');
    expect(lines).toHaveLength(3);
    expect(lines[1]!.split(',').slice(1, 9)).toEqual(['issued', ME, 'local', day.uids[0], day.titles[0], day.jobUid, day.certificates.get(day.uids[0]!), day.tx]);

    const badDate = await cli('activity', 'list', '--data', fx.dataDir, '--from', '2026-02-31');
    expect(badDate.code).toBe(1);
    expect(badDate.err).toContain('invalid_value');
    const badKind = await cli('activity', 'list', '--data', fx.dataDir, '--kind', 'deleted');
    expect(badKind.code).toBe(1);
    expect(badKind.err).toContain('invalid_value');
  });

  it('refuses to change or delete an entry, even by SQL on the file', () => {
    const db = new Database(join(fx.dataDir, 'proofdesk.sqlite'));
    try {
      const before = db.prepare('SELECT * FROM activity ORDER BY id').all();
      expect(before).toHaveLength(12);
      expect(() => db.prepare("UPDATE activity SET actor = 'someone else' WHERE kind = 'revoked'").run()).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM activity').run()).toThrow(/append-only/);
      expect(db.prepare('SELECT * FROM activity ORDER BY id').all()).toEqual(before);
    } finally {
      db.close();
    }
  });

  it('logs a transaction mined again (a chain that forgot it, then reconciled) as the same issuing and revocation, once', () => {
    const db = new Database(join(fx.dataDir, 'proofdesk.sqlite'));
    try {
      const count = () => db.prepare("SELECT kind, count(*) AS n FROM activity WHERE kind IN ('issued', 'revoked') GROUP BY kind ORDER BY kind").all();
      const before = count();
      expect(before).toEqual([{ kind: 'issued', n: 2 }, { kind: 'revoked', n: 1 }]);
      // What reconcile-chain.ts writes when a chain lost the blocks, and what follows once they are mined again.
      db.prepare("UPDATE jobs SET status = 'started', issued_date = NULL WHERE uid = ?").run(day.jobUid);
      db.prepare("UPDATE jobs SET status = 'unconfirmed', issued_date = ? WHERE uid = ?").run(Date.now(), day.jobUid);
      db.prepare('UPDATE certificates SET revoked_date = NULL WHERE revoked_date IS NOT NULL').run();
      db.prepare('UPDATE certificates SET revoked_date = ? WHERE uid = ?').run(Date.now(), day.certificates.get(day.uids[0]!));
      expect(count()).toEqual(before);
    } finally {
      db.close();
    }
  });
});
