/**
 * What `npm run torture -- --public-chain` found, each on anvil as Sepolia with its blocks mined by
 * hand: a reorganisation taking out an earlier transaction of the account while a later one waits
 * in the pool (it can never be mined: its nonce waits behind the gap), and a rollback during a fee
 * spike (the stored transaction cannot be re-sent below the base fee). Neither may leave a job
 * waiting forever, fail it, release its credentials, or leave proofs handed out unverifiable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberToHex, parseGwei } from 'viem';
import type { Hex } from '../../main/chain/index.js';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { verifyProof } from '../../main/engine/proofs/verify-proof.js';
import { rpc } from '../chain/chain-fixture.js';
import {
  addIssuingPartner,
  createAndSchedule,
  expectOk,
  openIssuingEngine,
  proofOf,
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

describe('a public chain that loses what the engine waits on (anvil as Sepolia, mined by hand)', () => {
  let chain: SecondChain;
  const open: IssuingFixture[] = [];

  beforeAll(async () => {
    chain = await startSecondChain(SEPOLIA);
  });

  afterAll(async () => {
    for (const fx of open) await fx.close();
    await chain?.stop();
    removeTempDirs();
  });

  async function issuer(name: string): Promise<{ fx: IssuingFixture; partner: IssuingPartner; notices: string[] }> {
    const notices: string[] = [];
    const fx = openIssuingEngine({
      engines: [{ id: ENGINE, rpc_url: chain.rpcUrl, chain_id: SEPOLIA, finality: 'confirmations', confirmations: 3, fee_cap_gwei: 50, replace_after_blocks: 2, environment: 'demo' }],
      issuing: { onNotice: (line) => notices.push(line) },
    });
    open.push(fx);
    const partner = await addIssuingPartner(fx.engine, name);
    await chain.client.fund(partner.address, 10n ** 20n);
    return { fx, partner, notices };
  }

  const txOf = (fx: IssuingFixture, purpose: 'deploy' | 'issue') =>
    fx.engine.issuing.ctx.db.prepare('SELECT hash, raw FROM chain_txs WHERE purpose = ? ORDER BY id DESC LIMIT 1').get(purpose) as { hash: Hex; raw: Hex };

  it('the deployment taken out by a reorganisation while the issue waits behind it in the pool: the engine notices, re-sends the deployment, and the job finishes', async () => {
    await setAutomine(chain.rpcUrl, false);
    try {
      const { fx, partner, notices } = await issuer('Gap University');
      const { job } = await createAndSchedule(partner.service, ENGINE, 2);
      await partner.service.issueJobNow({ engine: ENGINE });
      await chain.client.mine(1);
      await fx.engine.issuing.tick();
      const sent = await partner.service.getJob(job.uid);
      expect(sent.status).toBe('started');
      const deploy = txOf(fx, 'deploy');
      expect(await chain.client.getReceipt(deploy.hash)).not.toBeNull();
      expect(sent.transaction?.hash).toBe(txOf(fx, 'issue').hash);

      // The block holding the deployment is replaced by an empty one: the issue's nonce now waits
      // behind a nonce the chain does not have.
      await rpc(chain.rpcUrl, 'anvil_reorg', [1, []]);
      expect(await chain.client.getReceipt(deploy.hash)).toBeNull();

      let finished = await partner.service.getJob(job.uid);
      for (let block = 0; block < 12 && finished.status !== 'finished'; block++) {
        await chain.client.mine(1);
        await fx.engine.issuing.tick();
        finished = await partner.service.getJob(job.uid);
      }
      expect(finished.status, JSON.stringify(finished)).toBe('finished');
      expect(await chain.client.getReceipt(deploy.hash)).not.toBeNull();
      expect(notices.join('\n')).toMatch(/sepolia chain had lost 1 transaction\(s\)/);
      expectOk(await verifyProof(await proofOf(partner.service, (await partner.service.listJobCertificates(job.uid, { per_page: 0 })).items[0]!.certificate.uid), fx.engine.issuing.verifyOptions()));
    } finally {
      await setAutomine(chain.rpcUrl, true);
    }
  });

  it('the deployment re-sent by reconciling, then dropped from the pool while the issue waits behind it: it is sent again and the job finishes', async () => {
    await setAutomine(chain.rpcUrl, false);
    try {
      const { fx, partner, notices } = await issuer('Twice Unlucky University');
      const { job } = await createAndSchedule(partner.service, ENGINE, 1);
      await partner.service.issueJobNow({ engine: ENGINE });
      await chain.client.mine(1);
      await fx.engine.issuing.tick();
      const deploy = txOf(fx, 'deploy');
      await rpc(chain.rpcUrl, 'anvil_reorg', [1, []]);
      // The engine notices the gap and re-sends the deployment from its stored copy...
      for (let block = 0; block < 6 && notices.length === 0; block++) {
        await chain.client.mine(1);
        await fx.engine.issuing.tick();
      }
      expect(notices.join('\n')).toMatch(/lost 1 transaction\(s\)/);
      expect(await chain.client.isKnown(deploy.hash)).toBe(true);
      // ...which the node then drops before any block takes it.
      await rpc(chain.rpcUrl, 'anvil_dropTransaction', [deploy.hash]);
      expect(await chain.client.isKnown(deploy.hash)).toBe(false);

      let finished = await partner.service.getJob(job.uid);
      for (let block = 0; block < 12 && finished.status !== 'finished'; block++) {
        await chain.client.mine(1);
        await fx.engine.issuing.tick();
        finished = await partner.service.getJob(job.uid);
      }
      expect(finished.status, JSON.stringify(finished)).toBe('finished');
      expect(await chain.client.getReceipt(deploy.hash)).not.toBeNull();
    } finally {
      await setAutomine(chain.rpcUrl, true);
    }
  });

  it('a finished job rolled back during a fee spike: never failed nor its credentials released; its transaction goes out again unchanged once the fee falls, and proofs handed out verify ok', async () => {
    const { fx, partner } = await issuer('Spiked Rollback College');
    const first = await createAndSchedule(partner.service, ENGINE, 1, 'Deploys');
    await partner.service.issueJobNow({ engine: ENGINE });
    await tickUntil(fx.engine, partner.service, first.job.uid, 'unconfirmed');
    await chain.client.mine(2);
    await tickUntil(fx.engine, partner.service, first.job.uid, 'finished');
    const snapshot = await rpc(chain.rpcUrl, 'evm_snapshot', []);
    const { job } = await createAndSchedule(partner.service, ENGINE, 2);
    await partner.service.issueJobNow({ engine: ENGINE });
    await tickUntil(fx.engine, partner.service, job.uid, 'unconfirmed');
    await chain.client.mine(2);
    const finished = await tickUntil(fx.engine, partner.service, job.uid, 'finished');
    const handedOut: ProofFile[] = await Promise.all((await partner.service.listJobCertificates(job.uid, { per_page: 0 })).items.map((c) => proofOf(partner.service, c.certificate.uid)));

    // The issue is rolled back, and the base fee jumps above its max fee (below the cap).
    expect(await rpc(chain.rpcUrl, 'evm_revert', [snapshot])).toBe(true);
    await rpc(chain.rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [numberToHex(parseGwei('40'))]);
    await chain.client.mine(1);
    for (let round = 0; round < 4; round++) await fx.engine.issuing.tick();
    const waiting = await partner.service.getJob(job.uid);
    expect(waiting.status, JSON.stringify(waiting)).toBe('started');
    expect(waiting.waiting).toMatch(/base fee/);
    expect((await partner.service.listJobCredentials(job.uid, { per_page: 0 })).total_items).toBe(2);

    // The fee falls; within replace_after_blocks blocks the engine sends the same bytes again.
    await rpc(chain.rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [numberToHex(parseGwei('1'))]);
    let resent = await partner.service.getJob(job.uid);
    for (let block = 0; block < 4 && resent.status === 'started'; block++) {
      await chain.client.mine(1);
      await fx.engine.issuing.tick();
      resent = await partner.service.getJob(job.uid);
    }
    expect(resent.status).toBe('unconfirmed');
    expect(resent.transaction?.variants).toBe(1);
    await chain.client.mine(2);
    const again = await tickUntil(fx.engine, partner.service, job.uid, 'finished');
    expect(again.transaction?.hash).toBe(finished.transaction?.hash);
    for (const proof of handedOut) expectOk(await verifyProof(proof, fx.engine.issuing.verifyOptions()), 'a proof handed out before the rollback');
  });
});
