/**
 * Failover of issuing between processes that share one database, as `serve` nodes do: the
 * lease holder is killed (SIGKILL) right after it signed and stored a job's transaction and
 * before it sent it; a process of another node takes the lease once it has expired — not
 * before — and finishes the job by sending the stored transaction: one transaction anchors the
 * job, and the takeover comes within 15 s of the kill. Real processes, a real anvil chain.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther } from 'viem';
import { LEASE_MS } from '../../main/engine/issuing/issuing-lease.js';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import {
  addIssuingPartner,
  createAndSchedule,
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

const SCHEDULER_CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'scheduler-child.ts');
const PASSPHRASE = 'correct horse battery staple';

interface Lease {
  holder: string;
  node: string;
  token: number;
  taken_date: number;
  expires: number;
}

describe('the issuing lease when its holder dies mid-job', () => {
  let chain: SecondChain;
  let fx: IssuingFixture;
  let child: ChildProcessWithoutNullStreams | undefined;
  const errors: unknown[] = [];

  beforeAll(async () => {
    chain = await startSecondChain();
    const dataDir = makeTempDir();
    const secrets = await openSecretStore({ dataDir, env: { [PASSPHRASE_ENV]: PASSPHRASE } });
    // This process is the node that survives; its scheduler starts once the other holds the lease.
    fx = openIssuingEngine({ dataDir, secrets, engines: [chain.engine('second')], issuing: { nodeName: 'node-b', tickMs: 200, onError: (e) => errors.push(e) } });
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await fx?.close();
    await chain?.stop();
    removeTempDirs();
  });

  it('another node takes over after the lease expires and sends the stored transaction: the job anchored once', async () => {
    const lease = () => fx.engine.issuing.ctx.db.prepare('SELECT holder, node, token, taken_date, expires FROM issuing_lease').get() as Lease | undefined;
    const partner = await addIssuingPartner(fx.engine, 'Failover Faculty', 1);
    await chain.client.fund(partner.address, parseEther('10'));
    const { job } = await createAndSchedule(partner.service, 'second', 200, 'Failover');

    child = spawn(process.execPath, [...childArgs(SCHEDULER_CHILD), fx.dataDir, '200'], {
      cwd: REPO_ROOT,
      env: { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE, PROOFDESK_NODE_NAME: 'node-a', PROOFDESK_FAULT_POINT: 'after-sign-issue' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const killed = new Promise<{ signal: NodeJS.Signals | null; at: number }>((resolve) => child!.once('exit', (_code, signal) => resolve({ signal, at: Date.now() })));
    await waitFor(`the other node to open its Engine (stderr: ${stderr})`, () => (jsonLines(stdout).some((l) => l.ready) ? true : undefined), 30_000);
    expect(lease()).toMatchObject({ node: 'node-a' });

    // This node's scheduler runs too, but leaves issuing to the holder while it lives.
    expect(fx.engine.issuing.startScheduler(200)).toBe(false);

    const death = await killed;
    expect(death.signal, stderr).toBe('SIGKILL');
    const held = lease()!;
    expect(held.node).toBe('node-a');
    // Killed after storing the job's transaction, before sending it.
    const stored = fx.engine.issuing.ctx.db.prepare("SELECT hash, state FROM chain_txs WHERE purpose = 'issue'").all() as { hash: string; state: string }[];
    expect(stored).toEqual([{ hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), state: 'signed' }]);

    const finished = await waitFor('the job to finish on the surviving node', async () => {
      const now = await partner.service.getJob(job.uid);
      return now.status === 'finished' ? now : undefined;
    }, 30_000);

    const taken = lease()!;
    expect(taken.node).toBe('node-b');
    expect(taken.token).toBe(held.token + 1);
    // Not before the dead holder's lease ran out, and within 15 s of the kill.
    expect(taken.taken_date).toBeGreaterThanOrEqual(held.expires);
    expect(taken.taken_date - death.at).toBeLessThanOrEqual(15_000);
    expect(held.expires - death.at).toBeLessThanOrEqual(LEASE_MS);

    // One transaction anchors the job: the one the dead node signed.
    expect(finished.transaction?.hash).toBe(stored[0]!.hash);
    expect(fx.engine.issuing.ctx.db.prepare("SELECT count(*) FROM chain_txs WHERE purpose = 'issue'").pluck().get()).toBe(1);
    expect(await transactionCount(chain.client, partner.address)).toBe(2); // the registry and the job
    expect((await partner.service.listJobCertificates(job.uid, { per_page: 1 })).total_items).toBe(200);
    expect(errors).toEqual([]);
  });
});
