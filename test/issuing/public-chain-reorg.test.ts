/**
 * A public chain that reorganises under finished jobs, played by anvil with Sepolia's chain id
 * (11155111), its blocks mined by hand (anvil_mine) so the test awaits what it caused:
 * - anvil_reorg re-includes a job's issue transaction 3 blocks later: the engine notices it on its
 *   next round (not only at its next connection), records the new block and date, waits for that
 *   block to be final again, and the proofs downloaded before the reorganisation verify `ok`;
 * - evm_revert takes the deployment and the issue out of the chain: the proofs handed out verify
 *   `pending` with the reason (never `failed`), the engine re-sends both from its stored signed
 *   copies, saying so once, and the same proofs verify `ok` again;
 * - a running scheduler notices a vanished transaction by itself and re-sends it;
 * - a chain whose clock runs behind the engine's still gives dates in order;
 * - a job on the `finalized` rule stays unconfirmed ("waiting for finality") until the chain's
 *   finalized block passes its block.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from '../../main/chain/index.js';
import { ManualClock, type Clock } from '../../main/engine/clock.js';
import type { EngineConfig } from '../../main/engine/index.js';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { verifyProof } from '../../main/engine/proofs/verify-proof.js';
import {
  addIssuingPartner,
  createAndSchedule,
  expectOk,
  makeTempDir,
  openIssuingEngine,
  proofOf,
  removeTempDirs,
  startSecondChain,
  tickUntil,
  waitFor,
  type IssuingFixture,
  type IssuingPartner,
  type SecondChain,
} from '../support/issuing-fixture.js';

import { cliInProcess } from '../support/cli-in-process.js';

const SEPOLIA = 11155111;

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

describe('a public chain that reorganises (anvil as Sepolia, mined by hand)', () => {
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

  /** An engine on the chain, its scheduler's rounds run by the test; the loud lines collected. */
  async function issuerOn(engine: EngineConfig, name: string, clock?: Clock): Promise<{ fx: IssuingFixture; partner: IssuingPartner; notices: string[] }> {
    const notices: string[] = [];
    const fx = openIssuingEngine({ engines: [engine], clock, issuing: { onNotice: (line) => notices.push(line) } });
    open.push(fx);
    const partner = await addIssuingPartner(fx.engine, name);
    await chain.client.fund(partner.address, 10n ** 20n);
    return { fx, partner, notices };
  }

  /** Issues `count` credentials at once and follows the job until it is unconfirmed; returns it with its stored transaction. */
  async function issueUnconfirmed(fx: IssuingFixture, partner: IssuingPartner, engine: string, count: number) {
    const { job } = await createAndSchedule(partner.service, engine, count);
    await partner.service.issueJobNow({ engine });
    const unconfirmed = await tickUntil(fx.engine, partner.service, job.uid, 'unconfirmed');
    const tx = fx.engine.issuing.ctx.db.prepare('SELECT t.raw, t.hash, t.block_number FROM jobs j JOIN chain_txs t ON t.id = j.issue_tx WHERE j.uid = ?').get(job.uid) as { raw: Hex; hash: Hex; block_number: number };
    return { job: unconfirmed, tx };
  }

  async function proofsOf(partner: IssuingPartner, jobUid: string): Promise<ProofFile[]> {
    const certificates = (await partner.service.listJobCertificates(jobUid, { per_page: 0 })).items;
    return Promise.all(certificates.map((c) => proofOf(partner.service, c.certificate.uid)));
  }

  it('anvil_reorg re-including the issue 3 blocks later: the job records the new block and date, waits for it to be final, and proofs downloaded before verify ok', async () => {
    const { fx, partner, notices } = await issuerOn({ id: 'sepolia', rpc_url: chain.rpcUrl, chain_id: SEPOLIA, confirmations: 3, finality: 'confirmations', environment: 'demo' }, 'Reorganised University');
    // A first job deploys the registry. anvil stamps the blocks of a reorganisation with the time
    // of the block they fork from: the job's block comes half a minute after that one.
    const first = await issueUnconfirmed(fx, partner, 'sepolia', 1);
    await chain.client.mine(2);
    await tickUntil(fx.engine, partner.service, first.job.uid, 'finished', 1);
    await rpc(chain.rpcUrl, 'evm_increaseTime', [30]);
    const { job, tx } = await issueUnconfirmed(fx, partner, 'sepolia', 3);
    expect((await partner.service.getJob(job.uid)).finality).toEqual({ confirmations: 1, required: 3 });
    await chain.client.mine(2);
    const finished = await tickUntil(fx.engine, partner.service, job.uid, 'finished', 1);
    const handedOut = await proofsOf(partner, job.uid);
    const options = fx.engine.issuing.verifyOptions();
    for (const proof of handedOut) expectOk(await verifyProof(proof, options), 'before the reorganisation');

    // One block more, then the last 4 blocks are replaced, the issue re-included 3 blocks later.
    await chain.client.mine(1);
    await rpc(chain.rpcUrl, 'anvil_reorg', [4, [[tx.raw, 3]]]);
    const receipt = (await chain.client.getReceipt(tx.hash))!;
    expect(Number(receipt.blockNumber)).toBe(tx.block_number + 3);
    const newDate = (await chain.client.blockTimestamp(receipt.blockNumber)).toISOString();
    expect(newDate).not.toBe(finished.issued_date);

    // While the new block is not final, the proofs handed out are pending: never failed.
    const meanwhile = await verifyProof(handedOut[0]!, options);
    expect(meanwhile.result.status).toBe('pending');
    expect(meanwhile.verification.blockchain.status).toBe('pending');

    // The next round notices: the stored block and date follow the chain, the job waits again.
    await fx.engine.issuing.tick();
    const moved = await partner.service.getJob(job.uid);
    expect(moved).toMatchObject({ status: 'unconfirmed', issued_date: newDate, finished_date: null, finality: { confirmations: 1, required: 3 } });
    expect(Date.parse(moved.created_date)).toBeLessThanOrEqual(Date.parse(moved.start_date!));
    expect(Date.parse(moved.start_date!)).toBeLessThanOrEqual(Date.parse(newDate));
    const stored = fx.engine.issuing.ctx.db.prepare('SELECT block_number FROM chain_txs WHERE hash = ?').pluck().get(tx.hash);
    expect(stored).toBe(Number(receipt.blockNumber));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(new RegExp(`sepolia chain reorganised: transaction ${tx.hash} moved from block ${tx.block_number} to block ${Number(receipt.blockNumber)}`));

    await chain.client.mine(2);
    const again = await tickUntil(fx.engine, partner.service, job.uid, 'finished', 1);
    expect(again.issued_date).toBe(newDate);
    expect(Date.parse(again.finished_date!)).toBeGreaterThanOrEqual(Date.parse(newDate));
    for (const proof of handedOut) {
      const result = await verifyProof(proof, options);
      expectOk(result, 'a proof downloaded before the reorganisation');
      expect(result.verification.blockchain.description).toMatchObject({ block_number: String(receipt.blockNumber), block_date: newDate });
      expect(result.verification.expiry.description.issued_date).toBe(newDate);
    }
    expect(notices).toHaveLength(1);
    // Tampering still fails, moved or not.
    const tampered = structuredClone(handedOut[0]!);
    tampered.certificate.credential.title += ' (with honours)';
    expect((await verifyProof(tampered, options)).result.status).toBe('failed');
  });

  it('evm_revert taking the deployment and the issue out: proofs handed out are pending with the reason, the engine re-sends both, and they verify ok again', async () => {
    const { fx, partner, notices } = await issuerOn({ id: 'sepolia', rpc_url: chain.rpcUrl, chain_id: SEPOLIA, confirmations: 3, finality: 'confirmations', environment: 'demo' }, 'Rolled-Back University');
    const snapshot = await rpc(chain.rpcUrl, 'evm_snapshot', []);
    const { job } = await issueUnconfirmed(fx, partner, 'sepolia', 2);
    await chain.client.mine(2);
    await tickUntil(fx.engine, partner.service, job.uid, 'finished', 1);
    const handedOut = await proofsOf(partner, job.uid);
    const options = fx.engine.issuing.verifyOptions();
    for (const proof of handedOut) expectOk(await verifyProof(proof, options), 'before the rollback');

    expect(await rpc(chain.rpcUrl, 'evm_revert', [snapshot])).toBe(true);
    for (const proof of handedOut) {
      const result = await verifyProof(proof, options);
      expect(result.result.status, JSON.stringify(result.verification.blockchain)).toBe('pending');
      expect(result.verification.blockchain.status).toBe('pending');
      expect(result.verification.blockchain.description.reason).toMatch(/not on the chain now.*reorganisation/);
    }
    // So says `verify --rpc` too, from another data directory: pending, not failed.
    const file = join(makeTempDir(), 'handed-out.proof.json');
    writeFileSync(file, JSON.stringify(handedOut[0]));
    const cli = await cliInProcess('verify', file, '--rpc', chain.rpcUrl, '--json', '--data', makeTempDir());
    expect(cli.code).not.toBe(0);
    expect(JSON.parse(cli.out).result.status).toBe('pending');

    // The engine's rounds notice and re-send from the stored signed copies: one loud line.
    const resent = await tickUntil(fx.engine, partner.service, job.uid, 'unconfirmed', 5);
    expect(notices, notices.join('\n')).toHaveLength(1);
    expect(notices[0]).toMatch(/sepolia chain had lost 2 transaction\(s\).*2 re-sent from their stored signed copies/);
    expect(await chain.client.minedNonce(partner.address)).toBe(2);
    await chain.client.mine(2);
    const finished = await tickUntil(fx.engine, partner.service, job.uid, 'finished', 1);
    expect(Date.parse(finished.issued_date!)).toBeGreaterThanOrEqual(Date.parse(resent.start_date!));
    for (const proof of handedOut) expectOk(await verifyProof(proof, options), 'a proof handed out before the rollback');
    expect(notices).toHaveLength(1);
  });

  it('while the scheduler runs (serve, the app, watch), a finished job whose transaction vanished is noticed and re-sent without a new job or connection', async () => {
    let announce: (line: string) => void = () => undefined;
    const announced = new Promise<string>((resolve) => (announce = resolve));
    // The chain is mined by hand: its block time is said (as an operator would in engines.json)
    // rather than learned from the earlier tests' block stamps, which can make it up to 12 s.
    const fx = openIssuingEngine({
      engines: [{ id: 'sepolia', rpc_url: chain.rpcUrl, chain_id: SEPOLIA, confirmations: 3, finality: 'confirmations', environment: 'demo', block_time_s: 1 }],
      issuing: { scheduler: true, tickMs: 100, onNotice: (line) => announce(line) },
    });
    open.push(fx);
    const partner = await addIssuingPartner(fx.engine, 'Watched University');
    await chain.client.fund(partner.address, 10n ** 20n);
    const first = await createAndSchedule(partner.service, 'sepolia', 1, 'Deploys');
    await partner.service.issueJobNow({ engine: 'sepolia' });
    await waitFor('the first job to be mined', async () => ((await partner.service.getJob(first.job.uid)).status === 'unconfirmed' ? true : undefined));
    await chain.client.mine(2);
    await waitFor('the first job to finish', async () => ((await partner.service.getJob(first.job.uid)).status === 'finished' ? true : undefined));
    const snapshot = await rpc(chain.rpcUrl, 'evm_snapshot', []);
    const { job } = await createAndSchedule(partner.service, 'sepolia', 2);
    await partner.service.issueJobNow({ engine: 'sepolia' });
    await waitFor('the job to be mined', async () => ((await partner.service.getJob(job.uid)).status === 'unconfirmed' ? true : undefined));
    await chain.client.mine(2);
    await waitFor('the job to finish', async () => ((await partner.service.getJob(job.uid)).status === 'finished' ? true : undefined));
    const [proof] = await proofsOf(partner, job.uid);

    expect(await rpc(chain.rpcUrl, 'evm_revert', [snapshot])).toBe(true);
    expect(await announced).toMatch(/sepolia chain had lost 1 transaction\(s\).*1 re-sent/);
    // anvil mines what was re-sent a moment after it was sent, not within the call.
    await waitFor('the re-sent transaction to be mined', async () => ((await chain.client.minedNonce(partner.address)) === 3 ? true : undefined));
    await chain.client.mine(2);
    await waitFor('the job to finish again', async () => ((await partner.service.getJob(job.uid)).status === 'finished' ? true : undefined));
    expectOk(await verifyProof(proof!, fx.engine.issuing.verifyOptions()), 'a proof handed out before the rollback');
  });

  it("a chain whose clock runs behind the engine's (its blocks stamped before the job started): the dates still read created ≤ started ≤ issued ≤ finished", async () => {
    const clock = new ManualClock(Date.now() + 90_000);
    const { fx, partner } = await issuerOn({ id: 'sepolia', rpc_url: chain.rpcUrl, chain_id: SEPOLIA, confirmations: 1, finality: 'confirmations', environment: 'demo' }, 'Early University', clock);
    const { job } = await createAndSchedule(partner.service, 'sepolia', 1);
    clock.advance(1_000);
    await partner.service.issueJobNow({ engine: 'sepolia' });
    const finished = await tickUntil(fx.engine, partner.service, job.uid, 'finished');
    const dates = [finished.created_date, finished.start_date!, finished.issued_date!, finished.finished_date!].map((d) => Date.parse(d));
    expect(dates, JSON.stringify(finished)).toEqual([...dates].sort((a, b) => a - b));
    expect(Date.parse(finished.issued_date!)).toBeLessThan(clock.now() - 60_000);
  });

  it('on the finalized rule (the default for Sepolia) a job waits for the chain\'s finalized block, then finishes', async () => {
    const { fx, partner } = await issuerOn({ id: 'sepolia-final', rpc_url: chain.rpcUrl, chain_id: SEPOLIA, confirmations: 3, environment: 'demo' }, 'Patient University');
    const { job } = await issueUnconfirmed(fx, partner, 'sepolia-final', 1);
    // Three confirmations are not final here: anvil finalizes 64 blocks behind its head.
    await chain.client.mine(2);
    await fx.engine.issuing.tick();
    expect(await partner.service.getJob(job.uid)).toMatchObject({ status: 'unconfirmed', finality: { confirmations: 3, required: null } });
    const [proof] = await proofsOf(partner, job.uid);
    expect((await verifyProof(proof, fx.engine.issuing.verifyOptions())).result.status).toBe('pending');
    await chain.client.mine(64);
    await tickUntil(fx.engine, partner.service, job.uid, 'finished', 1);
    expectOk(await verifyProof(proof, fx.engine.issuing.verifyOptions()), 'once final');
  });
});
