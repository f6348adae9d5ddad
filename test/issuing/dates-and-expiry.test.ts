/**
 * Dates in the order things happened, and no expired credential issued silently (real anvil):
 * - a job started at X.999 s is mined in the next whole second, so issued_date >= start_date;
 * - a credential whose expiry passed is refused at scheduling (invalid_expiry_date), refused by
 *   issue-now while in the open job, and taken out of its job by the scheduler (reported, not issued).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock, type Clock } from '../../main/engine/clock.js';
import { addIssuingPartner, createAndSchedule, errorOf, issueNowAndFinish, openIssuingEngine, removeTempDirs, type IssuingFixture } from '../support/issuing-fixture.js';

describe('dates and expiry at issuing', () => {
  const open: IssuingFixture[] = [];
  afterAll(async () => {
    for (const fx of open) await fx.close();
    removeTempDirs();
  });

  it('issued_date (whole seconds, the block time) is never earlier than start_date', async () => {
    // The worst case every time: the job starts at .999 of a second.
    const clock: Clock = { now: () => Math.floor(Date.now() / 1000) * 1000 + 999 };
    const fx = openIssuingEngine({ clock });
    open.push(fx);
    const partner = await addIssuingPartner(fx.engine, 'Punctual University');
    for (let round = 0; round < 3; round++) {
      await createAndSchedule(partner.service, 'local', 2, `Round ${round}`);
      const job = await issueNowAndFinish(fx.engine, partner.service, 'local');
      expect(Date.parse(job.issued_date!), `${job.start_date} → ${job.issued_date}`).toBeGreaterThanOrEqual(Date.parse(job.start_date!));
      expect(Date.parse(job.finished_date!)).toBeGreaterThanOrEqual(Date.parse(job.start_date!));
    }
  });

  it('a local chain whose clock runs behind the engine\'s stamps the job\'s block no earlier than its start, which stays as it was', async () => {
    // anvil's clock starts at its genesis time, taken before anvil ran: it runs behind ours by
    // the time anvil took to start (seconds on a busy machine). Ten seconds here, every time.
    let behind = 10_000;
    const clock: Clock = { now: () => Date.now() - behind };
    const fx = openIssuingEngine({ clock });
    open.push(fx);
    await fx.engine.issuing.ctx.chains.client('local');
    behind = 0;
    const partner = await addIssuingPartner(fx.engine, 'Slow-Clock University');
    const { job: scheduled } = await createAndSchedule(partner.service, 'local', 2);
    const asked = Date.now();
    const job = await issueNowAndFinish(fx.engine, partner.service, 'local');
    expect(Date.parse(job.start_date!), `started ${job.start_date}, issue-now asked at ${new Date(asked).toISOString()}`).toBeGreaterThanOrEqual(asked);
    expect(Date.parse(job.issued_date!), `${job.start_date} → ${job.issued_date}`).toBeGreaterThanOrEqual(Date.parse(job.start_date!));
    expect(job.created_date).toBe(scheduled.created_date);
  });

  it('a credential whose expiry has passed is refused at scheduling, by issue-now, and taken out of its job by the scheduler', async () => {
    const clock = new ManualClock(Date.now());
    const errors: unknown[] = [];
    const fx = openIssuingEngine({ clock, issuing: { onError: (e) => errors.push(e) } });
    open.push(fx);
    const partner = await addIssuingPartner(fx.engine, 'Short-Lived University', 60);
    const soon = new Date(clock.now() + 10_000).toISOString();
    const [late, expiring, fine] = await partner.service.createCredentials([
      { title: 'Expired before scheduling', metadata: { n: 1 }, expiry_date: soon },
      { title: 'Expires while scheduled', metadata: { n: 2 }, expiry_date: soon },
      { title: 'No expiry', metadata: { n: 3 } },
    ]);
    await partner.service.scheduleCredentials({ engine: 'local', credentials: [expiring!.uid, fine!.uid] });
    clock.advance(20_000);

    const atScheduling = await errorOf(partner.service.scheduleCredentials({ engine: 'local', credentials: [late!.uid] }));
    expect(atScheduling.id).toBe('invalid_expiry_date');
    expect(atScheduling.message).toContain(late!.uid);

    const atIssueNow = await errorOf(partner.service.issueJobNow({ engine: 'local' }));
    expect(atIssueNow.id).toBe('invalid_expiry_date');
    expect(atIssueNow.message).toContain(expiring!.uid);

    // The issuing interval passes: the scheduler issues the rest and says what it left out.
    clock.advance(60_000);
    await fx.engine.issuing.tick();
    for (let i = 0; i < 40; i++) await fx.engine.issuing.tick();
    const jobs = (await partner.service.listJobs({})).items;
    const issued = jobs.find((j) => j.status === 'finished');
    expect(issued, JSON.stringify(jobs)).toBeDefined();
    const certificates = (await partner.service.listJobCertificates(issued!.uid, { per_page: 0 })).items;
    expect(certificates.map((c) => c.certificate.credential.uid)).toEqual([fine!.uid]);
    expect(errors.map((e) => (e as { id?: string }).id)).toContain('invalid_expiry_date');
    expect(String((errors.find((e) => (e as { id?: string }).id === 'invalid_expiry_date') as Error).message)).toContain(expiring!.uid);
  });
});
