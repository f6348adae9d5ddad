/**
 * A job waiting on a public chain says what it waits for: anvil run as Sepolia with its mining
 * paused for a minute, then an endpoint that drops every connection for half a minute. The pace
 * (chain-pace.ts) runs on a clock the test drives, as the engine's does, so a minute of rounds
 * takes no minute of waiting; blocks come only when the test mines them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseEther } from 'viem';
import type { Job } from '../../common/wire-types.js';
import { ManualClock } from '../../main/engine/index.js';
import { startRpcProxy, type RpcProxy } from '../chain/chain-fixture.js';
import {
  addIssuingPartner,
  createAndSchedule,
  openIssuingEngine,
  removeTempDirs,
  setAutomine,
  startSecondChain,
  tickUntil,
  type IssuingFixture,
  type IssuingPartner,
  type SecondChain,
} from '../support/issuing-fixture.js';

const SEPOLIA = 11155111;
const ENGINE = 'sepolia';
const HOUR = 3_600_000;

describe('waiting on a public chain (anvil as Sepolia behind a loopback proxy, rounds paced on a driven clock)', () => {
  let chain: SecondChain;
  let proxy: RpcProxy;
  let fx: IssuingFixture;
  let partner: IssuingPartner;
  const clock = new ManualClock(Date.now());
  let paceNow = Date.now();

  beforeAll(async () => {
    chain = await startSecondChain(SEPOLIA);
    proxy = await startRpcProxy(chain.rpcUrl);
    fx = openIssuingEngine({
      clock,
      // A depth of 1 block: these tests are about waiting for the chain, not finality.
      engines: [{ ...chain.engine(ENGINE, { environment: 'live' }), finality: 'confirmations', rpc_url: proxy.url }],
      issuing: { paceClock: () => paceNow },
    });
    partner = await addIssuingPartner(fx.engine, 'Patient Polytechnic');
    await chain.client.fund(partner.address, parseEther('10'));
    // The registry is deployed by a first job.
    const first = await createAndSchedule(partner.service, ENGINE, 1, 'First');
    clock.advance(HOUR + 1000);
    await tickUntil(fx.engine, partner.service, first.job.uid, 'finished');
  });

  beforeEach(() => {
    proxy.mode = 'pass';
  });

  afterAll(async () => {
    await fx?.close();
    await proxy?.close();
    await chain?.stop();
    removeTempDirs();
  });

  /** One second of both clocks, then the round the scheduler's timer would run. */
  async function second(): Promise<void> {
    clock.advance(1000);
    paceNow += 1000;
    await fx.engine.issuing.tick({ paced: true });
  }

  /** A due job whose transaction is sent and waits in the pool (mining off). */
  async function pendingJob(count: number): Promise<Job> {
    await setAutomine(chain.rpcUrl, false);
    const { job } = await createAndSchedule(partner.service, ENGINE, count);
    clock.advance(HOUR + 1000);
    await fx.engine.issuing.tick();
    const sent = await partner.service.getJob(job.uid);
    expect(sent.status).toBe('started');
    expect(sent.transaction).toMatchObject({ variants: 1, pending_since: expect.any(String) });
    return sent;
  }

  /** Paced rounds, a second apart, until the job is finished (at most `seconds`). */
  async function secondsUntilFinished(uid: string, seconds = 90): Promise<Job> {
    for (let s = 0; s < seconds; s++) {
      await second();
      const job = await partner.service.getJob(uid);
      if (job.status === 'finished') return job;
    }
    const job = await partner.service.getJob(uid);
    expect(job.status, job.waiting ?? '').toBe('finished');
    return job;
  }

  it('mining paused for 60 s: the job stays started with its transaction and pending since, says no block came, sends nothing more, asks the head once per round, and finishes once mining resumes', async () => {
    const sent = await pendingJob(2);
    proxy.methods.length = 0;

    for (let s = 0; s < 60; s++) await second();
    const waiting = await partner.service.getJob(sent.uid);
    expect(waiting.status).toBe('started');
    expect(waiting.failed_date).toBeNull();
    expect(waiting.transaction).toMatchObject({ hash: sent.transaction!.hash, pending_since: sent.transaction!.pending_since, variants: 1 });
    expect(waiting.waiting).toMatch(/^waiting: no new block on sepolia for (59|60) s \(the head is block \d+\)$/);
    // Nothing re-sent, no receipt asked without a new block: the head, at most once a round.
    expect(proxy.methods.filter((m) => m !== 'eth_getBlockByNumber')).toEqual([]);
    expect(proxy.methods.length).toBeLessThanOrEqual(60);

    await chain.client.mine(1);
    const finished = await secondsUntilFinished(sent.uid, 5);
    expect(finished.waiting).toBeNull();
    expect(finished.transaction!.hash).toBe(sent.transaction!.hash);
  });

  it('an RPC endpoint that has not answered for 30 s is reported on the job, which never fails and finishes once the endpoint is back', async () => {
    const sent = await pendingJob(1);
    proxy.mode = 'down';
    let reported: Job | undefined;
    for (let s = 0; s < 90 && !reported; s++) {
      await second();
      const job = await partner.service.getJob(sent.uid);
      if (job.waiting?.includes('has not answered')) reported = job;
    }
    expect(reported?.waiting).toMatch(/^waiting: the RPC endpoint of sepolia has not answered for (\d+) s$/);
    expect(Number(/for (\d+) s/.exec(reported!.waiting!)![1])).toBeGreaterThanOrEqual(30);
    // Its URL (which may hold an API key) is not shown.
    expect(reported!.waiting).not.toContain(proxy.url);
    expect(reported!.status).toBe('started');
    expect(reported!.failed_date).toBeNull();

    proxy.mode = 'pass';
    await chain.client.mine(1);
    const finished = await secondsUntilFinished(sent.uid);
    expect(finished.waiting).toBeNull();
    expect(finished.transaction!.hash).toBe(sent.transaction!.hash);
  });
});
