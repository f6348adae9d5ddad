/**
 * Child process of engine-persistence.test.ts: fills a data directory through the engine,
 * prints one JSON line `{"committed": true, ...}` with everything it made, then either closes
 * the engine and exits (mode `exit`) or waits to be killed (mode `hang`).
 *
 * Usage: node --import tsx test/support/persistence-writer.ts <dataDir> <exit|hang>
 */
import { Engine } from '../../main/engine/index.js';

const [dataDir, mode] = process.argv.slice(2);
if (!dataDir || (mode !== 'exit' && mode !== 'hang')) {
  console.error('usage: persistence-writer.ts <dataDir> <exit|hang>');
  process.exit(2);
}

const engine = Engine.open({ dataDir, sweepIntervalMs: false });
const uni = engine.partners.add({ name: 'Persistent University', issuingIntervalSeconds: 600 });
const college = engine.partners.add({ name: 'Persistent College' });
const a = engine.serviceFor(uni.partner_id);
const b = engine.serviceFor(college.partner_id);

const usedFile = await a.uploadFile({ file: { data: new TextEncoder().encode(`used ${dataDir}`), name: 'diploma.txt' } });
const freeFile = await a.uploadFile({ file: { data: new TextEncoder().encode(`free ${dataDir}`), name: 'spare.csv' } });
const base = await a.createCredential({ title: 'Base', metadata: { holder: 'Ann' }, tags: ['alpha', 'beta'], expiry_date: '2099-01-01' });
const withFile = await a.createCredential({ title: 'With file', metadata: {}, files: [usedFile.file_hash], credentials: [base.uid], tags: ['gamma'] });
const scheduled = await a.createAndScheduleCredential('local', {
  file: { data: new TextEncoder().encode(`scheduled ${dataDir}`), name: 'scheduled.txt' },
  credential_details: { title: 'Scheduled', metadata: { n: 1 }, tags: ['alpha'] },
});
const job = await a.scheduleCredentials({ engine: 'local', credentials: [withFile.uid] });
await a.addJobTags({ jobs: [{ job_uid: job.uid, tags: ['nightly'] }] });
await a.deleteCredentialTag(base.uid, 'beta');
const bCredential = await b.createCredential({ title: 'B only', metadata: { b: true } });

const state = {
  committed: true,
  partners: engine.partners.list(),
  a: {
    id: uni.partner_id,
    files: await a.listFiles({ per_page: 0 }),
    credentials: await a.listCredentials({ per_page: 0 }),
    jobs: await a.listJobs({ per_page: 0 }),
    jobCredentials: await a.listJobCredentials(job.uid, { per_page: 0 }),
    filtered: await a.listCredentials({ and_tags: 'alpha', per_page: 0 }),
  },
  b: { id: college.partner_id, credentials: await b.listCredentials({ per_page: 0 }) },
  made: { usedFile, freeFile, base, withFile, scheduled, job, bCredential },
};
process.stdout.write(`${JSON.stringify(state)}\n`);

if (mode === 'exit') {
  await engine.close();
  process.exit(0);
} else {
  // Wait to be killed: the engine is never closed, the WAL never checkpointed.
  setInterval(() => undefined, 60_000);
}
