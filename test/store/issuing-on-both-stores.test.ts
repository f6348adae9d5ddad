/**
 * Issuing on both stores: a job of credentials (without files) scheduled, issued on a real
 * anvil chain with one transaction, its certificates listed and their proofs verified offline;
 * a certificate revoked on chain, in the store and in its status list; a Partner that cannot pay
 * kept waiting with its job scheduled until funded; a job on an engine wanting three confirmations
 * followed block by block; a job whose process was
 * SIGKILLed after broadcasting finished by a fresh node with the stored transaction; the lease
 * holder SIGKILLed after storing one, its job finished by the node that takes the lease; and of two
 * nodes sharing the database only the lease holder issues. Each node is an issuing runtime of a
 * data directory of its own on a connection of its own, as `serve` nodes sharing a database are.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther } from 'viem';
import type { SecretStore } from '../../common/secret-store.js';
import type { Address } from '../../main/chain/index.js';
import type { Clock } from '../../main/engine/clock.js';
import { ensurePartnerKeys } from '../../main/engine/issuing/partner-keys.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import { checkOffline } from '../../main/engine/proofs/verify-offline.js';
import { setPublicUrl, statusListState } from '../../main/engine/vc/status-list-store.js';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import { createEngineStore, STORES, type EngineStore } from '../support/engine-stores.js';
import {
  createAndSchedule,
  expectOk,
  setAutomine,
  hex0x,
  jsonLines,
  makeTempDir,
  proofOf,
  removeTempDirs,
  runTsChild,
  startSecondChain,
  tickUntil,
  transactionCount,
  waitFor,
  type SecondChain,
} from '../support/issuing-fixture.js';
import { openStoreIssuingNode, type StoreIssuingNode } from '../support/store-issuing-node.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'issue-until-killed.ts');
const PASSPHRASE = 'issuing on both stores';
const COUNT = 300;
const ENGINE = 'second';
/** An engine on the same chain that wants three confirmations. */
const SLOW = 'second-slow';

