/**
 * Sending on a public chain: anvil run as Sepolia (chain id 11155111) behind a live engine, driven
 * block by block (automine off, anvil_mine, anvil_setNextBlockBaseFeePerGas) so each test awaits
 * chain events rather than block time. An account short of funds keeps its job scheduled, a base
 * fee spike gets the transaction replaced at the same nonce up to the engine's fee cap, above
 * the cap the job says so and resumes when the fee falls, and a transaction the node dropped is
 * sent again from its stored signed bytes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { numberToHex, parseEther, parseGwei } from 'viem';
import { ManualClock, type Engine } from '../../main/engine/index.js';
import type { Hex } from '../../main/chain/index.js';
import { ChainClient, RateLimitedError } from '../../main/chain/index.js';
import { rpc, startRpcProxy, type RpcProxy } from '../chain/chain-fixture.js';
import {
  addIssuingPartner,
  certificateUidsOfJob,
  createAndSchedule,
  openIssuingEngine,
  proofOf,
  removeTempDirs,
  setAutomine,
  startSecondChain,
  tickUntil,
  transactionCount,
  waitFor,
  type IssuingFixture,
  type IssuingPartner,
  type SecondChain,
} from '../support/issuing-fixture.js';

const SEPOLIA = 11155111;
const ENGINE = 'sepolia';
const FEE_CAP_GWEI = 50;
const HOUR = 3_600_000;
const FAILOVER = 'sepolia-failover';

describe('sending on a public chain (anvil as Sepolia, fee cap 50 gwei, replacement after 2 blocks)', () => {
  let chain: SecondChain;
  let fx: IssuingFixture;
  let engine: Engine;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    chain = await startSecondChain(SEPOLIA);
    fx = openIssuingEngine({
      clock,
      // A depth of 1 block, not Sepolia's default `finalized` tag (anvil finalizes 64 blocks
      // behind its head): these tests are about sending. Each explicit round asks the chain now.
      engines: [{ ...chain.engine(ENGINE, { environment: 'live' }), finality: 'confirmations', fee_cap_gwei: FEE_CAP_GWEI, replace_after_blocks: 2 }],
    });
    engine = fx.engine;
  });

  beforeEach(async () => {
    await setAutomine(chain.rpcUrl, true);
  });

  afterAll(async () => {
    await fx?.close();
    await chain?.stop();
    removeTempDirs();
  });

  /** Schedules `count` credentials and makes the job due (the live engine issues only on schedule). */
  async function dueJob(partner: IssuingPartner, count = 2) {
    const { job } = await createAndSchedule(partner.service, ENGINE, count);
    clock.advance(HOUR + 1000);
    return job;
  }

  /** A funded Partner whose registry is already deployed (by a first job, issued to the end). */
  async function readyPartner(name: string): Promise<IssuingPartner> {
    const partner = await addIssuingPartner(engine, name);
    await chain.client.fund(partner.address, parseEther('10'));
    const first = await dueJob(partner, 1);
    await tickUntil(engine, partner.service, first.uid, 'finished');
    return partner;
  }

  /** Ticks once with automine off, so the job's transaction is sent and waits in the pool. */
  async function sendAndHold(partner: IssuingPartner) {
    const job = await dueJob(partner);
    await setAutomine(chain.rpcUrl, false);
    await engine.issuing.tick();
    const started = await partner.service.getJob(job.uid);
    expect(started.status).toBe('started');
    expect(started.transaction).toMatchObject({ variants: 1, pending_since: expect.any(String) });
    return { job, hash: started.transaction!.hash as Hex, maxFeeGwei: Number(started.transaction!.max_fee_gwei) };
  }

  async function setNextBaseFee(gwei: number): Promise<void> {
    await rpc(chain.rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [numberToHex(parseGwei(String(gwei)))]);
  }

  it('an account too poor for gas: the due job stays scheduled with its credentials, says what it needs, and issues once funded', async () => {
    const partner = await addIssuingPartner(engine, 'Low Funds Institute');
    await chain.client.fund(partner.address, 1000n);
    const job = await dueJob(partner, 3);

    for (let round = 0; round < 3; round++) await engine.issuing.tick();
    const waiting = await partner.service.getJob(job.uid);
    expect(waiting.status).toBe('scheduled');
    expect(waiting.failed_date).toBeNull();
    expect(waiting.waiting).toContain(`waiting for funds: The partner's account ${partner.address} holds 0.000000000000001 (1000 wei) on ${ENGINE}`);
    expect(waiting.waiting).toMatch(/needs at least [\d.]+ \(\d+ wei\) \(gas × max fee\)/);
    expect((await partner.service.listJobCredentials(job.uid, { per_page: 0 })).total_items).toBe(3);
    expect(await transactionCount(chain.client, partner.address)).toBe(0);

    await rpc(chain.rpcUrl, 'anvil_setBalance', [partner.address, numberToHex(parseEther('1'))]);
    const finished = await tickUntil(engine, partner.service, job.uid, 'finished');
    expect(finished.waiting).toBeNull();
    expect(await certificateUidsOfJob(partner.service, job.uid)).toHaveLength(3);
    // The registry deployment and the issue.
    expect(await transactionCount(chain.client, partner.address)).toBe(2);
  });

  it('a base fee spike below the cap: the transaction is replaced at the same nonce with higher fees, and the replacement settles the job', async () => {
    const partner = await readyPartner('Spike Below Cap College');
    const nonce = await transactionCount(chain.client, partner.address);
    const { job, hash, maxFeeGwei } = await sendAndHold(partner);

    // The next block's base fee is above the transaction's max fee: it cannot be mined.
    await setNextBaseFee(Math.ceil(maxFeeGwei * 3));
    await chain.client.mine(1);
    expect(await chain.client.getReceipt(hash)).toBeNull();

    await engine.issuing.tick();
    const replaced = await partner.service.getJob(job.uid);
    expect(replaced.status).toBe('started');
    expect(replaced.transaction!.variants).toBe(2);
    expect(replaced.transaction!.hash).not.toBe(hash);
    expect(Number(replaced.transaction!.max_fee_gwei)).toBeGreaterThanOrEqual(maxFeeGwei * 1.1);
    expect(Number(replaced.transaction!.max_fee_gwei)).toBeLessThanOrEqual(FEE_CAP_GWEI);

    await chain.client.mine(1);
    const finished = await tickUntil(engine, partner.service, job.uid, 'finished');
    expect(finished.transaction!.hash).toBe(replaced.transaction!.hash);
    expect(await chain.client.getReceipt(hash)).toBeNull();
    const mined = await chain.client.getTransaction(replaced.transaction!.hash as Hex);
    expect(mined?.nonce).toBe(nonce);
    const proof = await proofOf(partner.service, (await certificateUidsOfJob(partner.service, job.uid))[0]!);
    expect(JSON.stringify(proof)).toContain(replaced.transaction!.hash);
    expect(JSON.stringify(proof)).not.toContain(hash.slice(2));
  });

  it('a base fee above the cap: the job says it waits for fees below the cap, and finishes by itself once the fee falls', async () => {
    const partner = await readyPartner('Spike Above Cap Academy');
    const { job, hash } = await sendAndHold(partner);

    await setNextBaseFee(FEE_CAP_GWEI + 30);
    await chain.client.mine(1);
    await engine.issuing.tick();
    const waiting = await partner.service.getJob(job.uid);
    expect(waiting.status).toBe('started');
    expect(waiting.waiting).toMatch(new RegExp(`^waiting for fees below ${FEE_CAP_GWEI} gwei \\(now 8\\d(\\.\\d+)?\\)$`));
    // Nothing above the cap was signed.
    expect(waiting.transaction).toMatchObject({ hash, variants: 1 });

    // A later job of the account, due now, takes no nonce while this one is unsettled.
    const pendingNonce = await transactionCount(chain.client, partner.address);
    const later = await dueJob(partner, 1);
    await engine.issuing.tick();
    expect((await partner.service.getJob(later.uid)).status).toBe('scheduled');
    expect(await transactionCount(chain.client, partner.address)).toBe(pendingNonce);

    // The fee falls. anvil evicted the transaction while it could not be mined; the engine's
    // next look sends the stored bytes again by itself, and the next block takes them.
    await setNextBaseFee(1);
    await chain.client.mine(1);
    await engine.issuing.tick();
    expect(await chain.client.isKnown(hash)).toBe(true);
    await chain.client.mine(1);
    const finished = await tickUntil(engine, partner.service, job.uid, 'finished');
    expect(finished.waiting).toBeNull();
    expect(finished.transaction!.hash).toBe(hash);

    // Then the later job goes, with the next nonce.
    await setAutomine(chain.rpcUrl, true);
    const next = await tickUntil(engine, partner.service, later.uid, 'finished');
    expect((await chain.client.getTransaction(next.transaction!.hash as Hex))?.nonce).toBe((await chain.client.getTransaction(hash))!.nonce + 1);
  });

  it('a transaction the node dropped is sent again from its stored signed bytes', async () => {
    const partner = await readyPartner('Dropped Transaction School');
    const { job, hash } = await sendAndHold(partner);
    await rpc(chain.rpcUrl, 'anvil_dropTransaction', [hash]);
    expect(await chain.client.isKnown(hash)).toBe(false);

    // Two empty blocks later the engine notices it is gone and sends the same bytes again.
    await chain.client.mine(2);
    await engine.issuing.tick();
    expect(await chain.client.isKnown(hash)).toBe(true);
    expect((await partner.service.getJob(job.uid)).transaction).toMatchObject({ hash, variants: 1 });

    await chain.client.mine(1);
    const finished = await tickUntil(engine, partner.service, job.uid, 'finished');
    expect(finished.transaction!.hash).toBe(hash);
  });
});

