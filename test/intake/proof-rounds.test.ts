/**
 * The proof stage in rounds (main/intake/finish-round.ts), on the real engine and chain: the
 * files of a finished job get their proofs in bulk — a bounded number of service calls and
 * journal commits whatever the number of files, counted on the real service and journal — and
 * each proof is byte for byte the one downloadCertificate gives. A service without the bulk
 * download (as the remote one) gets the same proofs, one download each.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anvilRpc } from '../../main/chain/anvil-rpc.js';
import { syncFileSystemsRequested } from '../../main/durable/syncfs.js';
import { Engine, type EmbeddedService } from '../../main/engine/index.js';
import type { FolderIntake } from '../../main/intake/index.js';
import { MemorySecretStore } from '../../main/secrets/index.js';
import { filesUnder, tempDir, waitFor, watchInbox, usePartner } from './helpers.js';

let service: EmbeddedService;
let dataDir: string;
const running: FolderIntake[] = [];
// An hour between jobs: each test issues its job with "issue now" once every file waits for it.
usePartner('Proof Rounds College', { issuingIntervalSeconds: 3600, running, opened: (opened) => ({ service, dataDir } = opened) });

/** The real service, its calls counted by method (`hide`: methods it pretends not to have). */
function counted(hide: string[] = []): { service: EmbeddedService; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(service, {
    get(target, name, receiver) {
      if (typeof name === 'string' && hide.includes(name)) return undefined;
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return (...args: unknown[]) => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { service: proxy as EmbeddedService, calls };
}

/**
 * Drops `count` files, waits until all wait for their job, issues it (the watcher paused until
 * the job has finished: what is counted is the proof stage alone), and measures the proof stage.
 */
async function run(tag: string, count: number, watched: { service: EmbeddedService; calls: Map<string, number> }) {
  const { root, intake } = await watchInbox(running, { service: watched.service, dataDir, tag });
  for (let i = 0; i < count; i++) writeFileSync(join(root, `paper-${i}.txt`), `${tag} paper ${i}\n`);
  await waitFor(`${count} files waiting for their job`, () => intake.progress().waitingForJob === count, 120_000);
  intake.pause();
  const job = await service.issueJobNow({ engine: 'local' });
  await waitFor('the job finished', async () => (await service.getJob(job.uid)).status === 'finished', 60_000);
  const commits = intake.journalStats().commits;
  const syncs = syncFileSystemsRequested();
  watched.calls.clear();
  intake.resume();
  await waitFor(`${count} originals in done/`, () => intake.progress().issued === count && intake.pending() === 0, 120_000);
  const syncfsPasses = syncFileSystemsRequested() - syncs;
  const proofs = filesUnder(join(root, 'proofs'));
  expect(proofs).toHaveLength(count);
  expect(filesUnder(join(root, 'done'))).toHaveLength(count);
  // Each proof is the one the service downloads for its certificate, byte for byte.
  const certificates = (await service.listCertificates({ and_credential_tags: tag, per_page: 0 })).items;
  expect(certificates).toHaveLength(count);
  for (const c of certificates) {
    const path = (c.certificate.credential.metadata.ingest as { path: string }).path;
    expect(readFileSync(join(root, 'proofs', `${path}.proof.json`), 'utf8')).toBe(await service.downloadCertificate(c.certificate.uid));
  }
  return { commits: intake.journalStats().commits - commits, calls: watched.calls, syncfsPasses };
}

describe('the proof stage, a round at a time', () => {
  it("one job's 500 finished files: their proofs built with one bulk call, three journal commits, no call per file", async () => {
    const { commits, calls } = await run('rounds-500', 500, counted());
    expect(calls.get('downloadCertificates')).toBe(1);
    expect(calls.get('downloadCertificate') ?? 0).toBe(0);
    expect(calls.get('listCertificates') ?? 0).toBe(0);
    // Besides following the jobs (listJobs, a few per poll): a few calls per job, none per file.
    const total = [...calls].filter(([name]) => name !== 'listJobs').reduce((a, [, n]) => a + n, 0);
    expect(total, JSON.stringify([...calls])).toBeLessThan(10);
    // Paths, issued, moved: one commit each for the round (a few more for writes of other stages meanwhile).
    expect(commits).toBeLessThanOrEqual(6);
  }, 120_000);

  it('2,000 files finishing together are one round (counted on the real journal and syncfs helper): one syncfs, three journal commits', async () => {
    // Each round pays a syncfs (a flush of the whole file system, other programs' writes too)
    // and three commits: rounds of 512 made 4 of each here, 20 per 10,000 files.
    const { commits, calls, syncfsPasses } = await run('rounds-2000', 2_000, counted());
    expect(syncfsPasses).toBe(1);
    expect(commits).toBeLessThanOrEqual(6);
    // The proofs are still built in slices (the event loop turns between them): a few bulk calls, none per file.
    expect(calls.get('downloadCertificates')).toBeLessThanOrEqual(4);
    expect(calls.get('downloadCertificate') ?? 0).toBe(0);
  }, 300_000);

  it('a job being issued is looked at again soon, not at the next poll: with an hour between polls, its files still finish', async () => {
    // An engine of its own whose jobs move on only when told (no scheduler), on a chain that
    // mines only when told: the job stays being issued while the one poll of the hour looks at it.
    const own = Engine.open({ dataDir: join(tempDir(), 'data'), sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { scheduler: false, onError: () => undefined } });
    try {
      const { rpcUrl } = await own.issuing.ctx.chains.client('local');
      const partner = await own.addPartner({ name: 'Slow Issuer', issuingIntervalSeconds: 3600 });
      const ownService = own.serviceFor(partner.partner_id);
      const tag = 'rounds-soon';
      const { root, intake } = await watchInbox(running, { service: ownService, dataDir: join(tempDir(), 'watch-data'), tag, jobPollMs: 3_600_000 });
      for (let i = 0; i < 20; i++) writeFileSync(join(root, `note-${i}.txt`), `${tag} note ${i}\n`);
      await waitFor('20 files waiting for their job', () => intake.progress().waitingForJob === 20, 60_000);
      await anvilRpc(rpcUrl, 'evm_setAutomine', 10_000, [false]);
      const job = await ownService.issueJobNow({ engine: 'local' });
      expect(job.status).not.toBe('finished');
      // The one poll of the hour, while the job is being issued; then the job finishes.
      await (intake as unknown as { core: { collector: { pollJobs(): Promise<void> } } }).core.collector.pollJobs();
      await anvilRpc(rpcUrl, 'evm_setAutomine', 10_000, [true]);
      await anvilRpc(rpcUrl, 'evm_mine', 10_000);
      await waitFor('the job finished', async () => {
        await own.issuing.tick();
        return (await ownService.getJob(job.uid)).status === 'finished';
      }, 30_000);
      await waitFor('20 originals in done/', () => intake.progress().issued === 20, 30_000);
      expect(filesUnder(join(root, 'proofs'))).toHaveLength(20);
      await intake.stop();
    } finally {
      await own.close();
    }
  }, 120_000);

  it('a service without the bulk download (as the remote one): the same proofs, one download per file', async () => {
    const { calls } = await run('rounds-single', 40, counted(['downloadCertificates']));
    expect(calls.get('downloadCertificate')).toBe(40);
  }, 120_000);
});
