/**
 * Where the time of the app's drag-in goes: a folder of 1,000 and of 10,000 files of 10 KB
 * dropped on the desktop window, `Create and schedule`, then `Issue now`, until the job is
 * `finished`, stage by stage. The window's calls are made as the Electron window makes them:
 * the preload hands main the dropped folder's path, and main's IPC handlers
 * (createIpcHandlers over createAppContext) answer, their arguments checked with the contract's
 * validators as trusted-ipc.ts does. The engine is the app's: a real data directory, its
 * scheduler on (the app's 1 s tick), the local anvil chain started before the drop as in a
 * running app; the Partner's keys in a MemorySecretStore (a stand-in for the OS keychain, which
 * holds them out of the way of this path). No browser: what the renderer does with the answers
 * is staging-ui's figure; here the renderer's part (turning staged rows into the create request,
 * and V8-serializing what it sends) is left out of the wall time.
 *
 * What crosses to the window is V8-serialized on main's thread as Electron's IPC does (answers
 * and events), and what arrives is deserialized. The path writes no proof file: proofs are
 * exported from the Jobs view afterwards (`jobs:exportProofs`), a separate action.
 *
 * `npm run bench -- --only drag-in-profile`; PROOFDESK_BENCH_DRAG_COUNTS=1000 for others.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { IPC_ARGUMENT_VALIDATORS, type IpcArgs, type IpcChannel, type IpcResult } from '../common/ipc-contract.js';
import type { AppEvent } from '../common/tasks.js';
import { createAppContext } from '../main/app/app-context.js';
import { setWatchFolderDesktop } from '../main/app/handlers/watch-folders-desktop.js';
import { createIpcHandlers, type IpcHandlers } from '../main/app/ipc-handlers.js';
import { Engine } from '../main/engine/index.js';
import { stage, stageTotals, threadCpuNs, timeStages, type StageTime } from '../main/engine/stage-timing.js';
import { MemorySecretStore } from '../main/secrets/index.js';
import { observeMachine } from './machine.js';
import { benchDir, flushBenchWrites, type BenchResult } from './measure.js';
import { JOB_STAGES, SIGNER_STAGES, profileOf, profileResults, profileTable, stageMeanings, type StageDef } from './profile-tables.js';

const COUNTS = (process.env['PROOFDESK_BENCH_DRAG_COUNTS'] ?? '1000,10000').split(',').map(Number);
const SIZE = 10 * 1024;

/** The rows of the profile, in the order the drag-in goes through them. */
const STAGES: StageDef[] = [
  { name: 'arguments checked', means: "each call's arguments checked with the IPC contract's validators (trusted-ipc.ts), 10,000 rows for the create" },
  { name: 'staging: walk', means: 'staging:addPaths: the dropped folder listed (the watch folder\'s rules)' },
  { name: 'staging: read+hash', means: 'each file read and SHA-256 hashed, its sidecar or manifest.csv row looked up, its row made' },
  { name: 'staging: duplicates', means: 'the files\' hashes looked up among the Partner\'s credentials' },
  { name: 'staging list to the window', means: 'the staged rows V8-serialized for the window (main\'s side of the IPC answer)' },
  { name: 'rows to main', means: 'the create request (every row back) deserialized in main' },
  { name: 'create: read wait', means: 'Create and schedule: waiting for a chunk\'s files to be read (the next chunk is read while one is created)' },
  { name: 'validate', means: 'createAndScheduleMany: each request\'s details checked against the spec, a chunk of 500 per call' },
  { name: 'temp files', means: 'each file written to a temporary file of the store, hashed again, its type sniffed' },
  { name: 'sync', means: 'the store\'s folders made, the chunk\'s temporary files made durable (one syncfs for a chunk of SYNCFS_FROM files or more, else an fdatasync each)' },
  { name: 'insert', means: 'one write transaction per chunk of 500 files: checks, file and credential rows, queued for the search index, tags, activity, the commit' },
  { name: 'insert: store files', means: 'the temporary files renamed into the store' },
  { name: 'insert: schedule', means: 'the open job found, its job_credentials rows and the activity' },
  { name: 'create: original paths', means: 'where each created credential\'s file was dropped from, for "Open the original file" (original-paths.sqlite)' },
  { name: 'events to the window', means: 'task progress, counts and job events V8-serialized for the window' },
  { name: 'answers to the window', means: 'the other answers (the task, the job) V8-serialized for the window' },
  { name: 'chain checks', means: 'Issue now: keys, balance and fees asked of the chain before start' },
  ...JOB_STAGES,
  { name: 'confirmation', means: 'receipt, chain state persisted, job finished (by the scheduler)' },
  { name: 'other', means: "the rest of the wall time on the main thread: the scheduler's wait for its next 1 s tick, the task runner, row checks, GC" },
  { name: 'create: read', means: 'each chunk\'s files read and hashed for the create (16 at once), beside the previous chunk\'s create', overlaps: 'main thread, async', noCpu: true },
  ...SIGNER_STAGES,
];

