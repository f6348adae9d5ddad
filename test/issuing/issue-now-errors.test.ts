/**
 * The errors of immediate issuing (POST /jobs/immediate): each names the spec's id and leaves
 * the Partner's job exactly as it was, and nothing is sent on chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther } from 'viem';
import type { EmbeddedService } from '../../main/engine/index.js';
import {
  addIssuingPartner,
  createAndSchedule,
  errorOf,
  issueNowAndFinish,
  openIssuingEngine,
  removeTempDirs,
  setAutomine,
  startSecondChain,
  tickUntil,
  transactionCount,
  type IssuingFixture,
  type SecondChain,
} from '../support/issuing-fixture.js';

const SECOND = 'second';
const LIVE = 'mainnet';

/** What an error must not change: the job and the credentials it carries. */
async function snapshot(service: EmbeddedService, jobUid: string) {
  const job = await service.getJob(jobUid);
  const credentials = (await service.listJobCredentials(jobUid, { per_page: 0 })).items.map((c) => c.uid).sort();
  return { job, credentials };
}

describe('errors of immediate issuing', () => {
  let chain: SecondChain;
  let fx: IssuingFixture;

  beforeAll(async () => {
    chain = await startSecondChain();
    fx = openIssuingEngine({
      engines: [
        chain.engine(SECOND),
        // A live engine: immediate issuing is refused before its (unreachable) node is asked anything.
        { id: LIVE, rpc_url: 'http://127.0.0.1:9', chain_id: 1, confirmations: 12, environment: 'live' },
      ],
    });
  });

  afterAll(async () => {
    await fx?.close();
    await chain?.stop();
    removeTempDirs();
  });

  it('missing_job: no scheduled job of the Partner on the engine', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Nothing Scheduled');
    expect((await errorOf(partner.service.issueJobNow({ engine: 'local' }))).id).toBe('missing_job');
    expect((await errorOf(partner.service.issueJobNow({ engine: SECOND }))).id).toBe('missing_job');

    // Another Partner's scheduled job is not this Partner's.
    const other = await addIssuingPartner(fx.engine, 'Someone Else');
    const { job } = await createAndSchedule(other.service, 'local', 1);
    expect((await errorOf(partner.service.issueJobNow({ engine: 'local' }))).id).toBe('missing_job');
    expect((await other.service.getJob(job.uid)).status).toBe('scheduled');

    // Once the job is issued there is no scheduled job left.
    await issueNowAndFinish(fx.engine, other.service, 'local');
    expect((await errorOf(other.service.issueJobNow({ engine: 'local' }))).id).toBe('missing_job');
    expect(await transactionCount(await fx.engine.issuing.ctx.chains.client('local'), partner.address)).toBe(0);
  });

  it('empty_credential_list: a scheduled job emptied by unscheduling stays scheduled and is not issued', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Changed Its Mind');
    const { credentials, job } = await createAndSchedule(partner.service, 'local', 1);
    expect(await partner.service.unscheduleCredential(credentials[0]!.uid, 'local')).toEqual({ credential_uid: credentials[0]!.uid, engine: 'local', credential_deleted: true });
    const before = await snapshot(partner.service, job.uid);
    expect(before).toMatchObject({ job: { status: 'scheduled' }, credentials: [] });

    expect((await errorOf(partner.service.issueJobNow({ engine: 'local' }))).id).toBe('empty_credential_list');
    expect(await snapshot(partner.service, job.uid)).toEqual(before);
    expect(await transactionCount(await fx.engine.issuing.ctx.chains.client('local'), partner.address)).toBe(0);

    // The same job takes new credentials and is then issued.
    const { job: again } = await createAndSchedule(partner.service, 'local', 2);
    expect(again.uid).toBe(job.uid);
    expect((await issueNowAndFinish(fx.engine, partner.service, 'local')).uid).toBe(job.uid);
  });

  it('insufficient_funds: the Partner account has nothing on the engine', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Penniless Academy');
    const { job } = await createAndSchedule(partner.service, SECOND, 2);
    expect(await chain.client.balanceOf(partner.address)).toBe(0n);
    const before = await snapshot(partner.service, job.uid);

    const error = await errorOf(partner.service.issueJobNow({ engine: SECOND }));
    expect(error.id).toBe('insufficient_funds');
    expect(error.status).toBe(503);
    expect(error.message).toContain(partner.address);
    // The job stays scheduled with its credentials; it says what it waits for.
    expect(await snapshot(partner.service, job.uid)).toEqual({ ...before, job: { ...before.job, waiting: expect.stringContaining('waiting for funds') } });
    expect(await transactionCount(chain.client, partner.address)).toBe(0);

    // Funded, the same job issues.
    await chain.client.fund(partner.address, parseEther('10'));
    const done = await issueNowAndFinish(fx.engine, partner.service, SECOND);
    expect(done.uid).toBe(job.uid);
    expect(await transactionCount(chain.client, partner.address)).toBe(2);
  });

  it('an account too poor for gas: insufficient_funds naming the amount, the job stays scheduled, and issues once funded', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Underfunded Academy');
    // Something, but far too little for the registry deployment and the issue.
    await chain.client.fund(partner.address, 1000n);
    const { job } = await createAndSchedule(partner.service, SECOND, 2, 'Poor');
    const before = await snapshot(partner.service, job.uid);

    const error = await errorOf(partner.service.issueJobNow({ engine: SECOND }));
    expect(error).toMatchObject({ id: 'insufficient_funds', status: 503 });
    expect(error.message).toContain(partner.address);
    expect(error.message).toMatch(/needs at least [\d.]+ \(\d+ wei\)/);
    expect(await snapshot(partner.service, job.uid)).toEqual({ ...before, job: { ...before.job, waiting: expect.stringContaining('waiting for funds') } });
    expect(await transactionCount(chain.client, partner.address)).toBe(0);

    // Funded, the same job issues with the same credentials.
    await chain.client.fund(partner.address, parseEther('10'));
    const started = await partner.service.issueJobNow({ engine: SECOND });
    expect(started.uid).toBe(job.uid);
    const done = await tickUntil(fx.engine, partner.service, job.uid, 'finished');
    expect(done.waiting ?? null).toBeNull();
    expect((await partner.service.listCertificates({ per_page: 0 })).total_items).toBe(2);
    expect(await transactionCount(chain.client, partner.address)).toBe(2);
  });

  it('wrong_blockchain_engine: an unknown engine, or a live one', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Live Issuer');
    const { job } = await createAndSchedule(partner.service, LIVE, 2);
    const before = await snapshot(partner.service, job.uid);

    expect((await errorOf(partner.service.issueJobNow({ engine: 'no-such-chain' }))).id).toBe('wrong_blockchain_engine');
    const live = await errorOf(partner.service.issueJobNow({ engine: LIVE }));
    expect(live.id).toBe('wrong_blockchain_engine');
    expect(live.status).toBe(422);
    expect(await snapshot(partner.service, job.uid)).toEqual(before);
  });

  it('try_again_later: two concurrent calls for the same Partner and engine — one issues, one is refused', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Double Clicker');
    const { job } = await createAndSchedule(partner.service, 'local', 3);
    const outcomes = await Promise.allSettled([partner.service.issueJobNow({ engine: 'local' }), partner.service.issueJobNow({ engine: 'local' })]);

    await tickUntil(fx.engine, partner.service, job.uid, 'finished');
    // Whatever the calls did, the job has one transaction: the deployment and one issue.
    expect(await transactionCount(await fx.engine.issuing.ctx.chains.client('local'), partner.address)).toBe(2);

    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled');
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(rejected.map((r) => (r.reason as { id?: string }).id)).toEqual(['try_again_later']);
    expect(fulfilled).toHaveLength(1);
  });

  it('try_again_later: while a job of the Partner on the engine is started; the next job waits as it was', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Busy Bureau');
    await chain.client.fund(partner.address, parseEther('10'));
    const { job: first } = await createAndSchedule(partner.service, SECOND, 2, 'First');

    await setAutomine(chain.rpcUrl, false);
    try {
      expect((await partner.service.issueJobNow({ engine: SECOND })).status).toBe('started');
      const { job: second } = await createAndSchedule(partner.service, SECOND, 2, 'Second');
      expect(second.uid).not.toBe(first.uid);
      const before = await snapshot(partner.service, second.uid);

      const error = await errorOf(partner.service.issueJobNow({ engine: SECOND }));
      expect(error.id).toBe('try_again_later');
      expect(error.status).toBe(503);
      expect(await snapshot(partner.service, second.uid)).toEqual(before);
      expect((await partner.service.getJob(first.uid)).status).toBe('started');
    } finally {
      await setAutomine(chain.rpcUrl, true);
    }
    await chain.client.mine(1);
    await tickUntil(fx.engine, partner.service, first.uid, 'finished');
    const second = await issueNowAndFinish(fx.engine, partner.service, SECOND);
    expect(second.uid).not.toBe(first.uid);
    // Deployment, first issue, second issue.
    expect(await transactionCount(chain.client, partner.address)).toBe(3);
  });
});
