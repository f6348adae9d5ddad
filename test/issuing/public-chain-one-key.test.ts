/**
 * Several Proofdesk instances, one key, on a public chain: anvil run as Sepolia (chain id
 * 11155111), blocks mined by the test. Two data directories restored with the same Partner key
 * issue at the same nonce: the one whose transaction lost waits, says "another Proofdesk is using
 * this key", and signs again at the next free nonce only once the other's transaction is final —
 * both jobs finish, each root anchored once. And an endpoint that hides a mined transaction by
 * hash (a stand-in for a load balancer whose nodes disagree) never gets a mined job's
 * credentials released, neither while it waits nor when a finished job is reconciled. And a
 * live process holding the issuing lease keeps another from issuing.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keccak256, parseEther, toHex, type Hex } from 'viem';
import { nodeName } from '../../main/engine/issuing/issuing-lease.js';
import { ManualClock, type EmbeddedService, type Engine } from '../../main/engine/index.js';
import { rpc, startRpcProxy, type RpcProxy } from '../chain/chain-fixture.js';
import {
  addIssuingPartner,
  certificateUidsOfJob,
  createAndSchedule,
  expectOk,
  openIssuingEngine,
  proofOf,
  removeTempDirs,
  setAutomine,
  startSecondChain,
  tickUntil,
  transactionCount,
  type IssuingFixture,
  type SecondChain,
} from '../support/issuing-fixture.js';

const SEPOLIA = 11155111;
const ENGINE = 'sepolia';
const HOUR = 3_600_000;
/** Topic of the registry's `Issued(bytes32 indexed root)` event. */
const ISSUED_TOPIC = keccak256(toHex('Issued(bytes32)'));

/** How many times `root` was issued on any registry of the chain. */
async function timesIssued(rpcUrl: string, root: string): Promise<number> {
  const logs = (await rpc(rpcUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [ISSUED_TOPIC, `0x${root}`] }])) as unknown[];
  return logs.length;
}

/** The Merkle root a job's proofs name. */
async function rootOf(service: EmbeddedService, jobUid: string): Promise<string> {
  return (await proofOf(service, (await certificateUidsOfJob(service, jobUid))[0]!)).root;
}

/** Explicit rounds of `engine`, a block mined after each, until the job is finished (or `rounds` pass). */
async function mineUntilFinished(chain: SecondChain, engine: Engine, service: EmbeddedService, jobUid: string, rounds = 12) {
  for (let round = 0; round < rounds; round++) {
    await engine.issuing.tick();
    const job = await service.getJob(jobUid);
    if (job.status === 'finished') return job;
    await chain.client.mine(1);
  }
  const job = await service.getJob(jobUid);
  expect(job.status, `job ${jobUid}: ${job.waiting ?? job.failure_reason ?? ''}`).toBe('finished');
  return job;
}