/** A drop of `count` files in a folder of its own, written (and flushed) before the clock starts. */
function writeDrop(dir: string, count: number): string {
  const folder = join(dir, `diplomas-${count}`);
  mkdirSync(folder);
  for (let i = 0; i < count; i++) writeFileSync(join(folder, `diploma-${String(i).padStart(5, '0')}.pdf`), randomBytes(SIZE));
  return folder;
}

/** The first event to come that `match` takes. */
type Awaiter = (event: AppEvent) => boolean;

interface DragIn {
  stages: Record<string, StageTime>;
  events: number;
}

/** One drag-in of the folder's files, timed; the engine's data directory is `dataDir`. */
async function dragIn(folder: string, count: number, dataDir: string, log: (line: string) => void): Promise<DragIn> {
  const engine = Engine.open({ dataDir, sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { scheduler: true, onError: (error) => log(`drag-in-profile: issuing: ${(error as Error).message}`) } });
  // The desktop app's own part (Electron's shell): with it, the drop remembers its files' paths.
  setWatchFolderDesktop({ openPath: async () => '' });
  try {
    const partner = await engine.addPartner({ name: 'Bench Drag-in University' });
    await engine.issuing.ctx.chains.client('local');
    const ctx = createAppContext({ engine, partner: { id: partner.partner_id, name: partner.name } });
    const handlers: IpcHandlers = createIpcHandlers(ctx);
    const waiting = new Set<{ match: Awaiter; done: () => void }>();
    let events = 0;
    ctx.events.subscribe((event) => {
      stage('events to the window', () => serialize(event));
      events++;
      for (const w of waiting) {
        if (!w.match(event)) continue;
        waiting.delete(w);
        w.done();
      }
    });
    const next = (match: Awaiter) => new Promise<void>((done) => waiting.add({ match, done }));
    /** The renderer's own work (not main's): kept out of the wall time and of main's CPU. */
    let renderer = { ns: 0n, cpuNs: 0n };
    const asRenderer = <T>(fn: () => T): T => {
      const cpu = threadCpuNs();
      const start = process.hrtime.bigint();
      const result = fn();
      renderer = { ns: renderer.ns + process.hrtime.bigint() - start, cpuNs: renderer.cpuNs + threadCpuNs() - cpu };
      return result;
    };
    /** A call as the window makes it: serialized by the renderer, deserialized and checked in main, answered. */
    const call = async <C extends IpcChannel>(channel: C, args: unknown[], names: { toMain?: string; toWindow?: string } = {}): Promise<IpcResult<C>> => {
      const wire = asRenderer(() => serialize(args));
      const received = names.toMain ? stage(names.toMain, () => deserialize(wire) as unknown[]) : (deserialize(wire) as unknown[]);
      const valid: IpcArgs<C> = stage('arguments checked', () => IPC_ARGUMENT_VALIDATORS[channel](received));
      const answer = await (handlers[channel] as (...a: IpcArgs<C>) => Promise<IpcResult<C>>)(...valid);
      stage(names.toWindow ?? 'answers to the window', () => serialize(answer));
      return answer;
    };

    flushBenchWrites();
    timeStages(true);
    const cpuAtDrop = threadCpuNs();
    const processCpuAtDrop = process.cpuUsage();
    const dropped = process.hrtime.bigint();

    const intake = await call('staging:addPaths', [[folder]], { toWindow: 'staging list to the window' });
    if (intake.rows.length !== count) throw new Error(`staged ${intake.rows.length} of ${count} files`);
    // Create and schedule: the renderer sends every staged row back (staging-store.ts).
    const request = asRenderer(() => ({
      rows: intake.rows.map((r) => ({ key: r.key, file: r.file ? { path: r.file.path, file_hash: r.file.file_hash } : null, title: r.title, metadata: r.metadata, tags: r.tags, expiry_date: r.expiry_date, links: r.links })),
      engine: 'local',
      allow_duplicates: false,
    }));
    const taskEnded = next((e) => e.type === 'task' && e.task.kind === 'create-credentials' && e.task.state !== 'running');
    await call('staging:create', [request], { toMain: 'rows to main' });
    await taskEnded;
    // Issue now (the Jobs view's button), then the scheduler follows the job to finished.
    const finished = next((e) => e.type === 'job' && e.status === 'finished');
    await call('jobs:issueNow', ['local']);
    await finished;

    const wallNs = process.hrtime.bigint() - dropped - renderer.ns;
    const mainCpuNs = threadCpuNs() - cpuAtDrop - renderer.cpuNs;
    const processCpu = process.cpuUsage(processCpuAtDrop);
    const stages = stageTotals();
    timeStages(false);

    const service = engine.serviceFor(partner.partner_id);
    const jobs = await service.listJobs({ status: 'finished' });
    const issued = jobs.items.length === 1 ? (await service.listJobCredentials(jobs.items[0]!.uid, { per_page: 1 })).total_items : 0;
    if (issued !== count) throw new Error(`${issued} of ${count} credentials in a finished job`);
    ctx.close();
    const wallMs = Number(wallNs) / 1e6;
    return {
      stages: {
        ...stages,
        wall: { ms: wallMs, cpuMs: (processCpu.user + processCpu.system) / 1000 - Number(renderer.cpuNs) / 1e6 },
        'main thread': { ms: wallMs, cpuMs: Number(mainCpuNs) / 1e6 },
      },
      events,
    };
  } finally {
    timeStages(false);
    setWatchFolderDesktop(null);
    await engine.close();
  }
}

