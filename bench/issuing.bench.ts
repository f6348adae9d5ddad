/**
 * Engine part 2 benchmarks on a real anvil: issuing 100,000 credentials in one job end to end,
 * exporting their proof files, and verifying the proofs offline (the steps that need no chain).
 * Issuing is compared with its limit measured in the same process: SHA-256 and an Ed25519
 * signature of the very payloads the job signed, in a tight loop on one thread.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { Engine } from '../main/engine/index.js';
import { verifyProof } from '../main/engine/proofs/verify-proof.js';
import { MemorySecretStore } from '../main/secrets/index.js';
import { observeMachine } from './machine.js';
import { RssSampler, repeatUntilStable, repeatedFigure, timed, type BenchResult } from './measure.js';

const COUNT = 100_000;
const BATCH = 10_000;
/** Payloads per round of the hash + sign limit, and proof files per round of offline verification. */
const LIMIT_ROUND = 5_000;
const VERIFY_ROUND = 20_000;

/** SHA-256 of each payload and the Ed25519 signature of the digest, as the signer's workers do. */
function hashAndSign(payloads: string[]): number {
  const { privateKey } = generateKeyPairSync('ed25519');
  const { ms } = timedSync(() => {
    for (const payload of payloads) sign(null, createHash('sha256').update(payload).digest(), privateKey);
  });
  return payloads.length / (ms / 1000);
}

function timedSync(fn: () => void): { ms: number } {
  const start = process.hrtime.bigint();
  fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

export async function issuingBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(os.tmpdir(), 'proofdesk-bench-issuing-'));
  const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false, secrets: new MemorySecretStore() });
  const results: BenchResult[] = [];
  try {
    const partner = await engine.addPartner({ name: 'Bench University' });
    const service = engine.serviceFor(partner.partner_id);
    await engine.issuing.ctx.chains.client('local'); // start anvil before the clock runs

    log(`issuing ${COUNT} credentials in one job, end to end...`);
    const rss = new RssSampler();
    const issuing = observeMachine();
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
    const issuingWindow = issuing.end();
    const peak = rss.peakMiB();
    rss.stop();

    log(`the limit: SHA-256 + Ed25519 of the job's own payloads, one thread (rounds of ${LIMIT_ROUND})...`);
    const db = engine.issuing.ctx.db;
    const payloads = db.prepare('SELECT payload FROM certificates WHERE job_id = (SELECT id FROM jobs WHERE uid = ?) ORDER BY leaf_index').pluck().all(issued.result.uid) as string[];
    if (payloads.length !== COUNT) throw new Error(`expected ${COUNT} payloads, found ${payloads.length}`);
    const limit = await repeatUntilStable((round) => {
      const start = (round * LIMIT_ROUND) % payloads.length;
      return hashAndSign(payloads.slice(start, start + LIMIT_ROUND));
    });
    const rate = COUNT / (issued.ms / 1000);
    results.push({
      name: 'issue credentials end to end (create → finished)',
      value: rate,
      unit: 'credentials/s',
      target: { value: 10_000, better: 'higher' },
      machine: issuingWindow,
      ratio: { value: rate / limit.value, against: '1-thread hash+sign limit' },
      notes: ['too long to repeat'],
    });
    results.push({ name: 'limit: SHA-256 + Ed25519 of the same payloads, 1 thread', ...repeatedFigure(limit), unit: 'payloads/s', notes: [`${os.availableParallelism()} signer threads in the engine`] });
    results.push({ name: 'issuing, peak RSS', value: peak, unit: 'MiB', target: { value: 1024, better: 'lower' }, machine: issuingWindow });

    log(`exporting ${COUNT} proof files...`);
    const out = join(dir, 'proofs');
    mkdirSync(out);
    const exporting = observeMachine();
    const exported = await timed(async () => {
      for (let page = 1; ; page++) {
        const items = (await service.listJobCertificates(issued.result.uid, { per_page: BATCH, page })).items;
        if (items.length === 0) break;
        for (const item of items) writeFileSync(join(out, `${item.certificate.uid}.proof.json`), await service.downloadCertificate(item.certificate.uid));
      }
    });
    results.push({ name: 'export proof files to disk', value: COUNT / (exported.ms / 1000), unit: 'proofs/s', machine: exporting.end(), notes: ['writes every file once'] });

    log(`verifying ${COUNT} proof files offline...`);
    const options = { ...engine.issuing.verifyOptions(), chainFor: () => undefined };
    const files = readdirSync(out);
    // Rounds over successive slices of the files, starting over once all were verified.
    const verified = await repeatUntilStable(async (round) => {
      const start = (round * VERIFY_ROUND) % files.length;
      const slice = files.slice(start, start + VERIFY_ROUND);
      const { ms } = await timed(async () => {
        for (const file of slice) {
          const result = await verifyProof(JSON.parse(readFileSync(join(out, file), 'utf8')), options);
          // Offline, the chain steps wait: every other step must have passed.
          if (result.result.status !== 'pending' || result.verification.issuer.status !== 'passed') throw new Error(`${file}: ${result.result.status}`);
        }
      });
      return slice.length / (ms / 1000);
    });
    results.push({ name: 'verify proof files offline', ...repeatedFigure(verified), unit: 'proofs/s', target: { value: 5_000, better: 'higher' } });
    return results;
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