describe('two data directories restored with the same Partner key, issuing on one chain (anvil as Sepolia, final at 2 blocks)', () => {
  let chain: SecondChain;
  let proxy: RpcProxy;
  let a: IssuingFixture;
  let b: IssuingFixture;
  const clock = new ManualClock(Date.now());
  const noticesA: string[] = [];
  const noticesB: string[] = [];

  beforeAll(async () => {
    chain = await startSecondChain(SEPOLIA);
    // The first machine reaches the chain through a proxy that can refuse to take its transactions.
    proxy = await startRpcProxy(chain.rpcUrl);
    const engine = { ...chain.engine(ENGINE, { environment: 'live', confirmations: 2 }), finality: 'confirmations' as const };
    a = openIssuingEngine({ clock, engines: [{ ...engine, rpc_url: proxy.url }], issuing: { onNotice: (line) => noticesA.push(line) } });
    b = openIssuingEngine({ clock, engines: [engine], issuing: { onNotice: (line) => noticesB.push(line) } });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await proxy?.close();
    await chain?.stop();
    removeTempDirs();
  });

  it('the transaction that lost the nonce waits, says "another Proofdesk is using this key", and signs again once the other is final: both finish, each root anchored once', async () => {
    const partner = await addIssuingPartner(a.engine, 'Shared Key University');
    await chain.client.fund(partner.address, parseEther('10'));
    await b.engine.restorePartner(await a.engine.backupPartner(partner.id));
    const serviceA = partner.service;
    const serviceB = b.engine.serviceFor(partner.id);

    // Each machine deploys its own registry with a first job, one after the other.
    await setAutomine(chain.rpcUrl, true);
    const firstA = await createAndSchedule(serviceA, ENGINE, 1, 'A first');
    clock.advance(HOUR + 1000);
    await mineUntilFinished(chain, a.engine, serviceA, firstA.job.uid);
    const firstB = await createAndSchedule(serviceB, ENGINE, 1, 'B first');
    clock.advance(HOUR + 1000);
    await mineUntilFinished(chain, b.engine, serviceB, firstB.job.uid);

    // Both machines have a job due. Blocks come only when the test mines them.
    await setAutomine(chain.rpcUrl, false);
    const jobA = (await createAndSchedule(serviceA, ENGINE, 2, 'Machine A')).job;
    const jobB = (await createAndSchedule(serviceB, ENGINE, 3, 'Machine B')).job;
    clock.advance(HOUR + 1000);
    const nonce = await transactionCount(chain.client, partner.address);

    // A signs and stores its issue at the account's next nonce, but its node does not take it.
    proxy.intercept = ({ method }) => (method === 'eth_sendRawTransaction' ? { error: { code: -32000, message: 'transaction could not be accepted' } } : undefined);
    await a.engine.issuing.tick();
    const signedA = await serviceA.getJob(jobA.uid);
    expect(signedA.status).toBe('started');
    const hashA = signedA.transaction!.hash as Hex;
    expect(await chain.client.isKnown(hashA)).toBe(false);

    // B, knowing nothing of it, signs the same nonce and sends it: pending.
    await b.engine.issuing.tick();
    const sentB = await serviceB.getJob(jobB.uid);
    const hashB = sentB.transaction!.hash as Hex;
    expect((await chain.client.getTransaction(hashB))?.nonce).toBe(nonce);

    // A's node takes transactions again: a pending transaction A did not sign holds its nonce.
    proxy.intercept = undefined;
    await a.engine.issuing.tick();
    const competing = await serviceA.getJob(jobA.uid);
    expect(competing.status).toBe('started');
    expect(competing.failed_date).toBeNull();
    expect(competing.waiting).toMatch(new RegExp(`^another Proofdesk is using this key: a pending transaction, not signed by this data directory, holds nonce ${nonce} of ${partner.address}`, 'i'));

    // B's transaction is mined, not final yet: A names it and still waits, signing nothing.
    await chain.client.mine(1);
    await b.engine.issuing.tick();
    expect((await serviceB.getJob(jobB.uid)).status).toBe('unconfirmed');
    await a.engine.issuing.tick();
    const waiting = await serviceA.getJob(jobA.uid);
    expect(waiting.status).toBe('started');
    expect(waiting.waiting).toContain(`another Proofdesk is using this key: transaction ${hashB}`);
    expect(waiting.waiting).toContain('waiting for its block to be final (1 of 2 blocks)');
    expect(await transactionCount(chain.client, partner.address)).toBe(nonce + 1);
    expect((await serviceA.listJobCredentials(jobA.uid, { per_page: 0 })).total_items).toBe(2);

    // B's block is final: B finishes, and A signs again at the next free nonce.
    await chain.client.mine(1);
    const finishedB = await mineUntilFinished(chain, b.engine, serviceB, jobB.uid);
    const finishedA = await mineUntilFinished(chain, a.engine, serviceA, jobA.uid);
    expect(finishedB.transaction!.hash).toBe(hashB);
    expect(finishedA.transaction!.hash).not.toBe(hashA);
    expect((await chain.client.getTransaction(finishedA.transaction!.hash as Hex))?.nonce).toBe(nonce + 1);
    expect(await chain.client.getReceipt(hashA)).toBeNull();

    // Distinct roots, each anchored exactly once; every credential verifies on both machines.
    const [rootA, rootB] = [await rootOf(serviceA, jobA.uid), await rootOf(serviceB, jobB.uid)];
    expect(rootA).not.toBe(rootB);
    expect(await timesIssued(chain.rpcUrl, rootA)).toBe(1);
    expect(await timesIssued(chain.rpcUrl, rootB)).toBe(1);
    for (const [service, uid] of [
      [serviceA, jobA.uid],
      [serviceB, jobB.uid],
    ] as const) {
      for (const certificate of await certificateUidsOfJob(service, uid)) {
        expectOk(await service.verifyCertificate(certificate), `certificate ${certificate}`);
      }
    }

    // Said loudly once while it waited, and once when it signed again; B had nothing to say.
    expect(noticesA.filter((line) => line.includes('another Proofdesk is using this key'))).toHaveLength(1);
    expect(noticesA.filter((line) => line.includes(`took nonce ${nonce} (now final)`))).toHaveLength(1);
    expect(noticesB).toEqual([]);
  });
});

