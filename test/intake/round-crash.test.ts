/**
 * A round of 600 proofs killed halfway, with real processes: 600 files wait for one job
 * (taken by an intake in this process, which stops), the job is issued, then `watch` (a child
 * process) finishes them all in one round and is SIGKILLed at the round's fault points — its
 * proofs written and synced under temporary names, none renamed (`proofs-unrenamed`), then, on
 * the next start, every proof in place and `issued` journaled, no original moved (`after-issued`).
 * The start after that ends with every proof present and byte for byte the one the service
 * gives, every original in done/ once, and no temporary file left.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../main/engine/index.js';
import { FOLDER_FAULT_ENV, FolderIntake } from '../../main/intake/index.js';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import { filesUnder, removeTempDirs, tempDir, waitFor } from './helpers.js';
import { endedWithin as ended, startCliChild, type CliRun } from '../cli/cli-child.js';

const PASSPHRASE = 'round crash passphrase';
/**
 * Files in the round: past one proof build slice (512) and past the file count from which a round
 * is synced with one syncfs (256), so the kill falls in a round of several slices on the syncfs
 * path; every file beyond that would add time, not a case.
 */
const COUNT = 600;

function cli(args: string[], env: Record<string, string> = {}): CliRun {
  return startCliChild(args, { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE, [FOLDER_FAULT_ENV]: '', ...env });
}

async function openEngine(data: string): Promise<Engine> {
  const engine = Engine.open({ dataDir: data, sweepIntervalMs: false, secrets: await openSecretStore({ dataDir: data, env: { [PASSPHRASE_ENV]: PASSPHRASE } }), issuing: { scheduler: true, tickMs: 100, onError: () => undefined } });
  await engine.issuing.ctx.chains.client('local');
  return engine;
}

afterAll(() => removeTempDirs());

describe('watch, killed in a round of 600 proofs', () => {
  it('is killed with the whole round written but not renamed, then with it issued but not moved; the next start files every one once, each proof byte for byte', async () => {
    const base = tempDir();
    const data = join(base, 'data');
    const inbox = join(base, 'inbox');
    const proofs = join(inbox, 'proofs');
    mkdirSync(inbox);
    // An hour between jobs: the only job is the one issued below, holding all the files.
    const added = await ended(cli(['partner', 'add', '--name', 'Round Crash College', '--issuing-interval', '1h', '--data', data]), 60_000);
    expect(added.code, added.stderr).toBe(0);
    const partnerId = (JSON.parse(added.stdout) as { partner_id: string }).partner_id;

    let engine = await openEngine(data);
    try {
      const service = engine.serviceFor(partnerId);
      const intake = await FolderIntake.start({ service, dataDir: data, folders: [{ path: inbox }], target: `partner:${partnerId}`, stableMs: 200, jobPollMs: 3_600_000 });
      for (let i = 0; i < COUNT; i++) writeFileSync(join(inbox, `paper-${i}.txt`), `round crash paper ${i}\n`);
      await waitFor(`${COUNT} files waiting for their job`, () => intake.progress().waitingForJob === COUNT, 180_000, 250);
      await intake.stop();
      const job = await service.issueJobNow({ engine: 'local' });
      await waitFor('the job finished', async () => (await service.getJob(job.uid)).status === 'finished', 60_000);
    } finally {
      await engine.close();
    }

    const watchArgs = ['watch', inbox, '--data', data, '--stable', '200ms'];
    const temps = () => filesUnder(proofs).filter((p) => p.endsWith('.writing'));
    const finals = () => filesUnder(proofs).filter((p) => p.endsWith('.proof.json'));

    // Killed after the round's proofs were written and synced: all of them under their temporary
    // names (one round), none under its final name.
    const first = await ended(cli(watchArgs, { [FOLDER_FAULT_ENV]: 'proofs-unrenamed:1' }), 120_000);
    expect(first.signal, first.stderr).toBe('SIGKILL');
    expect(finals()).toEqual([]);
    expect(temps()).toHaveLength(COUNT);

    // Killed right after the round was journaled `issued`: every proof in place, whole, no temporary left, nothing moved yet.
    const second = await ended(cli(watchArgs, { [FOLDER_FAULT_ENV]: 'after-issued:1' }), 120_000);
    expect(second.signal, second.stderr).toBe('SIGKILL');
    expect(temps()).toEqual([]);
    expect(finals()).toHaveLength(COUNT);
    expect(filesUnder(join(inbox, 'done'))).toEqual([]);

    const last = cli(watchArgs);
    await waitFor(`${COUNT} originals in done/`, () => filesUnder(join(inbox, 'done')).length === COUNT, 120_000, 250);
    last.child.kill('SIGTERM');
    const stopped = await ended(last, 30_000);
    expect(stopped.code, stopped.stderr).toBe(0);

    const names = Array.from({ length: COUNT }, (_, i) => `paper-${i}.txt`).sort();
    expect(filesUnder(join(inbox, 'done'))).toEqual(names);
    expect(filesUnder(proofs)).toEqual(names.map((n) => `${n}.proof.json`).sort());
    expect(filesUnder(inbox).filter((p) => !/^(done|proofs)\//.test(p))).toEqual([]);

    // Each proof is the one the service gives for its certificate, byte for byte; one certificate per file.
    engine = await openEngine(data);
    try {
      const service = engine.serviceFor(partnerId);
      const certificates = (await service.listCertificates({ per_page: 0 })).items;
      expect(certificates).toHaveLength(COUNT);
      const paths = certificates.map((c) => (c.certificate.credential.metadata.ingest as { path: string }).path);
      expect(paths.sort()).toEqual(names);
      for (const c of certificates) {
        const path = (c.certificate.credential.metadata.ingest as { path: string }).path;
        expect(readFileSync(join(proofs, `${path}.proof.json`), 'utf8')).toBe(await service.downloadCertificate(c.certificate.uid));
      }
    } finally {
      await engine.close();
    }
  }, 600_000);
});
