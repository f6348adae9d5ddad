/**
 * Three `serve` nodes on one PostgreSQL database, as three machines: real child processes of the
 * bundled CLI, each with its own data directory (the Partners' keys reach each through a copy of
 * the encrypted secrets file), behind a round-robin balancer that sends every request to the
 * next node. Through it: the part-1 behaviour suite in full (tokens one node issued are good on
 * the others), per-Partner request limits held by the three nodes together, and failover of
 * issuing when the leader is SIGKILLed in the middle of a job on an anvil chain configured as an
 * engine. The part-2 suite issues on `local`, the chain of one data directory, so it runs on
 * three nodes sharing one data directory.
 */
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Address } from '../../main/chain/index.js';
import { describeIssuingLifecycle, type LifecycleContext } from '../behaviour/issuing-lifecycle.suite.js';
import { describeIssuingService, type IssuingContext } from '../behaviour/issuing-service.suite.js';
import { requestToken } from '../api/api-fixture.js';
import { SECOND_ENGINE } from '../support/engine-fixture.js';
import { startSecondChain, transactionCount, waitFor, type SecondChain } from '../support/issuing-fixture.js';
import { startCluster, type Cluster, type ClusterPartner } from './cluster-fixture.js';

/** A node's grant of a Partner's per-second limit: a tenth of it (main/api/request-limiter.ts). */
function burstOf(perSecond: number): number {
  return Math.max(1, Math.floor(perSecond / 10));
}

let chain: SecondChain | undefined;
let started: Promise<Cluster> | undefined;
let partners = 0;

/**
 * The three nodes with their own data directories, started once for the file (the part-1
 * suite's probe asks for them while the tests are collected). Every node would stop with
 * SIGKILL to its process group right after signing and storing an issuing transaction: only
 * the failover test issues, and the node that signs first is the leader.
 */
function cluster(): Promise<Cluster> {
  return (started ??= (async () => {
    chain = await startSecondChain();
    return startCluster({
      engines: [chain.engine('second')],
      environment: 'live',
      env: { PROOFDESK_FAULT_POINT: 'after-sign-issue', PROOFDESK_FAULT_KILL: 'group' },
    });
  })());
}

afterAll(async () => {
  // The Partners added ahead for a context that never came are added before the operator's engine closes.
  await nextPair;
  await (await started?.catch(() => undefined))?.close();
  await chain?.stop();
});

async function addPartner(c: Cluster, prefix: string, issuingIntervalSeconds?: number): Promise<ClusterPartner> {
  partners += 1;
  return c.addPartner(`${prefix} ${partners}`, issuingIntervalSeconds);
}

/** The next context's two Partners, added while the current test runs (adding one writes the secrets file and copies it to three nodes). */
let nextPair: Promise<[ClusterPartner, ClusterPartner]> | undefined;

function addPair(c: Cluster): Promise<[ClusterPartner, ClusterPartner]> {
  return (async () => [await addPartner(c, 'University A'), await addPartner(c, 'College B')] as [ClusterPartner, ClusterPartner])();
}

/** The part-1 suite's context: two new Partners of the cluster, each through the balancer. */
async function clusterContext(): Promise<IssuingContext> {
  const c = await cluster();
  const [a, b] = await (nextPair ?? addPair(c));
  nextPair = addPair(c);
  const serviceA = c.remote(a);
  const serviceB = c.remote(b);
  return {
    serviceA,
    serviceB,
    close: async () => {
      await serviceA.close();
      await serviceB.close();
    },
  };
}

describe('three serve nodes with their own data directories, one PostgreSQL database', () => {
  it('the balancer spreads consecutive requests over all three, and a token one node issued is good on the others', async () => {
    const c = await cluster();
    const partner = await addPartner(c, 'Token University');
    const issued = await requestToken(c.nodes[0]!.origin, partner.clientId, partner.clientSecret);
    expect(issued.status).toBe(200);
    for (const node of c.nodes) {
      const answer = await fetch(`${node.origin}/api/credentials`, { headers: { authorization: `Bearer ${issued.body.access_token as string}` } });
      expect(answer.status, node.name).toBe(200);
    }
    const before = c.balancer.sent();
    const service = c.remote(partner);
    try {
      for (let i = 0; i < 6; i++) await service.listCredentials();
    } finally {
      await service.close();
    }
    const after = c.balancer.sent();
    // The token request and six calls: at least two on each node.
    for (const node of c.nodes) expect((after.get(node.origin) ?? 0) - (before.get(node.origin) ?? 0), node.name).toBeGreaterThanOrEqual(2);
  });
});

