/**
 * Profiling aid for the watched folder's proof stage (not a registered benchmark): drops N files
 * (BENCH_WATCH_COUNT, default 10,000) into a watched folder, issues the job, then measures only
 * the stage from "job finished" to "every original moved" (and, first, the intake stage from the drop
 * to every file scheduled: wall time, main-thread and process CPU): wall time, main-thread CPU, a main
 * thread profile (PROFILE_OUT=path.cpuprofile), and counts of fs calls, SQLite statements and
 * journal commits (COUNT_CALLS=0: not counted, no wrapper in the way), bytes the process had the disk
 * write (/proc/self/io). STRACE=out.txt: the proof stage's syscalls counted by strace (all threads and
 * the syncfs helper; slow, for counts only); PERF=out.data: sampled by `perf record -g`. PROFILE_APP=1: as the app's watch folder (proofs to an
 * output folder of their own, a tag). `npx tsx bench/proof-stage-profile.ts`
 */
import fs, { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FolderIntake } from '../main/intake/index.js';
import { watchBenchSetup } from './watch-setup.js';

const COUNT = Number(process.env['BENCH_WATCH_COUNT'] ?? 10_000);
const SIZE = 10 * 1024;
const counts = new Map<string, number>();
let counting = false;
const count = (name: string) => {
  if (counting) counts.set(name, (counts.get(name) ?? 0) + 1);
};
function wrap(target: Record<string, unknown>, prefix: string, names: string[]) {
  for (const name of names) {
    const original = target[name] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof original !== 'function') continue;
    target[name] = function (this: unknown, ...args: unknown[]) {
      count(`${prefix}${name}`);
      return original.apply(this, args);
    };
  }
}
const nativeRealpath = fs.realpathSync.native;
const COUNT_CALLS = process.env['COUNT_CALLS'] !== '0';
if (COUNT_CALLS) wrap(fs as unknown as Record<string, unknown>, 'fs.', ['existsSync', 'lstatSync', 'statSync', 'openSync', 'closeSync', 'readFileSync', 'fstatSync', 'renameSync', 'mkdirSync', 'realpathSync', 'readlinkSync', 'rmSync', 'fsyncSync', 'fdatasyncSync', 'writeFileSync']);
if (COUNT_CALLS) {
  (fs.realpathSync as unknown as { native: unknown }).native = nativeRealpath;
  wrap(fs.realpathSync as unknown as Record<string, unknown>, 'fs.realpathSync.', ['native']);
  wrap(fsp as unknown as Record<string, unknown>, 'fsp.', ['open', 'rename', 'writeFile', 'rm', 'stat', 'lstat', 'readFile', 'mkdir']);
  syncBuiltinESMExports();
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  wrap(statementProto, 'sql.', ['run', 'get', 'all', 'iterate']);
  probe.close();
}

/** This process's /proc/self/io counters (write_bytes: what it had the disk write). */
function processIo(): { write_bytes: number; wchar: number } & Record<string, number> {
  const out = { write_bytes: 0, wchar: 0 } as { write_bytes: number; wchar: number } & Record<string, number>;
  for (const line of fs.readFileSync('/proc/self/io', 'utf8').split('\n')) {
    const [key, value] = line.split(': ');
    if (key && value) out[key] = Number(value);
  }
  return out;
}

/**
 * STRACE=path: the proof stage's syscalls counted by strace (`-c`), of every thread of this
 * process and of its children (the syncfs helper and the `sync -f` it forks). Slows the stage a lot:
 * for counts only, never with timings.
 */
async function startStrace(out: string): Promise<() => Promise<void>> {
  const { spawn } = await import('node:child_process');
  const pids = [String(process.pid)];
  for (const tid of fs.readdirSync('/proc/self/task')) {
    for (const child of fs.readFileSync(`/proc/self/task/${tid}/children`, 'utf8').trim().split(' ')) if (child) pids.push(child);
  }
  const strace = spawn('strace', ['-f', '-c', '-o', out, '-e', 'trace=%file,%desc,fsync,fdatasync,syncfs,rename,renameat2', ...pids.flatMap((p) => ['-p', p])], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 2000));
  return () =>
    new Promise<void>((resolve) => {
      strace.on('exit', () => resolve());
      strace.kill('SIGINT');
    });
}

/** PERF=out.data: the proof stage sampled by `perf record -g` (kernel stacks too: where file creation spends its time). */
async function startPerf(out: string): Promise<() => Promise<void>> {
  const { spawn } = await import('node:child_process');
  const perf = spawn('perf', ['record', '-g', '-o', out, '-p', String(process.pid)], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 1000));
  return () =>
    new Promise<void>((resolve) => {
      perf.on('exit', () => resolve());
      perf.kill('SIGINT');
    });
}

function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      out.set(`${tid} ${name}`, ticks * 10);
    } catch {
      // gone
    }
  }
  return out;
}

/** The main thread's CPU ms in a threadCpu() sample (its tid is the process id). */
function mainThread(sample: Map<string, number>): number {
  for (const [thread, ms] of sample) if (thread.startsWith(`${process.pid} `)) return ms;
  return 0;
}