export async function dragInProfileBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-drag-in-profile-');
  const results: BenchResult[] = [];
  const tables: string[] = [];
  for (const count of COUNTS) {
    const label = count.toLocaleString('en-US');
    const folder = writeDrop(dir, count);
    log(`drag-in profile: ${label} files of ${SIZE / 1024} KB dropped, created and scheduled, issued now, until finished...`);
    const window = observeMachine();
    const { stages, events } = await dragIn(folder, count, join(dir, `data-${count}`), log);
    const machine = window.end();
    const rows = profileOf(STAGES, stages, count);
    const wall = stages['wall']!;
    results.push({
      name: `drag-in profile ${label} files: wall, drop → job finished`,
      value: wall.ms,
      unit: 'ms',
      machine,
      notes: [`${Math.round(count / (wall.ms / 1000))} files/s`, `process CPU ${(wall.cpuMs / 1000).toFixed(1)} s (all threads)`, `${events} events to the window`],
    });
    results.push(...profileResults(`drag-in profile ${label} files`, rows, 'µs/file', machine));
    tables.push(`${label} files: wall ${(wall.ms / 1000).toFixed(2)} s, process CPU ${(wall.cpuMs / 1000).toFixed(2)} s, ${events} events to the window, load ${machine.start.load1.toFixed(1)}→${machine.end.load1.toFixed(1)}`);
    tables.push(...profileTable(rows, 'file'));
  }
  log(['drag-in profile (µs per file, share of wall time):', ...tables].join('\n'));
  log(stageMeanings(STAGES));
  return results;
}
