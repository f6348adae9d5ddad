/**
 * Engine part 2 benchmarks on a real anvil: issuing 100,000 credentials in one job end to end,
 * exporting their proof files, and verifying the proofs offline (the steps that need no chain).
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../main/engine/index.js';
import { verifyProof } from '../main/engine/proofs/verify-proof.js';
import { MemorySecretStore } from '../main/secrets/index.js';
import { RssSampler, timed, type BenchResult } from './measure.js';

const COUNT = 100_000;
const BATCH = 10_000;

export async function issuingBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'proofdesk-bench-issuing-'));
  const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false, secrets: new MemorySecretStore() });
  const results: BenchResult[] = [];
  try {
    const partner = await engine.addPartner({ name: 'Bench University' });
    const service = engine.serviceFor(partner.partner_id);
    await engine.issuing.ctx.chains.client('local'); // start anvil before the clock runs

    log(`issuing ${COUNT} credentials in one job, end to end...`);
    const rss = new RssSampler();
    const issued = await timed(async () => {
      for (let start = 0; start < COUNT; start += BATCH) {
        const credentials = await service.createCredentials(
          Array.from({ length: BATCH }, (_, k) => ({
            title: `Diploma ${start + k}`,
            metadata: { student: `Student ${start + k}`, programme: 'Computer Science', grade: ((start + k) % 40) / 10 },
            tags: ['graduates-2026'],
          })),
        );
        await service.scheduleCredentials({ engine: 'local', credentials: credentials.map((c) => c.uid) });
      }
      const job = await service.issueJobNow({ engine: 'local' });
      while ((await service.getJob(job.uid)).status !== 'finished') await engine.issuing.tick();
      return job;
    });
    const certificates = await service.listJobCertificates(issued.result.uid, { per_page: 1 });
    if (certificates.total_items !== COUNT) throw new Error(`expected ${COUNT} certificates, found ${certificates.total_items}`);
    results.push({ name: 'issue credentials end to end (create → finished)', value: COUNT / (issued.ms / 1000), unit: 'credentials/s', target: { value: 10_000, better: 'higher' } });
    results.push({ name: 'issuing, peak RSS', value: rss.peakMiB(), unit: 'MiB', target: { value: 1024, better: 'lower' } });
    rss.stop();

    log(`exporting ${COUNT} proof files...`);
    const out = join(dir, 'proofs');
    mkdirSync(out);
    const exported = await timed(async () => {
      for (let page = 1; ; page++) {
        const items = (await service.listJobCertificates(issued.result.uid, { per_page: BATCH, page })).items;
        if (items.length === 0) break;
        for (const item of items) writeFileSync(join(out, `${item.certificate.uid}.proof.json`), await service.downloadCertificate(item.certificate.uid));
      }
    });
    results.push({ name: 'export proof files to disk', value: COUNT / (exported.ms / 1000), unit: 'proofs/s' });

    log(`verifying ${COUNT} proof files offline...`);
    const options = { ...engine.issuing.verifyOptions(), chainFor: () => undefined };
    const files = readdirSync(out);
    const verified = await timed(async () => {
      for (const file of files) {
        const result = await verifyProof(JSON.parse(readFileSync(join(out, file), 'utf8')), options);
        // Offline, the chain steps wait: every other step must have passed.
        if (result.result.status !== 'pending' || result.verification.issuer.status !== 'passed') throw new Error(`${file}: ${result.result.status}`);
      }
    });
    results.push({ name: 'verify proof files offline', value: files.length / (verified.ms / 1000), unit: 'proofs/s', target: { value: 5_000, better: 'higher' } });
    return results;
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
