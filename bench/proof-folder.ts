/** A folder of proof files for the verify benchmarks: one job on the local chain, really issued. */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { EmbeddedService, Engine } from '../main/engine/index.js';

/** Issues `count` credentials as one job on the local chain and writes their proof files into `folder` (made here). */
export async function issueProofFolder(engine: Engine, service: EmbeddedService, folder: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 5_000) {
    const made = await service.createCredentials(Array.from({ length: Math.min(5_000, count - start) }, (_, i) => ({ title: `Bench ${start + i + 1}`, metadata: { n: start + i + 1 } })));
    await service.scheduleCredentials({ engine: 'local', credentials: made.map((c) => c.uid) });
  }
  const job = await service.issueJobNow({ engine: 'local' });
  for (let i = 0; i < 200 && (await service.getJob(job.uid)).status !== 'finished'; i++) await engine.issuing.tick();
  mkdirSync(folder);
  const certificates = (await service.listCertificates({ per_page: 0 })).items;
  for (const c of certificates) writeFileSync(`${folder}/${c.certificate.uid}.proof.json`, await service.downloadCertificate(c.certificate.uid));
  if (certificates.length !== count) throw new Error(`${certificates.length} of ${count} certificates issued`);
}