describeIssuingService('three serve nodes on PostgreSQL behind a round-robin balancer', clusterContext);

describe('request limits held by three nodes on PostgreSQL', () => {
  interface Shot {
    status: number;
    sent: number;
    received: number;
    body: { error?: { id: string; message: string } };
    retryAfter: string | null;
  }

  /** Sends `count` GET /api/credentials at once, the i-th to node i mod 3 (not through the balancer: straight at the nodes). */
  async function hammer(c: Cluster, token: string, count: number): Promise<Shot[]> {
    return Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const sent = Date.now();
        const answer = await fetch(`${c.nodes[i % 3]!.origin}/api/credentials?per_page=1`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await answer.json()) as Shot['body'];
        return { status: answer.status, sent, received: Date.now(), body, retryAfter: answer.headers.get('retry-after') };
      }),
    );
  }

  /**
   * Resolves early in a wall-clock second after `after` (the previous burst's last answer), so a
   * burst of requests starts in a second no earlier request counted in, and can end within it.
   */
  async function startOfASecond(after: number): Promise<number> {
    return waitFor('the start of a second', () => {
      const now = Date.now();
      return now % 1000 < 100 && now >= Math.ceil(after / 1000) * 1000 ? now - (now % 1000) : undefined;
    }, 3_000, 5);
  }

  async function tokenOf(c: Cluster, partner: ClusterPartner): Promise<string> {
    return (await requestToken(c.nodes[1]!.origin, partner.clientId, partner.clientSecret)).body.access_token as string;
  }

  it('a Partner with N requests per second, hammered in parallel on all three nodes, gets at most N plus one node\'s burst a second', async () => {
    const c = await cluster();
    const perSecond = 10;
    const partner = await addPartner(c, 'Hammer University');
    c.operator.partners.setRequestLimits(partner.partnerId, { perSecond, perDay: null });
    const token = await tokenOf(c, partner);
    const accepted: number[] = [];
    let refusals = 0;
    let lastAnswer = Date.now();
    // Bursts until two fitted within their second (on a loaded machine not every one does).
    for (let wave = 0; wave < 6 && accepted.length < 2; wave++) {
      const second = await startOfASecond(lastAnswer);
      const shots = await hammer(c, token, perSecond * 3);
      lastAnswer = Math.max(...shots.map((s) => s.received));
      for (const shot of shots) expect([200, 429]).toContain(shot.status);
      const refused = shots.filter((s) => s.status === 429);
      refusals += refused.length;
      for (const shot of refused) {
        expect(shot.body.error?.id).toBe('too_many_requests');
        expect(shot.retryAfter).toBe('1');
      }
      // Only answers sent and received within the second were surely counted in it by the nodes.
      const within = shots.filter((s) => s.sent >= second && s.received < second + 1000);
      if (within.length === shots.length) accepted.push(within.filter((s) => s.status === 200).length);
      else expect(within.filter((s) => s.status === 200).length).toBeLessThanOrEqual(perSecond + burstOf(perSecond));
    }
    expect(refusals).toBeGreaterThan(0);
    expect(accepted.length, 'no burst of requests fitted within one second').toBeGreaterThan(0);
    for (const count of accepted) {
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(perSecond + burstOf(perSecond));
    }
  });

  it('a day limit holds across the three nodes: the day\'s requests and not one more, then 429 until midnight UTC', async () => {
    const c = await cluster();
    const perDay = 15;
    const partner = await addPartner(c, 'Day University');
    c.operator.partners.setRequestLimits(partner.partnerId, { perSecond: null, perDay });
    const token = await tokenOf(c, partner);
    const shots = [...(await hammer(c, token, perDay * 3)), ...(await hammer(c, token, 6))];
    expect(shots.filter((s) => s.status === 200)).toHaveLength(perDay);
    const refused = shots.filter((s) => s.status === 429);
    expect(refused).toHaveLength(perDay * 2 + 6);
    const last = refused.at(-1)!;
    expect(last.body.error?.message).toMatch(/^Too many requests: this Partner may make 15 requests per day \(UTC\); try again in /);
    const untilMidnight = (Math.floor(last.received / 86_400_000) + 1) * 86_400_000 - last.received;
    expect(Number(last.retryAfter)).toBeGreaterThanOrEqual(Math.floor(untilMidnight / 1000) - 2);
    expect(Number(last.retryAfter)).toBeLessThanOrEqual(Math.ceil(untilMidnight / 1000) + 2);
  });
});