describe('a load-balanced endpoint stand-in that hides a mined transaction by hash (anvil as Sepolia)', () => {
  let chain: SecondChain;
  let proxy: RpcProxy;
  let fx: IssuingFixture;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    chain = await startSecondChain(SEPOLIA);
    proxy = await startRpcProxy(chain.rpcUrl);
    fx = openIssuingEngine({
      clock,
      engines: [{ ...chain.engine(ENGINE, { environment: 'live', confirmations: 2 }), finality: 'confirmations', rpc_url: proxy.url, replace_after_blocks: 1 }],
    });
  });

  beforeEach(() => {
    proxy.intercept = undefined;
  });

  afterAll(async () => {
    await fx?.close();
    await proxy?.close();
    await chain?.stop();
    removeTempDirs();
  });

  it('"nonce too low" and a hash the node does not know: the mined job keeps its credentials, signs nothing again, and finishes once the node answers', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Load Balanced Institute');
    await chain.client.fund(partner.address, parseEther('10'));
    await setAutomine(chain.rpcUrl, true);
    const first = await createAndSchedule(partner.service, ENGINE, 1, 'First');
    clock.advance(HOUR + 1000);
    await mineUntilFinished(chain, fx.engine, partner.service, first.job.uid);

    await setAutomine(chain.rpcUrl, false);
    const { job } = await createAndSchedule(partner.service, ENGINE, 3, 'Hidden');
    clock.advance(HOUR + 1000);
    await fx.engine.issuing.tick();
    const sent = await partner.service.getJob(job.uid);
    const hash = sent.transaction!.hash as Hex;
    const nonce = (await chain.client.getTransaction(hash))!.nonce;

    // The node the engine reaches says it does not know the transaction (nor its receipt).
    proxy.intercept = ({ method, params }) =>
      (method === 'eth_getTransactionReceipt' || method === 'eth_getTransactionByHash') && String(params[0]).toLowerCase() === hash.toLowerCase() ? { result: null } : undefined;
    await chain.client.mine(1);
    expect(await chain.client.getReceipt(hash)).toMatchObject({ status: 'success' });

    // Rounds over several blocks: re-sent, the node answers "nonce too low".
    for (let round = 0; round < 4; round++) {
      await fx.engine.issuing.tick();
      await chain.client.mine(1);
    }
    const hidden = await partner.service.getJob(job.uid);
    expect(hidden.status).toBe('started');
    expect(hidden.failed_date).toBeNull();
    expect(hidden.transaction!.hash).toBe(hash);
    expect((await partner.service.listJobCredentials(job.uid, { per_page: 0 })).total_items).toBe(3);
    // Nothing signed at another nonce.
    expect(await transactionCount(chain.client, partner.address)).toBe(nonce + 1);

    proxy.intercept = undefined;
    const finished = await mineUntilFinished(chain, fx.engine, partner.service, job.uid);
    expect(finished.transaction!.hash).toBe(hash);
    expect(await timesIssued(chain.rpcUrl, await rootOf(partner.service, job.uid))).toBe(1);
  });
});

