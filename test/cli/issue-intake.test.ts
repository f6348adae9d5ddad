/**
 * `issue` through the shared intake, on a real engine and a real anvil: files are created and
 * scheduled in batches (one engine call per 500 files, not one per file) and their proofs found
 * with one certificate query per job (never one per credential). The service is the real one,
 * with its calls counted.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IssuingService } from '../../common/issuing-service.js';
import { issueRun, waitForJob } from '../../main/cli/issue/issue-run.js';
import { ManualClock } from '../../main/engine/clock.js';
import { Journal } from '../../main/intake/index.js';
import { addIssuingPartner, createAndSchedule, makeTempDir, openIssuingEngine, type IssuingFixture } from '../support/issuing-fixture.js';

let fixture: IssuingFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

function counting(service: IssuingService): { service: IssuingService; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const wrapped = new Proxy(service, {
    get(target, name: string) {
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls[name] = (calls[name] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { service: wrapped, calls };
}

describe('issue through the intake (real engine, real anvil)', () => {
  it('1,200 files: three batched create-and-schedule calls, one certificate query for the job, every proof written, and a duplicate in the list not issued twice', async () => {
    fixture = openIssuingEngine({ issuing: { scheduler: true, tickMs: 100 } });
    const partner = await addIssuingPartner(fixture.engine, 'Intake University');
    const dir = makeTempDir('proofdesk-issue-intake-');
    const inputs = join(dir, 'in');
    mkdirSync(inputs);
    mkdirSync(join(dir, 'out'));
    const files = Array.from({ length: 1_200 }, (_, i) => join(inputs, `f${i}.txt`));
    files.forEach((f, i) => writeFileSync(f, `file number ${i}`));
    writeFileSync(files[300]!, 'file number 3'); // the same content as f3, in the same batch: not issued twice

    const { service, calls } = counting(partner.service);
    const journal = Journal.open(dir);
    const clock = new ManualClock(Date.UTC(2026, 5, 1));
    const stderr: string[] = [];
    try {
      const result = await issueRun(
        service,
        journal,
        { sourceId: journal.runSource('run'), clock, files, engineId: 'local', target: 'target', now: true, outDir: join(dir, 'out'), allowDuplicates: false, title: undefined, meta: {}, tags: [], expiry: undefined, links: [] },
        { stdout: () => undefined, stderr: (line) => stderr.push(line) },
        {},
      );
      expect(result.code, stderr.join('\n')).toBe(0);
      expect(result.written).toHaveLength(1_199);
      expect(result.skipped).toBe(1);
      // The run journaled with the clock it was given, and is closed.
      expect(journal.openRows([journal.runSource('run')])).toEqual([]);
      const run = new Database(join(dir, 'ingest.sqlite'), { readonly: true });
      expect(run.prepare('SELECT DISTINCT closed_at FROM files').pluck().all()).toEqual([clock.now()]);
      run.close();
    } finally {
      journal.close();
    }
    expect(calls.createAndScheduleCredentials).toBe(3);
    expect(calls.createAndScheduleCredential).toBeUndefined();
    // The job's certificates by credential in one call (the embedded engine's jobCertificateUids; two pages of 1,000 through listJobCertificates before).
    expect(calls.jobCertificateUids).toBe(1);
    expect(calls.listJobCertificates).toBeUndefined();
    expect(calls.listCertificates).toBeUndefined();
    // The proofs built in bulk, a slice of 512 per call (one read of the rows and one activity entry each), none one by one.
    expect(calls.downloadCertificates).toBe(3);
    expect(calls.downloadCertificate).toBeUndefined();
    const proof = JSON.parse(readFileSync(join(dir, 'out', 'f5.txt.proof.json'), 'utf8')) as { certificate: { credential: { title: string } } };
    expect(proof.certificate.credential.title).toBe('f5.txt');
  }, 120_000);

  it('--now on the local chain: the job issued now is looked at again at once, finished, without waiting out a poll interval', async () => {
    fixture = openIssuingEngine();
    const partner = await addIssuingPartner(fixture.engine, 'Prompt University');
    await fixture.engine.issuing.ctx.chains.client('local');
    const { job } = await createAndSchedule(partner.service, 'local', 3);
    // A poll interval it would wait out ends the wait with an error instead: none may come.
    const lines: string[] = [];
    const sleep = (ms: number) => Promise.reject(new Error(`waited out a poll interval of ${ms} ms`));
    const done = await waitForJob(partner.service, job.uid, 'local', true, { stdout: () => undefined, stderr: (line) => lines.push(line) }, {}, sleep);
    expect(done.status).toBe('finished');
    expect(lines).toEqual([`job ${job.uid} on local: scheduled, due ${job.scheduled_date}`, expect.stringMatching(new RegExp(`^job ${job.uid} on local: finished`))]);
  }, 60_000);
});