describeIssuingLifecycle('three serve nodes sharing one data directory on PostgreSQL', async (): Promise<LifecycleContext> => {
  const shared = await startCluster({ engines: [SECOND_ENGINE], sharedDataDir: true });
  try {
    const partner = await shared.addPartner('Lifecycle University');
    const service = shared.remote(partner);
    return {
      service,
      close: async () => {
        await service.close();
        await shared.close();
      },
    };
  } catch (error) {
    await shared.close();
    throw error;
  }
});

describe('failover of issuing when the leader is SIGKILLed mid-job', () => {
  interface Lease {
    node: string;
    token: number;
    taken_date: number;
    expires: number;
  }

  let c: Cluster;
  beforeAll(async () => {
    c = await cluster();
  });

  it('another node finishes the job within 15 s of the lease expiring, with the stored transaction: one transaction on the chain, no job left started', async () => {
    const db = c.operator.issuing.ctx.db;
    const lease = () => db.prepare('SELECT node, token, taken_date, expires FROM issuing_lease').get() as Lease | undefined;
    const leader = await waitFor('a node to hold the issuing lease', () => {
      const held = lease();
      return held && held.expires > Date.now() ? c.nodes.find((n) => n.name === held.node) : undefined;
    });
    const partner = await addPartner(c, 'Failover Faculty', 1);
    await chain!.client.fund(partner.address as Address, parseEther('10'));
    const service = c.remote(partner);
    onTestFinished(() => service.close());
    const credentials = await Promise.all(Array.from({ length: 30 }, (_, i) => service.createCredential({ title: `Failover ${i + 1}`, metadata: { n: i + 1 } })));
    const job = await service.scheduleCredentials({ engine: 'second', credentials: credentials.map((x) => x.uid) });

    const died = leader.run.ended.then((ended) => ({ ...ended, at: Date.now() }));
    await waitFor('the leader to stop at its fault point', () => (leader.alive() ? undefined : true), 40_000);
    const death = await died;
    expect(death.signal, leader.run.stderr()).toBe('SIGKILL');
    // The balancer's health check takes the dead node out of the rotation.
    const survivors = c.nodes.filter((n) => n !== leader);
    c.balancer.setTargets(survivors.map((n) => n.origin));
    const held = lease()!;
    expect(held.node).toBe(leader.name);
    const stored = db.prepare("SELECT hash, state FROM chain_txs WHERE purpose = 'issue'").all() as { hash: string; state: string }[];
    expect(stored).toEqual([{ hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), state: 'signed' }]);

    const finished = await waitFor('a surviving node to finish the job', async () => {
      const now = await service.getJob(job.uid);
      return now.status === 'finished' ? { job: now, at: Date.now() } : undefined;
    }, 40_000);
    expect(finished.at - held.expires).toBeLessThanOrEqual(15_000);
    const taken = lease()!;
    expect(survivors.map((n) => n.name)).toContain(taken.node);
    expect(taken.token).toBe(held.token + 1);
    expect(taken.taken_date).toBeGreaterThanOrEqual(held.expires);

    // One transaction anchors the job, the one the dead leader signed; the chain agrees.
    expect(finished.job.transaction?.hash).toBe(stored[0]!.hash);
    expect(db.prepare("SELECT count(*) FROM chain_txs WHERE purpose = 'issue'").pluck().get()).toBe(1);
    expect(await transactionCount(chain!.client, partner.address as Address)).toBe(2); // the Partner's registry and the job
    expect((await service.listJobCertificates(job.uid, { per_page: 1 })).total_items).toBe(30);
    expect((await service.listJobs({ status: 'started' })).total_items).toBe(0);
    expect(db.prepare("SELECT count(*) FROM jobs WHERE status = 'started'").pluck().get()).toBe(0);

    for (const node of survivors) {
      const ready = await fetch(`${node.origin}/readyz`);
      const body = (await ready.json()) as { result: { status: string; scheduler: string; leader: string } };
      expect(ready.status, node.name).toBe(200);
      expect(body.result).toMatchObject({ status: 'ready', scheduler: node.name === taken.node ? 'here' : 'elsewhere', leader: taken.node });
    }
  });
});
