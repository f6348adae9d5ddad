/**
 * The scheduler: due jobs are issued at the Partner's issuing interval without anyone asking,
 * empty ones wait another interval, and only one Engine per data directory schedules.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther } from 'viem';
import { Engine } from '../../main/engine/index.js';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import {
  addIssuingPartner,
  createAndSchedule,
  expectOk,
  jsonLines,
  makeTempDir,
  openIssuingEngine,
  REPO_ROOT,
  removeTempDirs,
  startSecondChain,
  transactionCount,
  waitFor,
  type IssuingFixture,
  type SecondChain,
} from '../support/issuing-fixture.js';
import { childArgs } from '../support/ts-child.js';

/** The issuing lease's row (issuing-lease.ts). */
function leaseOf(fx: IssuingFixture): { holder: string; pid: number; token: number; expires: number } {
  return fx.engine.issuing.ctx.db.prepare('SELECT holder, pid, token, expires FROM issuing_lease').get() as { holder: string; pid: number; token: number; expires: number };
}

const SCHEDULER_CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'scheduler-child.ts');
const PASSPHRASE = 'correct horse battery staple';

describe('the scheduler (issuing interval 1 s, a round every 200 ms)', () => {
  let fx: IssuingFixture;
  const errors: unknown[] = [];

  beforeAll(() => {
    fx = openIssuingEngine({ issuing: { scheduler: true, tickMs: 200, onError: (e) => errors.push(e) } });
  });

  afterAll(async () => {
    await fx?.close();
    removeTempDirs();
  });

  it('turns scheduled credentials into certificates within a few seconds, without issueJobNow', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Every Second University', 1);
    const { credentials, job } = await createAndSchedule(partner.service, 'local', 5, 'Scheduled');
    expect(Date.parse(job.scheduled_date!) - Date.parse(job.created_date)).toBe(1000);

    const finished = await waitFor('the job to finish', async () => {
      const j = await partner.service.getJob(job.uid);
      return j.status === 'finished' ? j : undefined;
    });
    expect(finished.start_date).not.toBeNull();
    expect(Date.parse(finished.start_date!)).toBeGreaterThanOrEqual(Date.parse(job.scheduled_date!));
    expect(finished.issued_date).not.toBeNull();
    expect(finished.finished_date).not.toBeNull();

    const certificates = await partner.service.listJobCertificates(job.uid, { per_page: 0 });
    expect(certificates.items.map((c) => c.certificate.credential.uid).sort()).toEqual(credentials.map((c) => c.uid).sort());
    expectOk(await partner.service.verifyCertificate(certificates.items[0]!.certificate.uid));
    expect(await transactionCount(await fx.engine.issuing.ctx.chains.client('local'), partner.address)).toBe(2);
    expect(errors).toEqual([]);
  });

  it('postpones an empty due job by an interval instead of issuing it', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Nothing To Issue', 1);
    const { credentials, job } = await createAndSchedule(partner.service, 'local', 1, 'Withdrawn');
    await partner.service.unscheduleCredential(credentials[0]!.uid, 'local');

    // Let it come due twice over: postponed by an interval each time.
    const waiting = await waitFor('the job to be postponed twice', async () => {
      const j = await partner.service.getJob(job.uid);
      return j.status !== 'scheduled' || Date.parse(j.scheduled_date!) >= Date.parse(job.scheduled_date!) + 2_000 ? j : undefined;
    });
    expect(waiting).toMatchObject({ status: 'scheduled', start_date: null, issued_date: null });
    expect(await transactionCount(await fx.engine.issuing.ctx.chains.client('local'), partner.address)).toBe(0);
    expect((await partner.service.listJobs({ per_page: 0 })).total_items).toBe(1);

    // Given a credential, the same job is issued at its (postponed) date.
    await createAndSchedule(partner.service, 'local', 1, 'Second thought');
    const finished = await waitFor('the job to finish', async () => {
      const j = await partner.service.getJob(job.uid);
      return j.status === 'finished' ? j : undefined;
    });
    expect((await partner.service.listJobCertificates(finished.uid, { per_page: 0 })).total_items).toBe(1);
    expect(errors).toEqual([]);
  });
});

