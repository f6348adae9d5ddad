/**
 * A chain that loses what the engine recorded, with real anvil processes:
 * - the whole process group (engine AND the local chain) SIGKILLed right after the issue
 *   transaction was recorded as mined (fault point after-mined-issue, PROOFDESK_FAULT_KILL=group);
 * - DATA/chain/local deleted after a job finished;
 * - a "real" chain (a second anvil, not the local engine) rolled back with evm_revert.
 * Each time the engine reconciles at its next start: the proofs already handed out verify, the
 * job is finished (never `unconfirmed` forever), the account spent no extra nonce, and later
 * jobs issue normally (no UNIQUE constraint loop).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Address } from '../../main/chain/index.js';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { verifyProof } from '../../main/engine/proofs/verify-proof.js';
import { MemorySecretStore } from '../../main/secrets/index.js';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import {
  REPO_ROOT,
  addIssuingPartner,
  createAndSchedule,
  expectOk,
  issueNowAndFinish,
  waitFor,
  jsonLines,
  makeTempDir,
  openIssuingEngine,
  proofOf,
  removeTempDirs,
  startSecondChain,
  tickUntil,
  transactionCount,
  type IssuingFixture,
  type SecondChain,
} from '../support/issuing-fixture.js';
import { childArgs } from '../support/ts-child.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'crash-issuer.ts');
const PASSPHRASE = 'chain loss passphrase';

/** Runs the crash issuer in its own process group; the fault point kills the whole group. */
function runGroupKilledChild(dataDir: string, faultPoint: string): Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE, PROOFDESK_FAULT_POINT: faultPoint, PROOFDESK_FAULT_KILL: 'group', PROOFDESK_DATA: dataDir };
    const child = spawn(process.execPath, [...childArgs(CHILD), dataDir, '20', 'issue'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`the child did not end: ${stdout} ${stderr}`));
    }, 60_000);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ signal, stdout, stderr });
    });
  });
}