const dir = mkdtempSync(join(tmpdir(), 'proofdesk-proof-stage-'));
const { engine, inbox, staging } = watchBenchSetup(dir);
let intake: FolderIntake | undefined;
try {
  const filler = 'x'.repeat(SIZE - 80);
  for (let i = 0; i < COUNT; i++) writeFileSync(join(staging, `certificate-${i}.txt`), `Certificate of attendance no. ${i}, issued to participant ${i}\n${filler}`.padEnd(SIZE, '.'));
  const partner = await engine.addPartner({ name: 'Bench Hot Folder', issuingIntervalSeconds: 3600 });
  await engine.issuing.ctx.chains.client('local');
  const service = engine.serviceFor(partner.partner_id);
  // PROFILE_APP=1: as the app's watch folder (bench/watch-app.bench.ts): proofs to a folder of their own, a tag.
  const asApp = process.env['PROFILE_APP'] === '1';
  const folder = asApp ? { path: inbox, outDir: join(dir, 'proofs'), tags: ['bench-watch'] } : { path: inbox };
  intake = await FolderIntake.start({ service, dataDir: join(dir, 'data'), folders: [folder] });
  const intakeSession = new Session();
  if (process.env['PROFILE_INTAKE_OUT']) {
    intakeSession.connect();
    await intakeSession.post('Profiler.enable');
    await intakeSession.post('Profiler.setSamplingInterval', { interval: 200 });
    await intakeSession.post('Profiler.start');
  }
  const intake0 = { threads: threadCpu(), cpu: process.cpuUsage(), t: performance.now() };
  for (let i = 0; i < COUNT; i++) renameSync(join(staging, `certificate-${i}.txt`), join(inbox, `certificate-${i}.txt`));
  const watching = intake;
  const until = async (state: 'scheduled' | 'moved') => {
    for (;;) {
      const p = watching.progress();
      if (p.failed + p.duplicates > 0) throw new Error(`unexpected: ${JSON.stringify(p)}`);
      if (watching.reached()[state] >= COUNT) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await until('scheduled');
  const intakeCpu = process.cpuUsage(intake0.cpu);
  if (process.env['PROFILE_INTAKE_OUT']) {
    const { profile } = await intakeSession.post('Profiler.stop');
    writeFileSync(process.env['PROFILE_INTAKE_OUT'], JSON.stringify(profile));
    intakeSession.disconnect();
  }
  const intakeMain = mainThread(threadCpu()) - mainThread(intake0.threads);
  console.log(`intake stage (drop -> all scheduled, 1 s stable time included): ${((performance.now() - intake0.t) / 1000).toFixed(2)} s, main thread ${intakeMain} ms CPU, process ${((intakeCpu.user + intakeCpu.system) / 1000).toFixed(0)} ms, load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  // With strace, the job is issued while the watcher is paused: the counts are the proof stage's alone.
  if (process.env['STRACE'] || process.env['PERF']) watching.pause();
  const job = await service.issueJobNow({ engine: 'local' });
  while ((await service.getJob(job.uid)).status !== 'finished') await new Promise((r) => setTimeout(r, 20));
  const tracing = process.env['STRACE'] ? await startStrace(process.env['STRACE']) : process.env['PERF'] ? await startPerf(process.env['PERF']) : undefined;
  if (process.env['STRACE'] || process.env['PERF']) watching.resume();
  const session = new Session();
  session.connect();
  if (process.env['PROFILE_OUT']) {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const journalBefore = { ...watching.journalStats() };
  const io0 = processIo();
  const cpu0 = process.cpuUsage();
  const threads0 = threadCpu();
  const t0 = performance.now();
  counting = true;
  await until('moved');
  counting = false;
  const wall = performance.now() - t0;
  const io1 = processIo();
  if (tracing) await tracing();
  const cpu = process.cpuUsage(cpu0);
  const threads1 = threadCpu();
  if (process.env['PROFILE_OUT']) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(process.env['PROFILE_OUT'], JSON.stringify(profile));
  }
  const journal = watching.journalStats();
  console.log(`proof stage: ${COUNT} files in ${(wall / 1000).toFixed(2)} s (${Math.round(COUNT / (wall / 1000))} files/s), main thread ${mainThread(threads1) - mainThread(threads0)} ms CPU, process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  for (const [thread, ms] of threads1) {
    const d = ms - (threads0.get(thread) ?? 0);
    if (d >= 20) console.log(`  thread ${thread}: ${d} ms CPU`);
  }
  console.log(`  disk: ${((io1.write_bytes - io0.write_bytes) / 1e6).toFixed(1)} MB written (write_bytes), ${((io1.wchar - io0.wchar) / 1e6).toFixed(1)} MB through write calls (wchar); proofs ${asApp ? 'in an output folder of their own, tagged' : 'in the watched folder'}`);
  console.log(`  journal: ${journal.commits - journalBefore.commits} commits, ${journal.rowWrites - journalBefore.rowWrites} row writes`);
  for (const [name, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${name}: ${n} (${(n / COUNT).toFixed(2)}/file)`);
} finally {
  await intake?.stop();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