describe.each(STORES)('issuing on %s', (kind) => {
  let store: EngineStore;
  let chain: SecondChain;
  let keysDir: string;
  let secrets: SecretStore;
  let partnerId: string;
  let address: Address;
  /** The engines' clock, ahead of the wall clock by `ahead` ms (a job comes due without waiting for it). */
  let ahead = 0;
  const clock: Clock = { now: () => Date.now() + ahead };
  const nodes: StoreIssuingNode[] = [];
  /** The node that issues the first jobs. */
  let first: StoreIssuingNode;

  /** A node on a connection of its own, with a data directory of its own. */
  const openNode = (nodeName: string): StoreIssuingNode => {
    const node = openStoreIssuingNode({ db: store.connect(), dataDir: makeTempDir(), secrets, engines: [chain.engine(ENGINE), chain.engine(SLOW, { confirmations: 3 })], clock, issuing: { nodeName } });
    nodes.push(node);
    return node;
  };

  /** Transactions the store holds for the Partner's jobs, by purpose. */
  const storedTxs = (purpose: 'deploy' | 'issue' | 'revoke') =>
    first.db.prepare('SELECT hash, state FROM chain_txs WHERE sender = ? AND purpose = ? ORDER BY id').all(address, purpose) as { hash: string; state: string }[];

  beforeAll(async () => {
    store = createEngineStore(kind);
    chain = await startSecondChain();
    keysDir = makeTempDir();
    secrets = await openSecretStore({ dataDir: keysDir, env: { [PASSPHRASE_ENV]: PASSPHRASE } });
    first = openNode('node-a');
    partnerId = new PartnerRegistry(first.db, clock).add({ name: 'Uni Süd', issuingIntervalSeconds: 1 }).partner_id;
    address = (await ensurePartnerKeys(first.db, secrets, partnerId)).address;
    await chain.client.fund(address, parseEther('10'));
  });

  afterAll(async () => {
    for (const node of nodes) await node.close();
    store?.remove();
    await chain?.stop();
    removeTempDirs();
  });

  it(`issues a job of ${COUNT} credentials with one transaction; every certificate is listed and its proof verifies offline`, async () => {
    const service = first.serviceFor(partnerId);
    const { credentials, job } = await createAndSchedule(service, ENGINE, COUNT, 'Graduate');
    expect((await service.issueJobNow({ engine: ENGINE })).uid).toBe(job.uid);
    const finished = await tickUntil(first, service, job.uid, 'finished');

    // The registry's deployment, then the one transaction that anchors the job.
    expect(await transactionCount(chain.client, address)).toBe(2);
    expect(storedTxs('issue')).toEqual([{ hash: finished.transaction!.hash, state: 'mined' }]);
    const receipt = await chain.client.getReceipt(hex0x(finished.transaction!.hash));
    expect(finished.issued_date).toBe((await chain.client.blockTimestamp(receipt!.blockNumber)).toISOString());

    const certificates = (await service.listJobCertificates(job.uid, { per_page: 0 })).items;
    expect(certificates.map((c) => c.certificate.credential.uid).sort()).toEqual(credentials.map((c) => c.uid).sort());
    for (const { certificate } of certificates) {
      const text = await service.downloadCertificate(certificate.uid);
      const proof = JSON.parse(text) as { leaf: string; root: string; chain: { transaction_id: string } };
      expect(proof.chain.transaction_id).toBe(finished.transaction!.hash);
      const offline = checkOffline({ path: `${certificate.uid}.json`, bytes: Buffer.from(text) });
      expect(offline, certificate.uid).toMatchObject({ kind: 'checked', leaf: { value: proof.leaf }, root: { value: proof.root }, signature: { value: true } });
    }
    expectOk(await service.verifyCertificate(certificates[0]!.certificate.uid), 'on the chain');
    // The log has one 'issued' entry per certificate, naming the transaction, and one 'exported' per proof handed out.
    const issued = await service.listActivity({ kind: 'issued', job_uid: job.uid, per_page: 0 });
    expect(issued.total_items).toBe(COUNT);
    expect(issued.items[0]).toMatchObject({ actor: 'tester', detail: { transaction: finished.transaction!.hash } });
    expect((await service.listActivity({ kind: 'exported', job_uid: job.uid, per_page: 1 })).total_items).toBe(COUNT);
    const byCredential = await service.verifyCredential(credentials[7]!.uid);
    expect(byCredential.items).toHaveLength(1);
    expectOk(byCredential.items[0]!, 'the credential verified by its uid');
    expect((await service.listCertificates({ job_uid: job.uid, per_page: 1 })).total_items).toBe(COUNT);
    expect((await service.listCertificates({ credential_uid: credentials[7]!.uid })).items.map((c) => c.last_verification?.status)).toEqual(['ok']);
  });

  it('revokes a certificate: revoked on the chain and in the store, and its status list entry is set', async () => {
    const scope = first.scopeFor(partnerId);
    const service = first.serviceFor(partnerId);
    const [, certificate] = (await service.listCertificates({ per_page: 2, sort_by: 'issued_date', order: 'asc' })).items;
    const uid = certificate!.certificate.uid;
    // Exported as a Verifiable Credential under a public URL, it gets its position in the Partner's status list.
    setPublicUrl(first.db, 'http://127.0.0.1:8080');
    const vc = JSON.parse(await service.downloadCertificateVc(uid)) as { credentialStatus: { statusListIndex: string; statusListCredential: string } };
    const list = Number(vc.credentialStatus.statusListCredential.split('/').pop());
    const index = Number(vc.credentialStatus.statusListIndex);
    const before = statusListState(scope, list)!;
    expect(before).toMatchObject({ url: vc.credentialStatus.statusListCredential, revoked: [] });

    const { revoked_date } = await service.revokeCertificate(uid);
    expect(revoked_date).toMatch(/^\d{4}-\d\d-\d\dT/);
    const result = await service.verifyCertificate(uid);
    expect(result.result.status).toBe('revoked');
    expect(result.verification.revocation.description.revocation_date).toBe(revoked_date);
    expect((await service.listCertificates({ uid })).items[0]!.revoked_date).toBe(revoked_date);
    expect(statusListState(scope, list)).toEqual({ ...before, revision: before.revision + 1, revoked: [index] });
    expect(storedTxs('revoke')).toHaveLength(1);
    expect(await transactionCount(chain.client, address)).toBe(3);
  });

  it('a Partner whose account cannot pay: insufficient_funds, the job stays scheduled saying so, and issues once funded', async () => {
    const poor = new PartnerRegistry(first.db, clock).add({ name: 'Penniless Academy' }).partner_id;
    const poorAddress = (await ensurePartnerKeys(first.db, secrets, poor)).address;
    const service = first.serviceFor(poor);
    const { job } = await createAndSchedule(service, ENGINE, 3, 'Poor');

    await expect(service.issueJobNow({ engine: ENGINE })).rejects.toMatchObject({ id: 'insufficient_funds', status: 503 });
    expect(await service.getJob(job.uid)).toMatchObject({ status: 'scheduled', waiting: expect.stringContaining('waiting for funds') });
    expect(await transactionCount(chain.client, poorAddress)).toBe(0);

    await chain.client.fund(poorAddress, parseEther('10'));
    await service.issueJobNow({ engine: ENGINE });
    const finished = await tickUntil(first, service, job.uid, 'finished');
    expect(finished.waiting ?? null).toBeNull();
    expect((await service.listJobCertificates(job.uid, {})).total_items).toBe(3);
    expect(await transactionCount(chain.client, poorAddress)).toBe(2);
  });

  it('on an engine wanting three confirmations, a job is unconfirmed (its proofs pending) until the third block, then finished', async () => {
    const partner = new PartnerRegistry(first.db, clock).add({ name: 'Patient College' }).partner_id;
    await chain.client.fund((await ensurePartnerKeys(first.db, secrets, partner)).address, parseEther('10'));
    const service = first.serviceFor(partner);
    const { job } = await createAndSchedule(service, SLOW, 5, 'Patient');
    // Blocks held back: the registry's deployment and the job's transaction each wait for one.
    await setAutomine(chain.rpcUrl, false);
    try {
      expect((await service.issueJobNow({ engine: SLOW })).status).toBe('started');
      await chain.client.mine(1);
      await first.issuing.tick();
      expect((await service.getJob(job.uid)).status).toBe('started');
      await chain.client.mine(1);
      await first.issuing.tick();
    } finally {
      await setAutomine(chain.rpcUrl, true);
    }
    expect((await service.getJob(job.uid)).status).toBe('unconfirmed');
    const [certificate] = (await service.listJobCertificates(job.uid, { per_page: 1 })).items;
    const pending = await service.verifyCertificate(certificate!.certificate.uid);
    expect(pending.result.status).toBe('pending');
    expect(pending.verification.blockchain.description.confirmations).toBe('1');

    await chain.client.mine(2);
    expect((await tickUntil(first, service, job.uid, 'finished', 3)).finished_date).not.toBeNull();
    expectOk(await service.verifyCertificate(certificate!.certificate.uid), 'after three confirmations');
  });

  it('a node killed right after broadcasting a job: a fresh node on another connection finishes it with the stored transaction', async () => {
    // The first node gives up the lease (a node that stopped): the child issues without waiting for it to expire.
    first.issuing.ctx.lease.release();
    const service = first.serviceFor(partnerId);
    const { job } = await createAndSchedule(service, ENGINE, 120, 'Crashed');
    const sentBefore = await transactionCount(chain.client, address);

    const child = await runTsChild(
      CHILD,
      [kind, store.location, makeTempDir(), keysDir, JSON.stringify(chain.engine(ENGINE)), partnerId],
      { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE, PROOFDESK_FAULT_POINT: 'after-broadcast-issue' },
    );
    expect(jsonLines(child.stdout).some((l) => l.survived), child.stdout).toBe(false);
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const [, stored] = storedTxs('issue');
    expect(stored).toEqual({ hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), state: 'sent' });
    expect((await service.getJob(job.uid)).status).toBe('started');

    const fresh = openNode('node-b');
    const finished = await tickUntil(fresh, fresh.serviceFor(partnerId), job.uid, 'finished');
    expect(finished.transaction!.hash).toBe(stored!.hash);
    expect(storedTxs('issue')).toHaveLength(2);
    expect(await transactionCount(chain.client, address)).toBe(sentBefore + 1);
    const [certificate] = (await service.listJobCertificates(job.uid, { per_page: 1 })).items;
    expect((await proofOf(service, certificate!.certificate.uid)).chain.transaction_id).toBe(stored!.hash);
    await fresh.close();
  });

  it('the lease holder killed after storing a job\'s transaction: another node takes the lease once it expires and sends that transaction', async () => {
    const lease = () => first.db.prepare('SELECT node, token, taken_date, expires FROM issuing_lease WHERE id = 1').get() as { node: string; token: number; taken_date: number; expires: number };
    const service = first.serviceFor(partnerId);
    const { job } = await createAndSchedule(service, ENGINE, 100, 'Led');
    const sentBefore = await transactionCount(chain.client, address);

    // The leader's scheduler issues the job once it is due (the Partner's interval is a second), and dies having stored its transaction.
    const child = await runTsChild(
      CHILD,
      [kind, store.location, makeTempDir(), keysDir, JSON.stringify(chain.engine(ENGINE)), partnerId, 'scheduler'],
      { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE, PROOFDESK_FAULT_POINT: 'after-sign-issue' },
    );
    expect(jsonLines(child.stdout)[0], child.stderr).toEqual({ leading: true });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const held = lease();
    expect(held.node).toBe('node-leader');
    const stored = storedTxs('issue').at(-1)!;
    expect(stored.state).toBe('signed');

    const next = openNode('node-e');
    const finished = await waitFor(
      'another node to take the lease and finish the job',
      async () => {
        await next.issuing.tick();
        const now = await service.getJob(job.uid);
        return now.status === 'finished' ? now : undefined;
      },
      30_000,
      200,
    );
    const taken = lease();
    expect(taken).toMatchObject({ node: 'node-e', token: held.token + 1 });
    expect(taken.taken_date).toBeGreaterThanOrEqual(held.expires);
    expect(finished.transaction!.hash).toBe(stored.hash);
    expect(await transactionCount(chain.client, address)).toBe(sentBefore + 1);
    await next.close();
  });

  it('a lease holder without another node\'s engine leaves that engine\'s finished jobs alone and issues its own', async () => {
    // The three-confirmation job of an earlier case finished on SLOW within the re-check window.
    const service = first.serviceFor(partnerId);
    expect(first.db.prepare("SELECT count(*) FROM jobs WHERE engine = ? AND status = 'finished'").pluck().get(SLOW)).toBeGreaterThan(0);
    const narrow = openStoreIssuingNode({ db: store.connect(), dataDir: makeTempDir(), secrets, engines: [chain.engine(ENGINE)], clock, issuing: { nodeName: 'node-narrow' } });
    nodes.push(narrow);
    const { job } = await createAndSchedule(service, ENGINE, 10, 'Narrow');
    ahead += 5_000;
    await tickUntil(narrow, narrow.serviceFor(partnerId), job.uid, 'finished');
    await narrow.close();
  });

  it('of two nodes sharing the database only the lease holder issues a due job', async () => {
    const holder = openNode('node-c');
    const other = openNode('node-d');
    await holder.issuing.tick();
    const service = other.serviceFor(partnerId);
    const { job } = await createAndSchedule(service, ENGINE, 50, 'Due');
    const sentBefore = await transactionCount(chain.client, address);
    // Past the Partner's issuing interval of one second: the job is due.
    ahead = 5_000;

    await other.issuing.tick();
    expect(other.issuing.schedulerPlace()).toBe('elsewhere');
    expect((await service.getJob(job.uid)).status).toBe('scheduled');
    expect(await transactionCount(chain.client, address)).toBe(sentBefore);

    const finished = await tickUntil(holder, holder.serviceFor(partnerId), job.uid, 'finished');
    expect(storedTxs('issue').map((t) => t.hash)).toContain(finished.transaction!.hash);
    expect(await transactionCount(chain.client, address)).toBe(sentBefore + 1);
  });
});