describe('a chain that lost what the engine recorded', () => {
  const open: IssuingFixture[] = [];
  let second: SecondChain | undefined;

  afterAll(async () => {
    for (const fx of open) await fx.close();
    await second?.stop();
    removeTempDirs();
  });

  it('group-killed right after the issue was recorded mined: the restarted chain still holds it, the job finishes, the proofs verify', async () => {
    const dataDir = makeTempDir();
    const result = await runGroupKilledChild(dataDir, 'after-mined-issue');
    expect(result.signal, result.stderr).toBe('SIGKILL');
    const first = jsonLines<{ partner_id?: string; address?: Address; job_uid?: string; survived?: boolean }>(result.stdout);
    expect(first.some((l) => l.survived)).toBe(false);
    const { partner_id: partnerId, address, job_uid: jobUid } = first.find((l) => l.job_uid)!;

    const notices: string[] = [];
    const fx = openIssuingEngine({
      dataDir,
      keepDir: true,
      secrets: await openSecretStore({ dataDir, env: { [PASSPHRASE_ENV]: PASSPHRASE } }),
      issuing: { onNotice: (line) => notices.push(line) },
    });
    open.push(fx);
    const service = fx.engine.serviceFor(partnerId!);
    const job = await tickUntil(fx.engine, service, jobUid!, 'finished', 20);
    const chain = await fx.engine.issuing.ctx.chains.client('local');
    expect(await transactionCount(chain, address!)).toBe(2);
    const certificates = (await service.listJobCertificates(job.uid, { per_page: 0 })).items;
    expect(certificates).toHaveLength(20);
    const options = fx.engine.issuing.verifyOptions();
    for (const c of certificates) expectOk(await verifyProof(await proofOf(service, c.certificate.uid), options), c.certificate.uid);
    // Nothing was lost, so nothing to shout about.
    expect(notices).toEqual([]);
  });

  it('DATA/chain/local deleted: one loud line, the chain is rebuilt from the stored transactions at their original times, proofs handed out verify, issuing goes on', async () => {
    const dataDir = makeTempDir();
    const secrets = new MemorySecretStore();
    const fx1 = openIssuingEngine({ dataDir, keepDir: true, secrets });
    const partner = await addIssuingPartner(fx1.engine, 'Forgetful Chain University');
    const { job } = await createAndSchedule(partner.service, 'local', 5);
    const finished = await issueNowAndFinish(fx1.engine, partner.service, 'local');
    const certificates = (await partner.service.listJobCertificates(job.uid, { per_page: 0 })).items;
    const handedOut: ProofFile[] = [];
    for (const c of certificates) handedOut.push(await proofOf(partner.service, c.certificate.uid));
    await fx1.close();

    rmSync(join(dataDir, 'chain', 'local'), { recursive: true, force: true });

    const notices: string[] = [];
    const fx2 = openIssuingEngine({ dataDir, keepDir: true, secrets, issuing: { onNotice: (line) => notices.push(line) } });
    open.push(fx2);
    const options = fx2.engine.issuing.verifyOptions();
    for (const proof of handedOut) expectOk(await verifyProof(proof, options), 'a proof handed out before the chain was lost');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/local chain had lost 2 transaction\(s\).*2 re-sent/);
    const service = fx2.engine.serviceFor(partner.id);
    expect((await service.getJob(job.uid)).issued_date).toBe(finished.issued_date);
    const chain = await fx2.engine.issuing.ctx.chains.client('local');
    expect(await transactionCount(chain, partner.address)).toBe(2);

    // The next job takes the next nonce: no collision with what was recorded.
    const next = await createAndSchedule(service, 'local', 3, 'Later');
    const nextJob = await issueNowAndFinish(fx2.engine, service, 'local');
    expect(nextJob.uid).toBe(next.job.uid);
    expect(await transactionCount(chain, partner.address)).toBe(3);
    expect(notices).toHaveLength(1);
  });

  it('a real chain rolled back (evm_revert) under a finished job: re-sent at the next start, finished again, proofs verify', async () => {
    second = await startSecondChain();
    const engines = [second.engine('second')];
    const dataDir = makeTempDir();
    const secrets = new MemorySecretStore();
    const fx1 = openIssuingEngine({ dataDir, keepDir: true, secrets, engines });
    const partner = await addIssuingPartner(fx1.engine, 'Reorganised University');
    await second.client.fund(partner.address, 10n ** 20n);
    const snapshot = await rpc(second.rpcUrl, 'evm_snapshot', []);
    const { job } = await createAndSchedule(partner.service, 'second', 4);
    await issueNowAndFinish(fx1.engine, partner.service, 'second');
    await fx1.close();

    // The chain forgets the deployment and the issue, as a deep reorganisation would.
    expect(await rpc(second.rpcUrl, 'evm_revert', [snapshot])).toBe(true);
    expect(await transactionCount(second.client, partner.address)).toBe(0);

    const notices: string[] = [];
    const fx2 = openIssuingEngine({ dataDir, keepDir: true, secrets, engines, issuing: { onNotice: (line) => notices.push(line) } });
    open.push(fx2);
    const service = fx2.engine.serviceFor(partner.id);
    await fx2.engine.issuing.ctx.chains.client('second');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/second chain had lost 2 transaction/);
    const again = await tickUntil(fx2.engine, service, job.uid, 'finished', 20);
    expect(await transactionCount(second.client, partner.address)).toBe(2);
    const options = fx2.engine.issuing.verifyOptions();
    for (const c of (await service.listJobCertificates(again.uid, { per_page: 0 })).items) {
      expectOk(await verifyProof(await proofOf(service, c.certificate.uid), options), c.certificate.uid);
    }
  });

  it('a rolled-back real chain whose account can no longer pay for the re-sends: the job waits for funds with its credentials and transactions, then finishes as it was, and proofs handed out verify again', async () => {
    second ??= await startSecondChain();
    const engines = [second.engine('second')];
    const dataDir = makeTempDir();
    const secrets = new MemorySecretStore();
    const fx1 = openIssuingEngine({ dataDir, keepDir: true, secrets, engines });
    const partner = await addIssuingPartner(fx1.engine, 'Unlucky University');
    // Rolled back to before the account was even funded: nothing can pay for the re-sends.
    const snapshot = await rpc(second.rpcUrl, 'evm_snapshot', []);
    await second.client.fund(partner.address, 10n ** 20n);
    const { job } = await createAndSchedule(partner.service, 'second', 3);
    const finished = await issueNowAndFinish(fx1.engine, partner.service, 'second');
    const handedOut = await Promise.all((await partner.service.listJobCertificates(job.uid, { per_page: 0 })).items.map((c) => proofOf(partner.service, c.certificate.uid)));
    await fx1.close();
    expect(await rpc(second.rpcUrl, 'evm_revert', [snapshot])).toBe(true);

    const notices: string[] = [];
    const fx2 = openIssuingEngine({ dataDir, keepDir: true, secrets, engines, issuing: { onNotice: (line) => notices.push(line) } });
    open.push(fx2);
    const service = fx2.engine.serviceFor(partner.id);
    await fx2.engine.issuing.ctx.chains.client('second');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('the account cannot pay');
    expect(notices[0]).not.toContain('could not recover');
    // Never failed for want of funds: as blocks come and go without it, the job tries again,
    // waits with its credentials, and says why.
    const waiting = await waitFor('the job to say it waits for funds', async () => {
      await rpc(second!.rpcUrl, 'anvil_mine', ['0x1']);
      await fx2.engine.issuing.tick();
      const j = await service.getJob(job.uid);
      return j.waiting?.startsWith('waiting for funds') ? j : undefined;
    });
    expect(waiting.status).toBe('started');
    expect(notices).toHaveLength(1);
    // Funded: the stored transactions go out unchanged and the same job finishes.
    await second.client.fund(partner.address, 10n ** 20n);
    const again = await waitFor('the same job to finish', async () => {
      await rpc(second!.rpcUrl, 'anvil_mine', ['0x1']);
      await fx2.engine.issuing.tick();
      const j = await service.getJob(job.uid);
      return j.status === 'finished' ? j : undefined;
    });
    expect(again.transaction?.hash ?? null).toBe(finished.transaction?.hash ?? null);
    const options = fx2.engine.issuing.verifyOptions();
    for (const proof of handedOut) expectOk(await verifyProof(proof, options), 'a proof handed out before the rollback');
  });
});

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await response.json()) as { result: unknown }).result;
}