describe('a load-balanced endpoint stand-in that hides a finished job\'s transaction by hash (anvil as Sepolia)', () => {
  let chain: SecondChain;
  let proxy: RpcProxy;
  let fx: IssuingFixture;
  const clock = new ManualClock(Date.now());
  const notices: string[] = [];

  beforeAll(async () => {
    chain = await startSecondChain(SEPOLIA);
    proxy = await startRpcProxy(chain.rpcUrl);
    fx = openIssuingEngine({
      clock,
      engines: [{ ...chain.engine(ENGINE, { environment: 'live', confirmations: 2 }), finality: 'confirmations', rpc_url: proxy.url }],
      issuing: { onNotice: (line) => notices.push(line) },
    });
  });

  afterAll(async () => {
    await fx?.close();
    await proxy?.close();
    await chain?.stop();
    removeTempDirs();
  });

  it('reconciling after the receipt went missing: the nonce holds our transaction, so nothing is lost, the job stays finished with its certificates', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Reconciled Institute');
    await chain.client.fund(partner.address, parseEther('10'));
    await setAutomine(chain.rpcUrl, true);
    const { job } = await createAndSchedule(partner.service, ENGINE, 2, 'Finished');
    clock.advance(HOUR + 1000);
    const finished = await mineUntilFinished(chain, fx.engine, partner.service, job.uid);
    const hash = finished.transaction!.hash as Hex;
    const certificates = await certificateUidsOfJob(partner.service, job.uid);
    expect(certificates).toHaveLength(2);

    // The node the engine reaches no longer answers for the transaction by its hash: following
    // the finished job finds no receipt, drops the connection, and the next one reconciles.
    proxy.intercept = ({ method, params }) =>
      (method === 'eth_getTransactionReceipt' || method === 'eth_getTransactionByHash') && String(params[0]).toLowerCase() === hash.toLowerCase() ? { result: null } : undefined;
    for (let round = 0; round < 4; round++) await fx.engine.issuing.tick();
    const after = await partner.service.getJob(job.uid);
    expect(after.status).toBe('finished');
    expect(after.failed_date).toBeNull();
    expect(await certificateUidsOfJob(partner.service, job.uid)).toEqual(certificates);
    expect(notices.filter((line) => line.includes('lost'))).toEqual([]);

    proxy.intercept = undefined;
    await fx.engine.issuing.tick();
    expect((await partner.service.getJob(job.uid)).status).toBe('finished');
    expect(await timesIssued(chain.rpcUrl, await rootOf(partner.service, job.uid))).toBe(1);
  });
});

describe('one data directory, two processes: the issuing lease', () => {
  let chain: SecondChain;
  let fx: IssuingFixture;

  beforeAll(async () => {
    chain = await startSecondChain();
    fx = openIssuingEngine({ engines: [chain.engine('second')] });
  });

  afterAll(async () => {
    await fx?.close();
    await chain?.stop();
    removeTempDirs();
  });

  it('while another live process of this node holds the issuing lease (a stand-in process), this one signs and sends nothing; once it is gone, issuing goes on at once', async () => {
    const partner = await addIssuingPartner(fx.engine, 'Locked Out Academy');
    await chain.client.fund(partner.address, parseEther('10'));
    await createAndSchedule(partner.service, 'second', 2);
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const gone = new Promise((resolve) => holder.once('exit', resolve));
    try {
      // The stand-in's lease, good for an hour: only its death ends it early.
      fx.engine.issuing.ctx.db
        .prepare('INSERT OR REPLACE INTO issuing_lease (id, holder, node, pid, token, taken_date, expires) VALUES (1, ?, ?, ?, 1, ?, ?)')
        .run(`${nodeName()}/${holder.pid}/stand-in`, nodeName(), holder.pid, Date.now(), Date.now() + 3_600_000);
      const job = await partner.service.issueJobNow({ engine: 'second' });
      for (let round = 0; round < 3; round++) await fx.engine.issuing.tick();
      const held = await partner.service.getJob(job.uid);
      expect(held.status).toBe('started');
      expect(held.transaction).toBeNull();
      expect(await transactionCount(chain.client, partner.address)).toBe(0);

      holder.kill('SIGKILL');
      await gone;
      const finished = await tickUntil(fx.engine, partner.service, job.uid, 'finished');
      expect(await chain.client.getReceipt(finished.transaction!.hash as Hex)).toMatchObject({ status: 'success' });
    } finally {
      if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
    }
  });
});