describe('a polite client: a proxy in front of the node answers 429 with Retry-After, or drops connections', () => {
  let chain: SecondChain;
  let proxy: RpcProxy;
  let fx: IssuingFixture;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    chain = await startSecondChain(SEPOLIA);
    proxy = await startRpcProxy(chain.rpcUrl);
    fx = openIssuingEngine({
      clock,
      engines: [
        // A depth of 1 block rather than Sepolia's `finalized` tag: these tests are about the client.
        { ...chain.engine(ENGINE, { environment: 'live' }), finality: 'confirmations', rpc_url: proxy.url },
        // Two endpoints: the proxy first (when it is down, calls go to the node itself).
        { ...chain.engine(FAILOVER, { environment: 'live' }), finality: 'confirmations', rpc_urls: [proxy.url, chain.rpcUrl] },
      ],
    });
  });

  beforeEach(async () => {
    proxy.mode = 'pass';
    await setAutomine(chain.rpcUrl, true);
  });

  afterAll(async () => {
    await fx?.close();
    await proxy?.close();
    await chain?.stop();
    removeTempDirs();
  });

  /** A funded Partner with a job whose transaction waits in the pool (automine off). */
  async function heldJob(name: string) {
    const partner = await addIssuingPartner(fx.engine, name);
    await chain.client.fund(partner.address, parseEther('10'));
    const first = await createAndSchedule(partner.service, ENGINE, 1);
    clock.advance(HOUR + 1000);
    await tickUntil(fx.engine, partner.service, first.job.uid, 'finished');
    const { job } = await createAndSchedule(partner.service, ENGINE, 2);
    clock.advance(HOUR + 1000);
    await setAutomine(chain.rpcUrl, false);
    await fx.engine.issuing.tick();
    expect((await partner.service.getJob(job.uid)).status).toBe('started');
    return { partner, job };
  }

  it('the client waits as Retry-After tells, then succeeds; still limited, it says RateLimitedError with the wait', async () => {
    const client = await ChainClient.connect({ rpcUrl: proxy.url, chainId: SEPOLIA });
    proxy.mode = 'limited';
    proxy.retryAfterS = 1;
    proxy.limitedFor = 2;
    proxy.methods.length = 0;
    const started = Date.now();
    expect(await client.blockNumber()).toBe(await chain.client.blockNumber());
    // Two refusals, each waited out for the second it asked, then the answer: three requests.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(proxy.methods).toEqual(['eth_blockNumber', 'eth_blockNumber', 'eth_blockNumber']);

    proxy.limitedFor = Infinity;
    const error = await client.blockNumber().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: 'rate_limited', retryAfterMs: 1000 });
  });

  it('a rate-limited engine asks nothing more until Retry-After has passed, then finishes the job', async () => {
    const { partner, job } = await heldJob('Rate Limited University');
    proxy.mode = 'limited';
    proxy.retryAfterS = 1;
    proxy.limitedFor = Infinity;
    await fx.engine.issuing.tick();
    const afterRefusal = proxy.methods.length;
    // Rounds within the wait send nothing.
    for (let round = 0; round < 5; round++) await fx.engine.issuing.tick();
    expect(proxy.methods.length).toBe(afterRefusal);
    expect((await partner.service.getJob(job.uid)).status).toBe('started');

    proxy.mode = 'pass';
    await chain.client.mine(1);
    await waitFor('the job to finish once the endpoint answers', async () => {
      await fx.engine.issuing.tick();
      const current = await partner.service.getJob(job.uid);
      return current.status === 'finished' ? current : undefined;
    });
  });

  it('an endpoint that drops every connection: the job waits (never fails), retries back off, and it finishes once the endpoint is back', async () => {
    const { partner, job } = await heldJob('Flaky Node College');
    proxy.mode = 'down';
    const before = proxy.methods.length;
    await fx.engine.issuing.tick();
    const afterFirst = proxy.methods.length;
    expect(afterFirst).toBeGreaterThan(before);
    for (let round = 0; round < 5; round++) await fx.engine.issuing.tick();
    // Backing off: the rounds right after a failure ask nothing.
    expect(proxy.methods.length).toBe(afterFirst);
    const waiting = await partner.service.getJob(job.uid);
    expect(waiting.status).toBe('started');
    expect(waiting.failed_date).toBeNull();

    proxy.mode = 'pass';
    await chain.client.mine(1);
    const finished = await waitFor('the job to finish once the endpoint is back', async () => {
      await fx.engine.issuing.tick();
      const current = await partner.service.getJob(job.uid);
      return current.status === 'finished' ? current : undefined;
    });
    expect(finished.transaction!.hash).toBe(waiting.transaction!.hash);
  });

  it('several RPC URLs per engine: with the first endpoint down, the job issues through the next', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Two Endpoints Institute');
    await chain.client.fund(partner.address, parseEther('10'));
    proxy.mode = 'down';
    const { job } = await createAndSchedule(partner.service, FAILOVER, 2);
    clock.advance(HOUR + 1000);
    const before = proxy.methods.length;
    const finished = await tickUntil(fx.engine, partner.service, job.uid, 'finished');
    // The first endpoint was asked (and dropped the connection) before each call went on.
    expect(proxy.methods.length).toBeGreaterThan(before);
    expect(await chain.client.getReceipt(finished.transaction!.hash as Hex)).toMatchObject({ status: 'success' });
  });
});