describe('a second Engine with the scheduler in the same process', () => {
  let chain: SecondChain;
  let first: IssuingFixture;
  let second: Engine | undefined;
  const errors: unknown[] = [];

  beforeAll(async () => {
    chain = await startSecondChain();
    // Issuing on the second chain: both Engines can reach it, so only the lock keeps the second out.
    first = openIssuingEngine({ engines: [chain.engine('second')], issuing: { scheduler: true, tickMs: 200, onError: (e) => errors.push(e) } });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await chain?.stop();
    removeTempDirs();
  });

  it('does not issue (the first holds the issuing lease): exactly one transaction, and the lease stays', async () => {
    const firstHolder = leaseOf(first).holder;
    expect(leaseOf(first).pid).toBe(process.pid);
    second = Engine.open({
      dataDir: first.dataDir,
      sweepIntervalMs: false,
      secrets: first.secrets,
      issuing: { scheduler: true, tickMs: 50, onError: (e) => errors.push(e) },
    });

    const partner = await addIssuingPartner(first.engine, 'Contended College', 1);
    await chain.client.fund(partner.address, parseEther('10'));
    // Enough credentials that building the certificates takes a while: two schedulers would meet.
    const { job } = await createAndSchedule(partner.service, 'second', 1_000, 'Contended');
    await waitFor('the job to finish', async () => ((await partner.service.getJob(job.uid)).status === 'finished' ? true : undefined));
    // Rounds go on after the finish: a whole one (the round under way may have begun before it) sends nothing more.
    await first.engine.issuing.tick();
    await first.engine.issuing.tick();

    expect(await transactionCount(chain.client, partner.address)).toBe(2);
    expect((await partner.service.listJobCertificates(job.uid, { per_page: 1 })).total_items).toBe(1_000);
    // A second scheduler working the same job shows as errors (its certificates collide with the first's).
    expect(errors.map((e) => String((e as Error).message ?? e))).toEqual([]);

    // The second Engine going away leaves the first one's lease in place.
    await second.close();
    second = undefined;
    expect(leaseOf(first)).toMatchObject({ holder: firstHolder });
    expect(leaseOf(first).expires).toBeGreaterThan(Date.now());
  });
});

describe('a second process with the scheduler on the same data directory', () => {
  let chain: SecondChain;
  let first: IssuingFixture;
  let child: ChildProcessWithoutNullStreams | undefined;
  const errors: unknown[] = [];

  beforeAll(async () => {
    chain = await startSecondChain();
    const dataDir = makeTempDir();
    const secrets = await openSecretStore({ dataDir, env: { [PASSPHRASE_ENV]: PASSPHRASE } });
    first = openIssuingEngine({ dataDir, secrets, engines: [chain.engine('second')], issuing: { scheduler: true, tickMs: 200, onError: (e) => errors.push(e) } });
  });

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await first?.close();
    await chain?.stop();
    removeTempDirs();
  });

  it('leaves issuing to the process holding the issuing lease: exactly one transaction', async () => {
    const firstHolder = leaseOf(first).holder;
    child = spawn(process.execPath, [...childArgs(SCHEDULER_CHILD), first.dataDir], {
      cwd: REPO_ROOT,
      env: { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    await waitFor(`the child to open its Engine (stderr: ${stderr})`, () => (jsonLines(stdout).some((l) => l.ready) ? true : undefined), 30_000);

    const partner = await addIssuingPartner(first.engine, 'Two Process Polytechnic', 1);
    await chain.client.fund(partner.address, parseEther('10'));
    const { job } = await createAndSchedule(partner.service, 'second', 1_000, 'Shared');
    await waitFor('the job to finish', async () => ((await partner.service.getJob(job.uid)).status === 'finished' ? true : undefined));
    // A whole round after the finish (the round under way may have begun before it) sends nothing more.
    await first.engine.issuing.tick();
    await first.engine.issuing.tick();

    child.stdin.end();
    expect(await exited, stderr).toBe(0);
    const report = jsonLines<{ errors?: string[] }>(stdout).find((l) => l.errors);
    expect(report?.errors).toEqual([]);
    expect(await transactionCount(chain.client, partner.address)).toBe(2);
    expect((await partner.service.listJobCertificates(job.uid, { per_page: 1 })).total_items).toBe(1_000);
    expect(errors).toEqual([]);
    expect(leaseOf(first)).toMatchObject({ holder: firstHolder, pid: process.pid });
  });
});
