/**
 * Issuing on SQLite against PostgreSQL: one job of N credentials (100,000 unless
 * PROOFDESK_BENCH_STORE_ISSUING_COUNT says otherwise) on the local anvil, on each store in turn in
 * this process — created and scheduled in batches of 10,000, then issued now and followed to
 * `finished` — by an issuing node on the database opened directly (test/support/store-issuing-node.ts),
 * as `serve` nodes sharing PostgreSQL run it. PostgreSQL is the tests' throwaway cluster
 * (test/support/postgres-cluster.ts: on this machine, durability off). Each store's figures as ms,
 * PostgreSQL's also as a ratio to SQLite's, and the whole job's credentials/s; the engine's
 * stages (stage-timing.ts) as notes.
 *
 * `npm run bench -- --only store-issuing`.
 */
import { systemClock } from '../main/engine/clock.js';
import { ensurePartnerKeys } from '../main/engine/issuing/partner-keys.js';
import { PartnerRegistry } from '../main/engine/partners.js';
import { stageTotals, timeStages } from '../main/engine/stage-timing.js';
import { MemorySecretStore } from '../main/secrets/index.js';
import startPostgresCluster from '../test/support/postgres-cluster.js';
import { createEngineStore, STORES, type StoreKind } from '../test/support/engine-stores.js';
import { openStoreIssuingNode } from '../test/support/store-issuing-node.js';
import { observeMachine, type MachineWindow } from './machine.js';
import { benchDir, timed, type BenchResult } from './measure.js';

const COUNT = Number(process.env['PROOFDESK_BENCH_STORE_ISSUING_COUNT'] ?? 100_000);
const BATCH = 10_000;

interface StoreFigures {
  kind: StoreKind;
  createMs: number;
  issueMs: number;
  stages: Record<string, number>;
  machine: MachineWindow;
}

/** One job of COUNT credentials on a fresh database of `kind`: create and schedule, then issue to `finished`. */
async function issueOn(kind: StoreKind): Promise<StoreFigures> {
  const store = createEngineStore(kind);
  const db = store.connect();
  const secrets = new MemorySecretStore();
  const node = openStoreIssuingNode({ db, dataDir: benchDir(`proofdesk-bench-store-issuing-${kind}-`), secrets, engines: [], clock: systemClock });
  try {
    const partnerId = new PartnerRegistry(db, systemClock).add({ name: 'Bench University' }).partner_id;
    await ensurePartnerKeys(db, secrets, partnerId);
    const service = node.serviceFor(partnerId);
    await node.issuing.ctx.chains.client('local');
    timeStages(true);
    const window = observeMachine();
    const created = await timed(async () => {
      for (let from = 0; from < COUNT; from += BATCH) {
        const bodies = Array.from({ length: Math.min(BATCH, COUNT - from) }, (_, k) => ({
          title: `Diploma ${from + k}`,
          metadata: { student: `Student ${from + k}`, student_number: `S${String(from + k).padStart(8, '0')}`, programme: 'Computer Science', grade: ((from + k) % 40) / 10 },
          tags: ['graduates-2026'],
        }));
        const credentials = await service.createCredentials(bodies);
        await service.scheduleCredentials({ engine: 'local', credentials: credentials.map((c) => c.uid) });
      }
    });
    const issued = await timed(async () => {
      const job = await service.issueJobNow({ engine: 'local' });
      while ((await service.getJob(job.uid)).status !== 'finished') await node.issuing.tick();
    });
    const stages = Object.fromEntries(Object.entries(stageTotals()).map(([name, t]) => [name, Math.round(t.ms)]));
    timeStages(false);
    return { kind, createMs: created.ms, issueMs: issued.ms, stages, machine: window.end() };
  } finally {
    await node.close();
    store.remove();
  }
}

export async function storeIssuingBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const stopCluster = await startPostgresCluster();
  const label = COUNT.toLocaleString('en-US');
  try {
    const figures: StoreFigures[] = [];
    for (const kind of STORES) {
      log(`store issuing: ${label} credentials on ${kind}...`);
      figures.push(await issueOn(kind));
    }
    const sqlite = figures.find((f) => f.kind === 'sqlite')!;
    return figures.flatMap((f) => {
      const ratio = (value: number, peer: number) => (f.kind === 'sqlite' ? undefined : { value: value / peer, against: 'sqlite' });
      const stageNotes = ['read back', 'payload', 'signers wait', 'store', 'merkle', 'transaction', 'confirmation'].map((s) => `${s} ${f.stages[s] ?? 0} ms`);
      return [
        { name: `store issuing ${label} on ${f.kind}: create and schedule`, value: f.createMs, unit: 'ms', machine: f.machine, ratio: ratio(f.createMs, sqlite.createMs), notes: [`insert ${f.stages['insert'] ?? 0} ms`, `schedule ${f.stages['schedule'] ?? 0} ms`] },
        { name: `store issuing ${label} on ${f.kind}: issue now → finished`, value: f.issueMs, unit: 'ms', machine: f.machine, ratio: ratio(f.issueMs, sqlite.issueMs), notes: stageNotes },
        {
          name: `store issuing ${label} on ${f.kind}: create → finished`,
          value: COUNT / ((f.createMs + f.issueMs) / 1000),
          unit: 'credentials/s',
          machine: f.machine,
          ratio: ratio(1 / (f.createMs + f.issueMs), 1 / (sqlite.createMs + sqlite.issueMs)),
        },
      ];
    });
  } finally {
    await stopCluster();
  }
}
