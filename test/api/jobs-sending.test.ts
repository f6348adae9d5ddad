/**
 * Sending over HTTP on a chain Proofdesk does not run (anvil as Sepolia, demo engine):
 * POST /jobs/immediate answers insufficient_funds (503) naming the account and the amount while
 * the job stays scheduled, and GET /jobs/<uid> carries the job's transaction (hash, pending since,
 * fees) and what it waits for, through the server's response schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberToHex, parseEther } from 'viem';
import type { Job } from '../../common/wire-types.js';
import { rpc } from '../chain/chain-fixture.js';
import { removeTempDirs, setAutomine, startSecondChain, type SecondChain } from '../support/issuing-fixture.js';
import { expectError, expectResult, startApiFixture, type ApiFixture } from './api-fixture.js';

const ENGINE = 'sepolia-demo';

describe('sending over HTTP (anvil as Sepolia, a demo engine)', () => {
  let chain: SecondChain;
  let api: ApiFixture;

  beforeAll(async () => {
    chain = await startSecondChain(11155111);
    // A depth of 1 block, not Sepolia's default `finalized` tag (anvil finalizes 64 blocks behind its head).
    api = await startApiFixture({ engines: [{ ...chain.engine(ENGINE), finality: 'confirmations' }], scheduler: false });
  });

  afterAll(async () => {
    await api?.close();
    await chain?.stop();
    removeTempDirs();
  });

  it('insufficient_funds (503) names the account and the amount; the job stays scheduled and issues once funded, its transaction shown', async () => {
    const credential = expectResult<{ uid: string }>(await api.call('POST', '/credentials', { json: { title: 'Diploma', metadata: { n: 1 } } }), 201);
    const scheduled = expectResult<Job>(await api.call('POST', '/credentials/schedule', { json: { engine: ENGINE, credentials: [credential.uid] } }), 201);

    const refused = await api.call('POST', '/jobs/immediate', { json: { engine: ENGINE } });
    expectError(refused, 'insufficient_funds');
    expect(refused.status).toBe(503);
    const message: string = refused.body.error.message;
    const account = /account (0x[0-9a-fA-F]{40}) holds 0 \(0 wei\) on sepolia-demo; issuing needs at least [\d.]+ \((\d+) wei\)/.exec(message);
    expect(account, message).not.toBeNull();
    const waiting = expectResult<Job>(await api.call('GET', `/jobs/${scheduled.uid}`), 200);
    expect(waiting).toMatchObject({ status: 'scheduled', transaction: null, failure_reason: null });
    expect(waiting.waiting).toContain(account![1]);

    await rpc(chain.rpcUrl, 'anvil_setBalance', [account![1], numberToHex(parseEther('1'))]);
    await setAutomine(chain.rpcUrl, false);
    try {
      const started = expectResult<Job>(await api.call('POST', '/jobs/immediate', { json: { engine: ENGINE } }), 201);
      expect(started.uid).toBe(scheduled.uid);
      // The registry deployment is out and waits in the pool: the job shows nothing to wait for yet, no issue transaction.
      expect(started).toMatchObject({ status: 'started', waiting: null });
    } finally {
      await setAutomine(chain.rpcUrl, true);
    }
    await chain.client.mine(1);
    let job = expectResult<Job>(await api.call('GET', `/jobs/${scheduled.uid}`), 200);
    for (let round = 0; round < 20 && job.status !== 'finished'; round++) {
      await api.engine.issuing.tick();
      job = expectResult<Job>(await api.call('GET', `/jobs/${scheduled.uid}`), 200);
    }
    expect(job.status).toBe('finished');
    expect(job.transaction).toEqual({
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      explorer_url: null,
      pending_since: null,
      max_fee_gwei: expect.stringMatching(/^\d+(\.\d+)?$/),
      tip_gwei: expect.stringMatching(/^\d+(\.\d+)?$/),
      variants: 1,
    });
    expect(await chain.client.getReceipt(job.transaction!.hash as `0x${string}`)).toMatchObject({ status: 'success' });
  });
});
